/// A wall-clock date and time as a camera recorded it, with no time zone.
///
/// Ordering is chronological; a missing `millisecond` counts as 0.
public struct TimelineDateTime: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    public var millisecond: Int?

    public init(
        year: Int, month: Int, day: Int,
        hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
    }

    /// Whether every component is in range: years 1…9999, a real calendar day, hour 0…23,
    /// minute 0…59, second 0…60 (a leap second sorts with the next minute's first), millisecond 0…999.
    public var isValid: Bool {
        TimelineDay.isValid(year: year, month: month, day: day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...60).contains(second)
            && (0...999).contains(millisecond ?? 0)
    }

    /// The calendar day of this date-time (midnight to midnight), or `nil` when it is not valid.
    public var calendarDay: TimelineDay? {
        isValid ? TimelineDay(daysSince2001: TimelineDay.daysSince2001(year: year, month: month, day: day)) : nil
    }

    /// Milliseconds from 2001-01-01T00:00:00 on the same wall clock, or `nil` when not valid.
    ///
    /// This is the capture-order key: photos sort by it, then by path.
    public var millisecondsSince2001: Int64? {
        guard isValid else { return nil }
        let day = Int64(TimelineDay.daysSince2001(year: year, month: month, day: day))
        let secondOfDay = Int64((hour * 60 + minute) * 60 + second)
        return day * 86_400_000 + secondOfDay * 1000 + Int64(millisecond ?? 0)
    }

    /// `YYYY-MM-DDTHH:MM:SS`, with `.fff` when milliseconds are known.
    public var description: String {
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if let millisecond { text += "." + pad(millisecond, 3) }
        return text
    }

    public static func < (lhs: TimelineDateTime, rhs: TimelineDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second * 1000 + (lhs.millisecond ?? 0))
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second * 1000 + (rhs.millisecond ?? 0))
    }
}
