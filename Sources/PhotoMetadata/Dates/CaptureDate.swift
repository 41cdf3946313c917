public import WallClock
/// A capture date: the local wall-clock time, its UTC offset when known, and its source.
public struct CaptureDate: Sendable, Hashable, Codable {
    public var local: LocalDateTime
    public var offset: UTCOffset?
    public var source: DateSource
    /// Where `offset` came from; `nil` when there is none, or when it is the indexing machine's zone.
    public var offsetSource: OffsetSource?

    public init(local: LocalDateTime, offset: UTCOffset? = nil, source: DateSource, offsetSource: OffsetSource? = nil) {
        self.local = local
        self.offset = offset
        self.source = source
        self.offsetSource = offsetSource
    }
}
