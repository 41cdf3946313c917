import WallClock
import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Testing

/// Sidecars as date sources: which file belongs to which photo, and incremental re-reads.
@Suite("Sidecars")
struct SidecarIndexTests {
    static func names(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }
    static func strings(_ list: [[UInt8]]) -> [String] { list.map { String(decoding: $0, as: UTF8.self) } }

    static let longName = "Screenshot_20200101-123456_Some_Long_Application_Name.jpg"

    @Test("Sidecar names: XMP first, exact before derived, Takeout's truncated, supplemental, (1) and -edited forms", arguments: [
        ("IMG_1.jpg", ["IMG_1.jpg.json", "IMG_1.xmp", "IMG_1.jpg.xmp", "IMG_2.jpg.json", "notes.txt"], ["IMG_1.jpg.xmp", "IMG_1.xmp", "IMG_1.jpg.json"]),
        ("IMG_1.JPG", ["IMG_1.JPG.XMP", "IMG_1.jpg.xmp"], ["IMG_1.JPG.XMP"]),
        ("IMG_1(1).jpg", ["IMG_1.jpg.json", "IMG_1.jpg(1).json"], ["IMG_1.jpg(1).json"]),
        ("IMG_1.jpg", ["IMG_1.jpg.supplemental-metadata.json"], ["IMG_1.jpg.supplemental-metadata.json"]),
        ("IMG_1.jpg", ["IMG_1.jpg.supplemental-met.json"], ["IMG_1.jpg.supplemental-met.json"]),
        ("IMG_1-edited.jpg", ["IMG_1.jpg.json"], ["IMG_1.jpg.json"]),
        (longName, [String(longName.prefix(46)) + ".json", String(longName.prefix(20)) + ".json"], [String(longName.prefix(46)) + ".json"]),
        ("IMG_1.jpg.json", ["IMG_1.jpg.json.json"], []),
        ("IMG_10.jpg", ["IMG_1.jpg.json", "IMG_1.xmp"], []),
    ])
    func sidecarNames(photo: String, among: [String], expected: [String]) {
        #expect(Self.strings(SidecarNames.sidecars(of: Array(photo.utf8), among: Self.names(among))) == expected)
    }

    static func xmp(_ date: String) -> [UInt8] {
        Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF><rdf:Description exif:DateTimeOriginal='\(date)'/></rdf:RDF></x:xmpmeta>\n".utf8)
    }

