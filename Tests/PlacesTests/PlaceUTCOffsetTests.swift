import Foundation
import Places
import Testing
import WallClock

@Suite("A place's offset from UTC at a local time")
struct PlaceUTCOffsetTests {
    func place(zone: String?) -> Place {
        Place(city: "X", region: nil, country: nil, countryCode: nil, timeZoneIdentifier: zone, distanceKilometres: 0)
    }

    @Test(arguments: [
        ("Europe/Lisbon", LocalDateTime(year: 2024, month: 1, day: 15, hour: 12), 0),
        ("Europe/Lisbon", LocalDateTime(year: 2024, month: 7, day: 1, hour: 12), 3_600),
        ("Australia/Sydney", LocalDateTime(year: 2024, month: 1, day: 15, hour: 12), 39_600),
        ("Australia/Sydney", LocalDateTime(year: 2024, month: 7, day: 1, hour: 12), 36_000),
        ("America/Sao_Paulo", LocalDateTime(year: 2024, month: 1, day: 15, hour: 12), -10_800),
        // São Paulo kept daylight-saving time until 2019.
        ("America/Sao_Paulo", LocalDateTime(year: 2018, month: 1, day: 15, hour: 12), -7_200),
        ("Asia/Kolkata", LocalDateTime(year: 2024, month: 3, day: 1, hour: 8), 19_800),
    ])
    func offsetAtADate(zone: String, local: LocalDateTime, seconds: Int) {
        #expect(place(zone: zone).utcOffset(at: local) == seconds)
    }

    /// Offsets are kept per day and zone; a day with a transition (daylight-saving changes, a
    /// zone's standard offset moved, a day skipped) must still give Foundation's offset at every
    /// time, whichever of its times came first.
    @Test(arguments: [
        ("Europe/Lisbon", [(2024, 3, 31), (2024, 10, 27)]),
        ("America/New_York", [(2024, 3, 10), (2024, 11, 3)]),
        // Half-hour daylight saving; São Paulo's changes at midnight; Volgograd's standard offset
        // moved without daylight saving; Apia skipped 30 December 2011.
        ("Australia/Lord_Howe", [(2024, 4, 7), (2024, 10, 6)]),
        ("America/Sao_Paulo", [(2018, 2, 17), (2018, 11, 4)]),
        ("Europe/Volgograd", [(2020, 12, 27)]),
        ("Pacific/Apia", [(2011, 12, 29), (2011, 12, 31)]),
    ])
    func offsetOnTransitionDaysIsFoundationsAtEveryTime(zone: String, days: [(Int, Int, Int)]) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let place = place(zone: zone)
        for (year, month, day) in days {
            // The day before and after too: cached whole days beside the transition.
            for shift in [-1, 0, 1] {
                let noon = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)))
                let date = try #require(calendar.date(byAdding: .day, value: shift, to: noon))
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                // Noon first, so the day is decided before its small hours are asked.
                for minute in [12 * 60] + Array(stride(from: 0, to: 24 * 60, by: 15)) {
                    let local = LocalDateTime(year: parts.year!, month: parts.month!, day: parts.day!, hour: minute / 60, minute: minute % 60)
                    let components = DateComponents(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute)
                    let expected = calendar.date(from: components).map { calendar.timeZone.secondsFromGMT(for: $0) }
                    #expect(place.utcOffset(at: local) == expected, "\(zone) \(local)")
                }
            }
        }
    }

    @Test func noZoneUnknownZoneOrInvalidDateHasNoOffset() {
        #expect(place(zone: nil).utcOffset(at: LocalDateTime(year: 2024, month: 1, day: 1)) == nil)
        #expect(place(zone: "Atlantis/Capital").utcOffset(at: LocalDateTime(year: 2024, month: 1, day: 1)) == nil)
        #expect(place(zone: "Europe/Lisbon").utcOffset(at: LocalDateTime(year: 2024, month: 2, day: 30)) == nil)
    }
}
