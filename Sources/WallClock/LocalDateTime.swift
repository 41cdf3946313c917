/// A wall-clock date and time as a camera recorded it, with no time zone.
///
/// The one date-time type of Shoebox: metadata readers produce it, the store keeps its ISO text,
/// and the timeline groups by it. Ordering is chronological; a missing `millisecond` (the file
/// gave no sub-seconds) counts as 0.
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

    /// Whether every field is in range: years 1…9999, a real calendar day, hour 0…23,
    /// minute 0…59, second 0…59 and millisecond 0…999.
    public var isValid: Bool {
        CivilCalendar.isValid(year: year, month: month, day: day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
            && (0...999).contains(millisecond ?? 0)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second * 1000 + (lhs.millisecond ?? 0))
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second * 1000 + (rhs.millisecond ?? 0))
    }
}
