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
        guard let identifier = timeZoneIdentifier, local.isValid else { return nil }
        let day = ZoneDay(zone: identifier, year: local.year, month: local.month, day: local.day)
        if let offset = Self.wholeDays.withLock({ $0[day] }) { return offset }
        guard let calendar = Self.calendar(in: identifier) else { return nil }
        if let offset = Self.wholeDayOffset(day, in: calendar) {
            Self.wholeDays.withLock { days in
                if days.count >= Self.wholeDaysKept { days.removeAll(keepingCapacity: true) }
                days[day] = offset
            }
            return offset
        }
        let components = DateComponents(
            year: local.year, month: local.month, day: local.day,
            hour: local.hour, minute: local.minute, second: local.second)
        guard let instant = calendar.date(from: components) else { return nil }
        return calendar.timeZone.secondsFromGMT(for: instant)
    }

    /// One calendar day in one zone.
    private struct ZoneDay: Hashable {
        var zone: String
        var year, month, day: Int
    }

    /// The offset every wall-clock time of `day` has, when no transition of its zone falls within
    /// three hours of the day (so every time of it maps to an instant with the same offset); `nil`
    /// on a day with a transition, whose times are converted one by one.
    private static func wholeDayOffset(_ day: ZoneDay, in calendar: Calendar) -> Int? {
        guard let start = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) else { return nil }
        let margin: TimeInterval = 3 * 3600
        let zone = calendar.timeZone
        if let transition = zone.nextDaylightSavingTimeTransition(after: start - margin),
           transition <= start + 24 * 3600 + margin {
            return nil
        }
        return zone.secondsFromGMT(for: start)
    }

    /// The offsets of whole days already found: photos come many to a day and place, and
    /// Foundation's conversion of each one's time (a calendar's, under a lock of its time zone)
    /// was a twentieth of a first index's reading.
    private static let wholeDays = Mutex<[ZoneDay: Int]>([:])
    /// Days kept before the cache starts again.
    private static let wholeDaysKept = 100_000

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
