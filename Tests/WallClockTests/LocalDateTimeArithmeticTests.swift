import Testing
import WallClock

@Suite("LocalDateTime arithmetic")
struct LocalDateTimeArithmeticTests {
    @Test("Moving a clock crosses midnight, New Year and 29 February; sub-seconds stay as they were", arguments: [
        ("2023-12-31T23:59:59.500", Int64(1_000), "2024-01-01T00:00:00.500"),
        ("2024-02-28T12:00:00", 86_400_000, "2024-02-29T12:00:00"),
        ("2024-03-01T00:00:00", -86_400_000, "2024-02-29T00:00:00"),
        ("1970-01-01T00:00:00", -1, "1969-12-31T23:59:59.999"),
        ("2019-07-14T12:00:00", 0, "2019-07-14T12:00:00"),
    ])
    func adding(start: String, milliseconds: Int64, expected: String) throws {
        let date = try #require(LocalDateTime(iso8601: start))
        #expect(date.adding(milliseconds: milliseconds)?.iso8601 == expected)
        #expect(LocalDateTime(millisecondsSince1970: date.millisecondsSince1970, keepsMilliseconds: date.millisecond != nil) == date)
    }

    @Test("Leaving years 1…9999, or overflowing, gives nil")
    func outOfRange() throws {
        let date = try #require(LocalDateTime(iso8601: "9999-12-31T23:59:59"))
        #expect(date.adding(milliseconds: 1000) == nil)
        #expect(date.adding(milliseconds: .max) == nil)
        #expect(LocalDateTime(year: 1, month: 1, day: 1).adding(milliseconds: -1) == nil)
    }
}
