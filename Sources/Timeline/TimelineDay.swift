import WallClock

/// A local calendar day, counted in days since Monday 2001-01-01 (day 0).
///
/// Days before 2001 are negative. The calendar is the proleptic Gregorian one; no time zone is
/// involved: a day is the date a camera's wall clock showed.
public struct TimelineDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 2001-01-01 (a Monday).
    public let daysSince2001: Int

    /// Days from 1970-01-01 to 2001-01-01.
    private static let daysFrom1970 = 11_323

    public init(daysSince2001: Int) {
        self.daysSince2001 = daysSince2001
    }

    /// The day with these Gregorian components, or `nil` when they name no day (years 1…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard Self.isValid(year: year, month: month, day: day) else { return nil }
        self.daysSince2001 = Self.daysSince2001(year: year, month: month, day: day)
    }

    public static func < (lhs: TimelineDay, rhs: TimelineDay) -> Bool {
        lhs.daysSince2001 < rhs.daysSince2001
    }

    /// This day moved by `days` days.
    public func advanced(by days: Int) -> TimelineDay {
        TimelineDay(daysSince2001: daysSince2001 + days)
    }

    /// Year, month (1…12) and day of month (1…31).
    public var components: (year: Int, month: Int, day: Int) {
        CivilCalendar.date(daysSince1970: daysSince2001 + Self.daysFrom1970)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// ISO 8601 weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        let r = daysSince2001 % 7
        return (r < 0 ? r + 7 : r) + 1
    }

    /// `YYYY-MM-DD`, as used in JSON output.
    public var isoString: String {
        let (y, m, d) = components
        return CivilCalendar.padded(y, 4) + "-" + CivilCalendar.padded(m, 2) + "-" + CivilCalendar.padded(d, 2)
    }

    public var description: String { isoString }

    // MARK: Calendar arithmetic

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        CivilCalendar.isValid(year: year, month: month, day: day)
    }

    /// Days since 2001-01-01 of a day given by valid components.
    static func daysSince2001(year: Int, month: Int, day: Int) -> Int {
        CivilCalendar.daysSince1970(year: year, month: month, day: day) - daysFrom1970
    }
}
