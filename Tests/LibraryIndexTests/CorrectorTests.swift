import Corrections
import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Places
import Testing
import WallClock

/// `Corrector`: selection, sidecars written all or nothing, the journal, undo, and every bad input.
@Suite("Corrections")
struct CorrectorTests {
    /// A library of three photos in two folders, indexed: `trip/a.jpg` and `trip/b.jpg` with EXIF
    /// dates (b with sub-seconds and an offset), `scans/scan.jpg` with none (dated by its file).
    struct Library {
        let tree: TemporaryDirectory
        let store: LibraryStore
        var root: String { tree.path + "/root" }
        var corrector: Corrector { Corrector(store: store, places: LazyPlaceTable(nil)) }

        init() async throws {
            tree = try TemporaryDirectory()
            try tree.write("root/trip/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2019:07:14 23:30:00")))
            try tree.write("root/trip/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2019:07:15 08:00:00", subSecTimeOriginal: "25", offsetTimeOriginal: "+02:00")))
            try tree.write("root/scans/scan.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
            store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
            try await index(tree.path + "/root", into: store)
        }

        func row(_ path: String) throws -> IndexedPhoto { try #require(try photosByPath(store)[path]) }
        func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: root + "/" + path).map(Array.init) }
        func leftovers() throws -> [String] {
            try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.contains(".shoebox-") }
        }
    }

    /// The `AdjustError` `body` throws, or `nil`.
    static func error(_ body: () async throws -> Any) async -> AdjustError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? AdjustError
        }
    }

    @Test("A shift of a folder writes new sidecars, journals them and updates the index; undo removes them")
    func shiftAndUndo() async throws {
        let library = try await Library()
        let result = try await library.corrector.adjust(.paths([library.root + "/trip"]), AdjustRequest(shift: "+1h"), dryRun: false)
        let batch = try #require(result.batch)
        #expect(result.photos.map(\.path) == ["trip/a.jpg", "trip/b.jpg"])
        #expect(result.photos.map(\.sidecar) == ["trip/a.jpg.xmp", "trip/b.jpg.xmp"])
        let a = try library.row("trip/a.jpg").captureDate
        #expect(a.local.iso8601 == "2019-07-15T00:30:00" && a.source == .xmpSidecar && a.offset == nil)
        let b = try library.row("trip/b.jpg").captureDate
        #expect(b == CaptureDate(local: LocalDateTime(iso8601: "2019-07-15T09:00:00.250")!, offset: UTCOffset(seconds: 7200), source: .xmpSidecar, offsetSource: .exif))
        #expect(try library.row("scans/scan.jpg").captureDate.source == .fileModified)
        let history = try library.corrector.history()
        #expect(history.map(\.batch) == [batch] && history[0].photos == 2 && !history[0].undone)
        #expect(history[0].arguments.contains("\"shift\":\"+1h\""))

        let undone = try await library.corrector.undo()
        #expect(undone.batch == batch && undone.removed == ["trip/a.jpg.xmp", "trip/b.jpg.xmp"])
        #expect(library.bytes("trip/a.jpg.xmp") == nil && library.bytes("trip/b.jpg.xmp") == nil)
        #expect(try library.row("trip/a.jpg").captureDate.local.iso8601 == "2019-07-14T23:30:00")
        #expect(try library.row("trip/a.jpg").captureDate.source == .dateTimeOriginal)
        #expect(try library.corrector.history()[0].undone)
        #expect(try library.leftovers().isEmpty)
        #expect(await Self.error { try await library.corrector.undo() }?.code == .notFound)
    }

    @Test("A dry run writes nothing and journals nothing")
    func dryRun() async throws {
        let library = try await Library()
        let result = try await library.corrector.adjust(.paths([library.root]), AdjustRequest(setDate: "1975-06-01T12:00:00"), dryRun: true)
        #expect(result.batch == nil && result.photos.count == 3)
        #expect(result.photos.first?.after.captured.iso8601.hasPrefix("1975-06-01T12:00:00") == true)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: library.root).filter { $0.hasSuffix(".xmp") }.isEmpty)
        #expect(try library.corrector.history().isEmpty)
    }

    @Test("--search undated selects the photos dated by file time; set-date redates them")
    func undatedScans() async throws {
        let library = try await Library()
        let result = try await library.corrector.adjust(.search(SearchQuery("undated")), AdjustRequest(setDate: "1975-06-01T12:00:00"), dryRun: false)
        #expect(result.photos.map(\.path) == ["scans/scan.jpg"])
        let scan = try library.row("scans/scan.jpg").captureDate
        #expect(scan.local.year == 1975 && scan.local.month == 6 && scan.local.hour == 12 && scan.source == .xmpSidecar)
        #expect(try library.store.photoIDs(matching: SearchQuery("undated")).isEmpty)
    }

    @Test("Merging into an existing sidecar keeps its other bytes; undo puts it back byte for byte")
    func mergeAndUndoByteForByte() async throws {
        let library = try await Library()
        let original = Array("""
            <?xml version="1.0"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5"/>
            </rdf:RDF></x:xmpmeta>\r\n
            """.utf8)
        // NAME.xmp is the one the index reads when there is no NAME.EXT.xmp: it is merged, not a new one made.
        try library.tree.write("root/trip/a.xmp", original)
        try await index(library.root, into: library.store)
        let result = try await library.corrector.adjust(.paths(["\(library.root)/trip/a.jpg"]), AdjustRequest(position: "38.7223,-9.1393"), dryRun: false)
        #expect(result.photos.map(\.sidecar) == ["trip/a.xmp"])
        let merged = try #require(library.bytes("trip/a.xmp"))
        #expect(String(decoding: merged, as: UTF8.self).contains("xmp:Rating=\"5\" xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSLatitude=\"38,43.338000N\""))
        #expect(try library.row("trip/a.jpg").position?.latitude ?? 0 > 38.7)
        _ = try await library.corrector.undo()
        #expect(library.bytes("trip/a.xmp") == original)
        #expect(try library.row("trip/a.jpg").position == nil)
    }

    @Test("Undo leaves a sidecar changed since and names it; --force puts it back")
    func changedSince() async throws {
        let library = try await Library()
        let result = try await library.corrector.adjust(.paths([library.root + "/trip"]), AdjustRequest(shift: "-30m"), dryRun: false)
        try library.tree.write("root/trip/b.jpg.xmp", Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
        let refused = await Self.error { try await library.corrector.undo(batch: result.batch) }
        #expect(refused?.code == .changedSince)
        #expect(refused?.message.contains("trip/b.jpg.xmp") == true)
        #expect(refused?.message.contains("\n") == false)
        // Nothing was undone: a's sidecar is still the batch's.
        #expect(library.bytes("trip/a.jpg.xmp") != nil)
        let forced = try await library.corrector.undo(batch: result.batch, force: true)
        #expect(forced.removed.count == 2)
        #expect(library.bytes("trip/a.jpg.xmp") == nil && library.bytes("trip/b.jpg.xmp") == nil)
    }

    @Test("A batch cut short (killed after one of three sidecars) is in the history and undone whole")
    func killedMidBatch() async throws {
        let library = try await Library()
        try library.tree.write("root/trip/b.jpg.xmp", Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'/></x:xmpmeta>".utf8))
        let before = library.bytes("trip/b.jpg.xmp")
        var corrector = library.corrector
        corrector.abandonAfter = 1
        let result = try await corrector.adjust(.paths([library.root]), AdjustRequest(shift: "+2d"), dryRun: false)
        #expect(result.batch != nil)
        #expect(try !library.leftovers().isEmpty)
        #expect(try library.corrector.history().first?.interrupted == true)
        let undone = try await library.corrector.undo()
        #expect(undone.restored.count + undone.removed.count == 1 && undone.untouched.count == 2)
        #expect(library.bytes("trip/b.jpg.xmp") == before)
        #expect(library.bytes("trip/a.jpg.xmp") == nil && library.bytes("scans/scan.jpg.xmp") == nil)
        #expect(try library.leftovers().isEmpty)
    }

    @Test("Bad selections and sidecars: outside the library, not indexed, symlinked sidecar or folder, vanished folder, not XML, 50 MB")
    func badInputs() async throws {
        let library = try await Library()
        let corrector = library.corrector
        let shift = AdjustRequest(shift: "+1m")
        func refusal(_ selection: Corrector.Selection) async -> AdjustError? {
            await Self.error { try await corrector.adjust(selection, shift, dryRun: false) }
        }
        #expect(await refusal(.paths([library.tree.path + "/elsewhere.jpg"]))?.code == .outsideLibrary)
        #expect(await refusal(.paths([library.root + "/../root2/a.jpg"]))?.code == .outsideLibrary)
        #expect(await refusal(.paths([library.root + "/trip/none.jpg"]))?.code == .notFound)
        #expect(await refusal(.ids([999]))?.field == "ids")

        // A sidecar that is a link to a file outside: refused, the file untouched.
        let outside = try library.tree.write("outside.xmp", Array("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
        try FileManager.default.createSymbolicLink(atPath: library.root + "/trip/a.jpg.xmp", withDestinationPath: outside.path)
        let linked = await refusal(.paths([library.root + "/trip/a.jpg"]))
        #expect(linked?.code == .notAFile && linked?.message.contains("symbolic link") == true)
        #expect(FileManager.default.contents(atPath: outside.path) == Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
        try FileManager.default.removeItem(atPath: library.root + "/trip/a.jpg.xmp")

        // Not XML; larger than any sidecar.
        try library.tree.write("root/trip/a.jpg.xmp", Array("not xml at all".utf8))
        #expect(await refusal(.paths([library.root + "/trip/a.jpg"]))?.code == .unusableSidecar)
        try library.tree.write("root/trip/a.jpg.xmp", [UInt8](repeating: 0x3C, count: 50 * 1024 * 1024))
        let huge = await refusal(.paths([library.root + "/trip/a.jpg"]))
        #expect(huge?.code == .unusableSidecar && huge?.message.contains("larger than") == true)
        try FileManager.default.removeItem(atPath: library.root + "/trip/a.jpg.xmp")

        // The folder swapped for a link to another folder after indexing; then gone.
        try FileManager.default.moveItem(atPath: library.root + "/trip", toPath: library.tree.path + "/moved")
        try FileManager.default.createSymbolicLink(atPath: library.root + "/trip", withDestinationPath: library.tree.path + "/moved")
        let folderLink = await refusal(.paths([library.root + "/trip"]))
        #expect(folderLink?.code == .notAFile && folderLink?.subject == "trip")
        try FileManager.default.removeItem(atPath: library.root + "/trip")
        let vanished = await refusal(.paths([library.root]))
        #expect(vanished?.code == .vanished && vanished?.subject == "trip")

        #expect(try corrector.history().isEmpty)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: library.tree.path).filter { $0.hasSuffix(".xmp") || $0.contains(".shoebox-") } == ["outside.xmp"])
    }

    @Test("A place is looked up by name; an ambiguous one lists the candidates with region and country")
    func places() async throws {
        let library = try await Library()
        let table = PlaceTable(entries: [
            .init(name: "Lisbon", latitude: 38.7223, longitude: -9.1393, population: 500_000, region: "Lisbon", countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
            .init(name: "Paris", latitude: 48.8566, longitude: 2.3522, population: 2_000_000, region: "Île-de-France", countryCode: "FR", countryName: "France", timeZone: "Europe/Paris"),
            .init(name: "Paris", latitude: 33.6609, longitude: -95.5555, population: 25_000, region: "Texas", countryCode: "US", countryName: "United States", timeZone: "America/Chicago"),
        ])
        let corrector = Corrector(store: library.store, places: LazyPlaceTable(table))
        let ambiguous = await Self.error { try await corrector.adjust(.paths([library.root]), AdjustRequest(place: "paris"), dryRun: true) }
        #expect(ambiguous?.code == .ambiguous && ambiguous?.field == "place")
        #expect(ambiguous?.message.contains("Paris, Île-de-France, France; Paris, Texas, United States") == true)
        let texas = try await corrector.adjust(.paths([library.root + "/scans"]), AdjustRequest(place: "Paris, Texas"), dryRun: false)
        #expect(texas.photos.first?.after.position?.longitude ?? 0 < -95)
        #expect(try library.row("scans/scan.jpg").place?.city == "Paris")
        let unknown = await Self.error { try await corrector.adjust(.paths([library.root]), AdjustRequest(place: "Atlantis"), dryRun: true) }
        #expect(unknown?.code == .notFound && unknown?.field == "place")
    }
}
