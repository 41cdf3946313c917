import Foundation
public import WallClock

extension Place {
    /// The place's offset from UTC, in seconds, at a wall-clock time there; `nil` without a zone,
    /// for a zone this system does not know, or for an invalid date.
    ///
    /// A wall-clock time that occurs twice (the hour a daylight-saving change repeats) or never (the
    /// skipped hour) gets the offset Foundation's calendar picks for it.
    public func utcOffset(at local: LocalDateTime) -> Int? {
        guard let identifier = timeZoneIdentifier, local.isValid,
              let zone = TimeZone(identifier: identifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: local.year, month: local.month, day: local.day,
            hour: local.hour, minute: local.minute, second: local.second)
        guard let instant = calendar.date(from: components) else { return nil }
        return zone.secondsFromGMT(for: instant)
    }
}