    static func takeout(_ timestamp: Int) -> [UInt8] {
        Array(#"{"title": "x", "photoTakenTime": {"timestamp": "\#(timestamp)", "formatted": ""}}"#.utf8)
    }

    @Test("An XMP sidecar's date beats the file's EXIF; a Takeout sidecar dates only a file without one")
    func sidecarsDateFilesWithoutTheirOwn() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/a.jpg.xmp", Self.xmp("2019-07-04T18:30:00+02:00"))
        try tree.write("root/takeout/b(1).jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/takeout/b.jpg(1).json", Self.takeout(1_562_257_800))
        try tree.write("root/takeout/\(Self.longName)", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/takeout/\(Self.longName.prefix(46)).json", Self.takeout(1_262_304_000))
        try tree.write("root/c.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2001:02:03 04:05:06")))
        try tree.write("root/c.xmp", Self.xmp("2019-07-04T18:30:00"))
        try tree.write("root/clip.mp4", MovieFixture(width: 8, height: 8).bytes)
        try tree.write("root/clip.mp4.json", Self.takeout(1_562_257_800))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.failed == 0)

        let rows = try photosByPath(store)
        #expect(rows["a.jpg"]?.captureDate == CaptureDate(local: LocalDateTime(year: 2019, month: 7, day: 4, hour: 18, minute: 30), offset: UTCOffset(seconds: 7200), source: .xmpSidecar, offsetSource: .exif))
        #expect(rows["takeout/b(1).jpg"]?.captureDate.source == .takeoutJSON)
        #expect(rows["takeout/\(Self.longName)"]?.captureDate.source == .takeoutJSON)
        // The sidecar is an editor's word: it wins over the file's own EXIF date.
        #expect(rows["c.jpg"]?.captureDate == CaptureDate(local: LocalDateTime(year: 2019, month: 7, day: 4, hour: 18, minute: 30), source: .xmpSidecar))
        #expect(rows["clip.mp4"]?.captureDate.source == .takeoutJSON)
        // The instant is kept: the local time plus its offset is 2019-07-04T16:30:00Z.
        let b = try #require(rows["takeout/b(1).jpg"]?.captureDate)
        let offset = try #require(b.offset)
        let minutes = (b.local.hour * 60 + b.local.minute) - offset.seconds / 60
        #expect((minutes + 24 * 60) % (24 * 60) == 16 * 60 + 30)
        #expect(rows.count == 5)
    }

    @Test("An XMP sidecar's position and offset beat the file's; a Takeout JSON never beats the file's EXIF")
    func xmpPositionWinsTakeoutStaysAFallback() async throws {
        let tree = try TemporaryDirectory()
        var exif = ExifFields(dateTimeOriginal: "2001:02:03 04:05:06", offsetTimeOriginal: "+01:00")
        exif.gpsLatitudeRef = "N"
        exif.gpsLatitude = [10, 0, 0]
        exif.gpsLongitudeRef = "E"
        exif.gpsLongitude = [20, 0, 0]
        try tree.write("root/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: exif))
        try tree.write("root/a.jpg.xmp", Array("""
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
            <rdf:Description xmlns:exif='http://ns.adobe.com/exif/1.0/' exif:DateTimeOriginal='2001-02-03T10:05:06.250-05:00'
             exif:GPSLatitude='38,43.338000N' exif:GPSLongitude='9,8.400000W'/></rdf:RDF></x:xmpmeta>
            """.utf8))
        try tree.write("root/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: exif))
        try tree.write("root/b.jpg.json", Array(#"{"photoTakenTime": {"timestamp": "1562257800"}, "geoData": {"latitude": 1.5, "longitude": 2.5}}"#.utf8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store)
        let rows = try photosByPath(store)
        let a = try #require(rows["a.jpg"])
        #expect(a.captureDate == CaptureDate(
            local: LocalDateTime(year: 2001, month: 2, day: 3, hour: 10, minute: 5, second: 6, millisecond: 250),
            offset: UTCOffset(seconds: -5 * 3600), source: .xmpSidecar, offsetSource: .exif))
        let position = try #require(a.position)
        #expect(abs(position.latitude - 38.7223) < 1e-6)
        #expect(abs(position.longitude + 9.14) < 1e-6)
        let b = try #require(rows["b.jpg"])
        #expect(b.captureDate.source == .dateTimeOriginal)
        #expect(b.position?.latitude == 10)
    }

    @Test("An added or changed sidecar re-reads its unchanged photo on the next run, and only it")
    func changedSidecarReReadsItsPhoto() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/sub/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store)
        #expect(try photosByPath(store)["a.jpg"]?.captureDate.source == .fileModified)

        try tree.write("root/a.jpg.xmp", Self.xmp("2019-07-04T18:30:00"))
        let added = try await index(tree.path + "/root", into: store)
        #expect(added.updated == 1)
        #expect(added.unchanged == 2)
        #expect(try photosByPath(store)["a.jpg"]?.captureDate.local.iso8601 == "2019-07-04T18:30:00")

        // A new stamp (size and time) for the changed sidecar.
        try tree.write("root/a.jpg.xmp", Self.xmp("2020-12-24T20:00:00.5"))
        let changed = try await index(tree.path + "/root", into: store)
        #expect(changed.updated == 1)
        let rows = try photosByPath(store)
        #expect(rows["a.jpg"]?.captureDate.local.iso8601 == "2020-12-24T20:00:00.500")
        #expect(rows["sub/a.jpg"]?.captureDate.source == .fileModified)

        let unchanged = try await index(tree.path + "/root", into: store)
        #expect(unchanged.updated == 0)
        #expect(unchanged.opened == 0)

        // The sidecar goes away: its date goes with it.
        try FileManager.default.removeItem(atPath: tree.path + "/root/a.jpg.xmp")
        let removed = try await index(tree.path + "/root", into: store)
        #expect(removed.updated == 1)
        #expect(removed.unchanged == 2)
        #expect(try photosByPath(store)["a.jpg"]?.captureDate.source == .fileModified)
    }

    @Test("A hostile sidecar leaves a note and the next date source, not a failure")
    func hostileSidecarIsANote() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/IMG_20190102_030405.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("root/IMG_20190102_030405.jpg.xmp", [UInt8](repeating: 0x3C, count: SidecarReader.maximumSize + 10))
        try tree.write("root/IMG_20190102_030405.jpg.json", Array("not json at all".utf8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/root", into: store)
        #expect(progress.failed == 0)
        let photo = try #require(try photosByPath(store)["IMG_20190102_030405.jpg"])
        #expect(photo.captureDate.source == .filename)
        let note = try #require(photo.error)
        #expect(note.contains("IMG_20190102_030405.jpg.xmp ignored"))
        #expect(note.contains("larger than"))
        #expect(note.contains("IMG_20190102_030405.jpg.json ignored"))
    }
}
