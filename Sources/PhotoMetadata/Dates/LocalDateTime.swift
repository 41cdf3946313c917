/// A wall-clock date and time as a camera recorded it, with no time zone.
///
/// Ordering is chronological. `millisecond` is `nil` when the file gave no sub-seconds.
public struct LocalDateTime: Sendable, Hashable, Codable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int?

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second * 1000 + (lhs.millisecond ?? 0))
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second * 1000 + (rhs.millisecond ?? 0))
    }
}
