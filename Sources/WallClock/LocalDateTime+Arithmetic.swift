/// A local date-time as a count on its own wall clock, for moving it by a duration.
extension LocalDateTime {
    /// Milliseconds from 1970-01-01T00:00:00 on the same wall clock (negative before it); a
    /// missing `millisecond` counts as 0. Components must be valid.
    public var millisecondsSince1970: Int64 {
        let day = Int64(CivilCalendar.daysSince1970(year: year, month: month, day: day))
        let secondOfDay = Int64((hour * 60 + minute) * 60 + second)
        return day * 86_400_000 + secondOfDay * 1000 + Int64(millisecond ?? 0)
    }

    /// The wall-clock time `milliseconds` after 1970-01-01T00:00:00; `millisecond` is `nil` when
    /// `keepsMilliseconds` is false and the count is a whole second.
    ///
    /// Returns `nil` outside years 1…9999.
    public init?(millisecondsSince1970 milliseconds: Int64, keepsMilliseconds: Bool) {
        // 0001-01-01 and 9999-12-31T23:59:59.999, so the day arithmetic below never overflows.
        guard (-62_135_596_800_000...253_402_300_799_999).contains(milliseconds) else { return nil }
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let rest = Int(milliseconds - days * 86_400_000)
        let (year, month, day) = CivilCalendar.date(daysSince1970: Int(days))
        let millisecond = rest % 1000
        self.init(
            year: year, month: month, day: day, hour: rest / 3_600_000, minute: rest / 60_000 % 60,
            second: rest / 1000 % 60, millisecond: keepsMilliseconds || millisecond != 0 ? millisecond : nil)
    }

    /// This wall-clock time moved by `milliseconds` (sub-seconds kept as they are when the move is
    /// whole seconds), or `nil` when that leaves years 1…9999 or overflows.
    public func adding(milliseconds: Int64) -> LocalDateTime? {
        let (sum, overflow) = millisecondsSince1970.addingReportingOverflow(milliseconds)
        guard !overflow else { return nil }
        return LocalDateTime(millisecondsSince1970: sum, keepsMilliseconds: millisecond != nil)
    }
}
