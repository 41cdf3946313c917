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

    @Test func noZoneUnknownZoneOrInvalidDateHasNoOffset() {
        #expect(place(zone: nil).utcOffset(at: LocalDateTime(year: 2024, month: 1, day: 1)) == nil)
        #expect(place(zone: "Atlantis/Capital").utcOffset(at: LocalDateTime(year: 2024, month: 1, day: 1)) == nil)
        #expect(place(zone: "Europe/Lisbon").utcOffset(at: LocalDateTime(year: 2024, month: 2, day: 30)) == nil)
    }
}
