import Foundation
import Synchronization
public import WallClock

extension Place {
    /// The place's offset from UTC, in seconds, at a wall-clock time there; `nil` without a zone,
    /// for a zone this system does not know, or for an invalid date.
    ///
    /// A wall-clock time that occurs twice (the hour a daylight-saving change repeats) or never (the
    /// skipped hour) gets the offset Foundation's calendar picks for it.
    public func utcOffset(at local: LocalDateTime) -> Int? {
        guard let identifier = timeZoneIdentifier, local.isValid, let calendar = Self.calendar(in: identifier) else { return nil }
        let components = DateComponents(
            year: local.year, month: local.month, day: local.day,
            hour: local.hour, minute: local.minute, second: local.second)
        guard let instant = calendar.date(from: components) else { return nil }
        return calendar.timeZone.secondsFromGMT(for: instant)
    }

    /// A Gregorian calendar in the zone named `identifier`, made once per zone: making one per
    /// photo was most of the cost of giving an index's photos their places' offsets.
    private static func calendar(in identifier: String) -> Calendar? {
        if let calendar = calendars.withLock({ $0[identifier] }) { return calendar }
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        calendars.withLock { $0[identifier] = calendar }
        return calendar
    }

    private static let calendars = Mutex<[String: Calendar]>([:])
}
