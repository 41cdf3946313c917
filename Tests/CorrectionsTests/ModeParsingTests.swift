import Corrections
import PhotoMetadata
import Testing
import WallClock

/// Every value of a correction request, checked where it enters, each error naming its field.
@Suite("Correction requests")
struct ModeParsingTests {
    static let shiftCases: [(String, Int64)] = [("+1h", 3600), ("-30m", -1800), ("+2d3h4m5s", 183_845), ("-0s", 0), ("+90s", 90)]

    @Test("Shifts: sign required, units in order, up to ten thousand years", arguments: shiftCases)
    func shifts(text: String, seconds: Int64) throws {
        #expect(try ClockShift(parsing: text).seconds == seconds)
    }

    @Test("Bad shifts are refused naming the field", arguments: ["1h", "+", "+1", "+1x", "+1h1h", "+1m1h", "++1h", "+1 h", "+999999999999d", "+3660001d"])
    func badShifts(text: String) {
        #expect(throws: AdjustError.self) { try ClockShift(parsing: text) }
        let error = Self.error { try AdjustRequest(shift: text).modes() }
        #expect(error?.field == "shift")
        #expect(error?.code == .invalidValue)
    }

    @Test("A shift too large to represent is one line naming the limit")
    func shiftTooLarge() {
        let error = Self.error { try AdjustRequest(shift: "+99999999999d").modes() }
        #expect(error?.message.contains("too large") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test("Impossible dates are refused", arguments: ["2021-02-30T10:00:00", "2021-13-01T00:00:00", "2021-01-01T24:00:00", "yesterday", "", "1700-01-01T00:00:00"])
    func impossibleDates(text: String) {
        let error = Self.error { try AdjustRequest(setDate: text).modes() }
        #expect(error?.field == "setDate")
    }

    @Test("Zones: offsets and IANA names; unknown names and paths are refused")
    func zones() throws {
        #expect(try TimeZoneSpec(parsing: "+02:00") == .fixed(seconds: 7200))
        #expect(try TimeZoneSpec(parsing: "-0530") == .fixed(seconds: -19_800))
        #expect(try TimeZoneSpec(parsing: "Europe/Lisbon") == .named("Europe/Lisbon"))
        for bad in ["Mars/Olympus_Mons", "+15:00", "+02:60", "../../etc/passwd", "/etc/localtime", "Europe", "+2:00"] {
            let error = Self.error { try AdjustRequest(timeZone: bad).modes() }
            #expect(error?.field == "timeZone", "\(bad)")
        }
        #expect(Self.error { try AdjustRequest(keepInstant: true, position: "1,2").modes() }?.field == "keepInstant")
    }

    @Test("Positions: latitude 91, NaN, infinity, 0,0 and text are refused; an empty place too")
    func positions() throws {
        let position = try #require(try AdjustRequest(position: " 38.7223, -9.1393 ").modes().position)
        #expect(position.latitude == 38.7223)
        for bad in ["91,0", "-91,10", "10,181", "nan,10", "10,NaN", "inf,0", "0,0", "38.7", "north,south", ""] {
            let error = Self.error { try AdjustRequest(position: bad).modes() }
            #expect(error?.field == "position", "\(bad)")
        }
        #expect(Self.error { try AdjustRequest(place: "   ").modes() }?.field == "place")
        #expect(Self.error { try AdjustRequest().modes() } != nil)
    }

    /// The `AdjustError` `body` throws, or `nil`.
    static func error(_ body: () throws -> Any) -> AdjustError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? AdjustError
        }
    }
}
