import WallClock
import PhotoMetadata
import Testing

/// The text forms the store and the command line use.
@Suite struct FormattingTests {
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
