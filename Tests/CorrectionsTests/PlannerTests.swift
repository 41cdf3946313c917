import Corrections
import PhotoMetadata
import Testing
import WallClock

/// Each mode on its own and together, planned without a disk.
@Suite("Correction planner")
struct PlannerTests {
    static func date(_ text: String) -> LocalDateTime { LocalDateTime(iso8601: text)! }

    static func photo(_ path: String, _ captured: String, offset: Int? = nil, stated: Bool = true, existing: String? = nil) -> AdjustPlanner.Photo {
        AdjustPlanner.Photo(
            path: path, sidecar: Array((path + ".xmp").utf8), existing: existing.map { Array($0.utf8) },
            before: PhotoDating(captured: date(captured), offset: offset.map(UTCOffset.init(seconds:))), offsetStated: stated)
    }

    static func plan(_ photos: [AdjustPlanner.Photo], _ request: AdjustRequest) throws -> AdjustPlan {
        try AdjustPlanner.plan(photos, modes: request.modes())
    }

    @Test("A shift moves the clock, keeps sub-seconds and a stated offset, and crosses midnight")
    func shift() throws {
        let plan = try Self.plan([Self.photo("a.jpg", "2019-07-14T23:30:00.123", offset: 7200)], AdjustRequest(shift: "+1h"))
        #expect(plan.photos[0].after == PhotoDating(captured: Self.date("2019-07-15T00:30:00.123"), offset: UTCOffset(seconds: 7200)))
        let text = String(decoding: plan.files[0].after, as: UTF8.self)
        #expect(text.contains("exif:DateTimeOriginal=\"2019-07-15T00:30:00.123+02:00\""))
        #expect(text.contains("photoshop:DateCreated=\"2019-07-15T00:30:00.123+02:00\""))
        #expect(text.contains("xmp:CreateDate=\"2019-07-15T00:30:00.123+02:00\""))
        #expect(plan.files[0].before == nil)
    }

    @Test("An offset that was only guessed (place, GPS time, the indexing machine) is not written")
    func guessedOffsetIsNotWritten() throws {
        let plan = try Self.plan([Self.photo("scan.jpg", "2024-05-01T10:00:00", offset: 3600, stated: false)], AdjustRequest(shift: "-1d"))
        #expect(plan.photos[0].after == PhotoDating(captured: Self.date("2024-04-30T10:00:00")))
        #expect(String(decoding: plan.files[0].after, as: UTF8.self).contains("\"2024-04-30T10:00:00\""))
    }

    @Test("Set-date gives the earliest photo the date and keeps every spacing, across New Year")
    func setDateAcrossNewYear() throws {
        let photos = [
            Self.photo("b.jpg", "2023-12-31T23:59:30.500"),
            Self.photo("a.jpg", "2023-12-31T23:59:00"),
            Self.photo("c.jpg", "2024-01-01T00:00:45"),
        ]
        let plan = try Self.plan(photos, AdjustRequest(setDate: "1975-12-31T23:59:50"))
        #expect(plan.photos.map(\.after.captured.iso8601) == ["1976-01-01T00:00:20.500", "1975-12-31T23:59:50", "1976-01-01T00:01:35"])
    }

    @Test("Set-date gives the earliest photo exactly the time typed; the others keep their spacing to the millisecond")
    func setDateIsExact() throws {
        let photos = [Self.photo("a.jpg", "2020-01-01T00:00:00.250"), Self.photo("b.jpg", "2020-01-01T00:00:01.125")]
        let plan = try Self.plan(photos, AdjustRequest(setDate: "1975-06-01T12:00:00"))
        #expect(plan.photos.map(\.after.captured.iso8601) == ["1975-06-01T12:00:00", "1975-06-01T12:00:00.875"])
    }

    @Test("A photo that already says what the modes write is left out, unless its offset was only guessed")
    func alreadySo() throws {
        let photos = [
            Self.photo("stated.jpg", "2021-07-01T12:00:00", offset: 7200),
            Self.photo("guessed.jpg", "2021-07-01T13:00:00", offset: 7200, stated: false),
            Self.photo("other.jpg", "2021-07-01T14:00:00", offset: 3600),
        ]
        let plan = try Self.plan(photos, AdjustRequest(timeZone: "Europe/Berlin"))
        #expect(plan.photos.map(\.path) == ["guessed.jpg", "other.jpg"])
        #expect(plan.files.map { String(decoding: $0.sidecar, as: UTF8.self) } == ["guessed.jpg.xmp", "other.jpg.xmp"])
        #expect(plan.unchanged == 1)
        let none = try Self.plan([photos[0]], AdjustRequest(timeZone: "+02:00"))
        #expect(none.photos.isEmpty && none.files.isEmpty && none.unchanged == 1)
    }

