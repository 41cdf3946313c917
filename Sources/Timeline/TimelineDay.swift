/// A local calendar day, counted in days since Monday 2001-01-01 (day 0).
///
/// Days before 2001 are negative. The calendar is the proleptic Gregorian one; no time zone is
/// involved: a day is the date a camera's wall clock showed.
public struct TimelineDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Days since 2001-01-01 (a Monday).
    public let daysSince2001: Int

    /// Offset between the civil-days origin 0000-03-01 and 2001-01-01.
    private static let epochShift = 719_468 + 11_323

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
        // Howard Hinnant's civil_from_days.
        let z = daysSince2001 + Self.epochShift
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
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
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    public var description: String { isoString }

    // MARK: Calendar arithmetic

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        (1...9999).contains(year) && (1...12).contains(month)
            && day >= 1 && day <= daysInMonth(year: year, month: month)
    }

    /// Howard Hinnant's days_from_civil, shifted to the 2001-01-01 origin. Components must be valid.
    static func daysSince2001(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - epochShift
    }
}

/// `value` in decimal, left-padded with zeros to `width` digits (a minus sign stays in front).
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    return value < 0 ? "-" + padded : padded
}
