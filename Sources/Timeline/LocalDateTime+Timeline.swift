public import WallClock

/// The timeline's keys for a capture time.
extension LocalDateTime {
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
}
