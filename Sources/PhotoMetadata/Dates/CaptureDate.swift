public import WallClock
/// A capture date: the local wall-clock time, its UTC offset when known, and its source.
public struct CaptureDate: Sendable, Hashable, Codable {
    public var local: LocalDateTime
    public var offset: UTCOffset?
    public var source: DateSource

    public init(local: LocalDateTime, offset: UTCOffset? = nil, source: DateSource) {
        self.local = local
        self.offset = offset
        self.source = source
    }
}
