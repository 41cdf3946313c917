import Testing
import WallClock

/// The ISO text form that the store keeps and every front end prints.
@Suite struct LocalDateTimeTests {
    @Test func formatsWithOptionalMilliseconds() {
        #expect(LocalDateTime(year: 2021, month: 2, day: 3, hour: 4, minute: 5, second: 6).iso8601 == "2021-02-03T04:05:06")
        #expect(LocalDateTime(year: 2021, month: 2, day: 3, hour: 4, minute: 5, second: 6, millisecond: 7).iso8601 == "2021-02-03T04:05:06.007")
        #expect(LocalDateTime(year: 999, month: 12, day: 31).iso8601 == "0999-12-31T00:00:00")
    }

    @Test(arguments: ["2021-02-03T04:05:06", "2021-02-03T04:05:06.007", "2024-02-29T23:59:59.999", "0001-01-01T00:00:00", "9999-12-31T23:59:59"])
    func roundTrips(_ text: String) throws {
        let parsed = try #require(LocalDateTime(iso8601: text))
        #expect(parsed.iso8601 == text)
        let fromBytes = Array(text.utf8).withUnsafeBytes(LocalDateTime.init(iso8601Bytes:))
        #expect(fromBytes == parsed)
    }

    @Test("the byte writer writes what iso8601 does, or the table form", arguments: [
        LocalDateTime(year: 2021, month: 2, day: 3, hour: 4, minute: 5, second: 6),
        LocalDateTime(year: 2021, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 7),
        LocalDateTime(year: 999, month: 1, day: 1, millisecond: 999),
        LocalDateTime(year: 9999, month: 12, day: 31, hour: 10, minute: 10, second: 10, millisecond: 120),
        LocalDateTime(year: 0, month: 1, day: 1),
    ])
    func appendsBytes(_ value: LocalDateTime) {
        var bytes: [UInt8] = []
        value.appendISO8601(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == value.iso8601)
        bytes.removeAll()
        value.appendISO8601(to: &bytes, separator: 0x20, milliseconds: false)
        #expect(String(decoding: bytes, as: UTF8.self) == String(value.iso8601.prefix(19).map { $0 == "T" ? " " : $0 }))
    }

    @Test func shortFractionsAreMilliseconds() {
        #expect(LocalDateTime(iso8601: "2021-02-03T04:05:06.5")?.millisecond == 500)
        #expect(LocalDateTime(iso8601: "2021-02-03T04:05:06.25")?.millisecond == 250)
    }

    @Test(arguments: [
        "2021-02-03 04:05:06", "2021-02-30T04:05:06", "2021-13-03T04:05:06", "2021-02-03T24:05:06",
        "2021-02-03T04:60:06", "2021-02-03T04:05:60", "0000-01-01T00:00:00", "1900-02-29T00:00:00",
        "2021-02-03T04:05", "2021-02-03T04:05:06.", "2021-02-03T04:05:06.1234", "2021-02-03T04:05:06Z",
        "2021-02-03T04:05:06.1x", "2021/02/03T04:05:06", "+021-02-03T04:05:06", "", "x",
    ])
    func rejects(_ text: String) {
        #expect(LocalDateTime(iso8601: text) == nil)
        #expect(Array(text.utf8).withUnsafeBytes(LocalDateTime.init(iso8601Bytes:)) == nil)
    }

    @Test func ordersChronologicallyWithMissingMillisecondsAsZero() {
        let plain = LocalDateTime(year: 2025, month: 3, day: 8, hour: 14)
        #expect(plain < LocalDateTime(year: 2025, month: 3, day: 8, hour: 14, millisecond: 1))
        #expect(!(plain < LocalDateTime(year: 2025, month: 3, day: 8, hour: 14, millisecond: 0)))
        #expect(LocalDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59, millisecond: 999) < plain)
    }
}

/// Day counts and back: the one calendar that metadata fallbacks and the timeline share.
@Suite struct CivilCalendarTests {
    @Test func knownDays() {
        #expect(CivilCalendar.daysSince1970(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.daysSince1970(year: 2001, month: 1, day: 1) == 11_323)
        #expect(CivilCalendar.daysSince1970(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.daysSince1970(year: 1, month: 1, day: 1) == -719_162)
        #expect(CivilCalendar.date(daysSince1970: 19_059) == (2022, 3, 8))
        #expect(CivilCalendar.date(daysSince1970: -719_162) == (1, 1, 1))
    }

    @Test func leapYears() {
        #expect(CivilCalendar.isValid(year: 2000, month: 2, day: 29))
        #expect(CivilCalendar.isValid(year: 2024, month: 2, day: 29))
        #expect(!CivilCalendar.isValid(year: 1900, month: 2, day: 29))
        #expect(!CivilCalendar.isValid(year: 2023, month: 2, day: 29))
        #expect(!CivilCalendar.isValid(year: 2023, month: 4, day: 31))
    }

    @Test("every day from year 1 to 9999 converts to a valid date and back, one day apart")
    func roundTripsEveryDay() {
        let first = CivilCalendar.daysSince1970(year: 1, month: 1, day: 1)
        let last = CivilCalendar.daysSince1970(year: 9999, month: 12, day: 31)
        var previous = CivilCalendar.date(daysSince1970: first - 1)
        var failures = 0
        for days in first...last {
            let date = CivilCalendar.date(daysSince1970: days)
            let next = date.day == 1 && (date.month != previous.month || date.year != previous.year)
            if !CivilCalendar.isValid(year: date.year, month: date.month, day: date.day)
                || CivilCalendar.daysSince1970(year: date.year, month: date.month, day: date.day) != days
                || (!next && date.day != previous.day + 1) {
                failures += 1
            }
            previous = date
        }
        #expect(failures == 0)
        #expect(last - first + 1 == 3_652_059)
    }
}
