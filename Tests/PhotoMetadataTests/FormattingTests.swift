import PhotoMetadata
import Testing

/// The text forms the store and the command line use.
@Suite struct FormattingTests {
    @Test func localDateTimeFormatsWithOptionalMilliseconds() {
        #expect(LocalDateTime(year: 2021, month: 2, day: 3, hour: 4, minute: 5, second: 6).iso8601 == "2021-02-03T04:05:06")
        #expect(LocalDateTime(year: 2021, month: 2, day: 3, hour: 4, minute: 5, second: 6, millisecond: 7).iso8601 == "2021-02-03T04:05:06.007")
        #expect(LocalDateTime(year: 999, month: 12, day: 31).iso8601 == "0999-12-31T00:00:00")
    }

    @Test(arguments: ["2021-02-03T04:05:06", "2021-02-03T04:05:06.007", "2024-02-29T23:59:59.999", "0001-01-01T00:00:00"])
    func localDateTimeRoundTrips(_ text: String) throws {
        let parsed = try #require(LocalDateTime(iso8601: text))
        #expect(parsed.iso8601 == text)
    }

    @Test func shortFractionsAreMilliseconds() {
        #expect(LocalDateTime(iso8601: "2021-02-03T04:05:06.5")?.millisecond == 500)
    }

    @Test(arguments: [
        "2021-02-03 04:05:06", "2021-02-30T04:05:06", "2021-13-03T04:05:06", "2021-02-03T24:05:06",
        "2021-02-03T04:05", "2021-02-03T04:05:06.", "2021-02-03T04:05:06.1234", "2021-02-03T04:05:06Z", "", "x",
    ])
    func localDateTimeRejects(_ text: String) {
        #expect(LocalDateTime(iso8601: text) == nil)
    }

    @Test(arguments: [(0, "+00:00"), (7200, "+02:00"), (-18000, "-05:00"), (19800, "+05:30"), (-34200, "-09:30")])
    func offsetsRoundTrip(_ seconds: Int, _ text: String) {
        #expect(UTCOffset(seconds: seconds).iso8601 == text)
        #expect(UTCOffset(iso8601: text) == UTCOffset(seconds: seconds))
    }

    @Test func offsetParsingAcceptsCompactFormsAndRejectsNonsense() {
        #expect(UTCOffset(iso8601: "Z") == UTCOffset(seconds: 0))
        #expect(UTCOffset(iso8601: "+0530") == UTCOffset(seconds: 19800))
        #expect(UTCOffset(iso8601: "-03") == UTCOffset(seconds: -10800))
        for bad in ["", "02:00", "+2:00", "+02:60", "+19:00", "+02:00:00", "UTC"] {
            #expect(UTCOffset(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func chronologicalOrder() {
        let earlier = LocalDateTime(year: 2021, month: 1, day: 1, hour: 10)
        let later = LocalDateTime(year: 2021, month: 1, day: 1, hour: 10, millisecond: 1)
        #expect(earlier < later)
    }
}