    @Test("A zone relabels each clock with its offset at that photo's own date, at the DST edges", arguments: [
        // Berlin springs forward on 2021-03-28 at 02:00 and falls back on 2021-10-31 at 03:00.
        ("2021-03-28T01:59:59", 3600), ("2021-03-28T03:00:00", 7200),
        ("2021-10-31T01:59:59", 7200), ("2021-10-31T03:00:00", 3600),
        ("2021-07-01T12:00:00", 7200), ("2021-01-01T12:00:00", 3600),
    ])
    func relabelAtDSTEdges(captured: String, offset: Int) throws {
        let plan = try Self.plan([Self.photo("a.jpg", captured, offset: 0)], AdjustRequest(timeZone: "Europe/Berlin"))
        #expect(plan.photos[0].after.captured.iso8601 == captured)
        #expect(plan.photos[0].after.offset == UTCOffset(seconds: offset))
    }

    @Test("Keep-instant converts the clock into the zone, across the DST change")
    func keepInstant() throws {
        // 00:30 UTC on 2021-03-28 is 01:30 in Berlin (+01:00); 01:30 UTC is 03:30 (+02:00).
        let photos = [Self.photo("a.jpg", "2021-03-28T00:30:00.900", offset: 0), Self.photo("b.jpg", "2021-03-27T21:30:00", offset: -4 * 3600)]
        let plan = try Self.plan(photos, AdjustRequest(timeZone: "Europe/Berlin", keepInstant: true))
        #expect(plan.photos[0].after == PhotoDating(captured: Self.date("2021-03-28T01:30:00.900"), offset: UTCOffset(seconds: 3600)))
        #expect(plan.photos[1].after == PhotoDating(captured: Self.date("2021-03-28T03:30:00"), offset: UTCOffset(seconds: 7200)))
        // A photo without an offset has no instant to keep: the batch is refused, naming it.
        let error = ModeParsingTests.error { try AdjustPlanner.plan([Self.photo("c.jpg", "2021-01-01T00:00:00")], modes: AdjustRequest(timeZone: "+01:00", keepInstant: true).modes()) }
        #expect(error?.field == "keepInstant")
        #expect(error?.subject == "c.jpg")
    }

    @Test("A position is written as degrees and minutes with its hemisphere, and read back")
    func position() throws {
        let plan = try Self.plan([Self.photo("a.jpg", "2020-01-01T00:00:00")], AdjustRequest(position: "38.7223,-9.1393"))
        let text = String(decoding: plan.files[0].after, as: UTF8.self)
        #expect(text.contains("exif:GPSLatitude=\"38,43.338000N\""))
        #expect(text.contains("exif:GPSLongitude=\"9,8.358000W\""))
        #expect(!text.contains("DateTimeOriginal"))
        let position = try #require(plan.photos[0].after.position)
        #expect(abs(position.latitude - 38.7223) < 1e-7 && abs(position.longitude + 9.1393) < 1e-7)
        #expect(XMPSidecar.coordinate(-33.999999999, positive: "N", negative: "S") == "34,0.000000S")
    }

    @Test("A shift that leaves the years a sidecar holds is refused, naming the photo")
    func outOfRange() {
        let error = ModeParsingTests.error { try AdjustPlanner.plan([Self.photo("old.jpg", "1801-01-01T00:00:00")], modes: AdjustRequest(shift: "-1000d").modes()) }
        #expect(error?.field == "shift")
        #expect(error?.subject == "old.jpg")
    }

    @Test("Two photos of one sidecar make one file; both show what it says")
    func sharedSidecar() throws {
        var raw = Self.photo("IMG_1.CR2", "2020-01-01T10:00:00")
        var jpeg = Self.photo("IMG_1.JPG", "2020-01-01T10:00:00.040")
        raw.sidecar = Array("IMG_1.xmp".utf8)
        jpeg.sidecar = raw.sidecar
        let plan = try Self.plan([raw, jpeg], AdjustRequest(shift: "+1h"))
        #expect(plan.files.count == 1)
        #expect(plan.photos.map(\.after.captured.iso8601) == ["2020-01-01T11:00:00.040", "2020-01-01T11:00:00.040"])
    }

    @Test("A sidecar that is not XML, or not XMP, is refused naming it", arguments: ["{\"json\": 1}", "<a><b></a>", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>", "<a attr=unquoted/>"])
    func unusableSidecar(text: String) {
        let error = ModeParsingTests.error { try AdjustPlanner.plan([Self.photo("a.jpg", "2020-01-01T00:00:00", existing: text)], modes: AdjustRequest(shift: "+1s").modes()) }
        #expect(error?.code == .unusableSidecar)
        #expect(error?.subject == "a.jpg.xmp")
    }
}
