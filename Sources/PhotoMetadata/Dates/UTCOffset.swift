/// The difference between a local wall-clock time and UTC, in seconds east of Greenwich.
public struct UTCOffset: Sendable, Hashable, Codable {
    public var seconds: Int

    public init(seconds: Int) {
        self.seconds = seconds
    }
}
