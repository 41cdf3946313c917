import WallClock
import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import PhotoMetadata
import SeededRandom
import Testing
import Timeline
import ZoomMapping

/// The section tables persisted at the end of a run answer exactly as grouping every photo does.
@Suite("persisted sections")
struct StoredSectionsTests {
    /// A library of `count` rows with awkward data: photos at the same moment, sub-seconds, file
    /// dates, names that are not UTF-8 or hold control characters, days that merge and days that
    /// do not; with `invalidDates`, a few rows whose date is no calendar date (left out).
    static func makeLibrary(at path: String, count: Int, seed: UInt64, invalidDates: Bool = false) throws -> LibraryStore {
        var rng = SplitMix64(seed: seed)
        var photos: [IndexedPhoto] = []
        var day = TimelineDay(year: 2019, month: 12, day: 20)!.daysSince2001
        while photos.count < count {
            day += Int.random(in: 0...3, using: &rng) == 0 ? Int.random(in: 1...40, using: &rng) : 1
            let (y, m, d) = TimelineDay(daysSince2001: day).components
            let perDay = [1, 2, 5, 11, 13, 30, 120][Int.random(in: 0..<7, using: &rng)]
            var second = Int.random(in: 0..<3600, using: &rng)
            for _ in 0..<min(perDay, count - photos.count) {
                if Int.random(in: 0..<4, using: &rng) != 0 { second = min(second + Int.random(in: 1...600, using: &rng), 86_399) }
                let name: [UInt8] = switch Int.random(in: 0..<12, using: &rng) {
                case 0: Array("odd \u{1}\"q\\uote\t\(photos.count).jpg".utf8)
                case 1: Array("bad-\(photos.count)-".utf8) + [0xFF, 0xC3] + Array(".jpg".utf8)
                case 2: Array("été/Ünïcødé \(photos.count) 😀.heic".utf8)
                default: Array("IMG_\(Int.random(in: 0..<1_000_000, using: &rng)).jpg".utf8)
                }
                let folder = Array(String(format: "%04d/%02d-%02d/", y, m, d).utf8)
                let ms = Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 0..<1000, using: &rng) : nil
                var local = LocalDateTime(year: y, month: m, day: d, hour: second / 3600, minute: second / 60 % 60, second: second % 60, millisecond: ms)
                if invalidDates && Int.random(in: 0..<50, using: &rng) == 0 { local = LocalDateTime(year: y, month: 2, day: 30, hour: 12) }
                let source: DateSource = Int.random(in: 0..<8, using: &rng) == 0 ? .fileModified : .dateTimeOriginal
                photos.append(IndexedPhoto(
                    path: RelativePath(bytes: folder + name), fileSize: 1000, modificationTime: 0, format: .jpeg,
                    captureDate: CaptureDate(local: local, offset: nil, source: source),
                    displaySize: PixelSize(width: 40, height: 30)))
            }
        }
        let store = try LibraryStore(path: path, mode: .readWrite)
        store.persistTimeline(with: SectionTablePersister(settings: TimelineSettings()))
        try store.insertSynthetic(photos, root: "/synthetic")
        return store
    }

    /// A copy of the database at `path` without its persisted tables, so every command groups anew.
    static func computedCopy(of path: String) throws -> String {
        let copy = path + ".computed.sqlite"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        try queue.write { try $0.execute(sql: "DELETE FROM timelineState") }
        return copy
    }

    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try ContractJSON.encode(value), as: UTF8.self)
    }

    @Test("reports and zooms from the tables equal the snapshot's on random libraries", arguments: [(1 as UInt64, false), (2, false), (3, true)])
    func libraryLevel(seed: UInt64, invalidDates: Bool) throws {
        let tree = try TemporaryDirectory()
        let store = try Self.makeLibrary(at: tree.path + "/library.sqlite", count: 1500, seed: seed, invalidDates: invalidDates)
        let settings = TimelineSettings()
        let stored = try #require(try StoredSections(store: store, settings: settings))
        let snapshot = try TimelineSnapshot(store: store, settings: settings)
        #expect(stored.leftOut == snapshot.leftOut)
        #expect(invalidDates == (snapshot.leftOut > 0))

        for level in TimelineLevel.allCases {
            let all = try #require(try stored.reports(level, withPhotos: false))
            #expect(all == (try snapshot.reports(level, withPhotos: false)))
            #expect(all.count > 3)
            let coarseList = try stored.reports(.coarse, withPhotos: true)
            #expect(try #require(coarseList) == (try snapshot.reports(.coarse, withPhotos: true)))
            for section in [0, all.count / 2, all.count - 1] {
                let expected = try snapshot.reports(level, section: section, withPhotos: true)
                let answer = try stored.reports(level, section: section, withPhotos: true)
                if level == .fine && invalidDates {
                    #expect(answer == nil, "positions are not rows when rows are left out: the snapshot answers")
                } else {
                    #expect(try #require(answer) == expected)
                    #expect(try Self.encoded(answer!.map(SectionJSON.init)) == (try Self.encoded(expected.map(SectionJSON.init))))
                }
            }
            #expect(throws: LibraryError.self) { try stored.reports(level, section: all.count, withPhotos: true) }
        }

        var rng = SplitMix64(seed: seed + 100)
        let zoom = ZoomSettings()
        for _ in 0..<60 {
            let level: TimelineLevel = Bool.random(using: &rng) ? .coarse : .fine
            let sections = snapshot.timeline.sectionCount(level)
            let section = Int.random(in: 0..<sections, using: &rng)
            let items = try #require(snapshot.timeline.itemCount(level, section: section))
            let anchor: ZoomRequest.Anchor = Int.random(in: 0..<4, using: &rng) == 0
                ? .focalPoint(x: Double.random(in: 0...390, using: &rng), y: Double.random(in: 0...844, using: &rng))
                : .item(section: section, item: Int.random(in: 0..<items, using: &rng))
            let offset = Double(Int.random(in: -100...200_000, using: &rng))
            let request = ZoomRequest(from: level, anchor: anchor, offset: offset)
            let expected = try snapshot.zoom(request, settings: zoom)
            let answer = try stored.zoom(request, settings: zoom)
            if level == .fine && invalidDates {
                #expect(answer == nil)
            } else {
                #expect(try Self.encoded(try #require(answer)) == (try Self.encoded(expected)), "\(request)")
            }
        }
        // Out of range: the same error.
        let request = ZoomRequest(from: .fine, anchor: .item(section: 0, item: 10_000))
        let computedError = #expect(throws: LibraryError.self) { try snapshot.zoom(request, settings: zoom) }
        let storedError = #expect(throws: LibraryError.self) { try stored.zoom(request, settings: zoom) }
        #expect(computedError?.message == storedError?.message)
    }

    @Test("the commands print the same text and JSON from the tables as without them", arguments: [4 as UInt64])
    func commandLine(seed: UInt64) throws {
        let tree = try TemporaryDirectory()
        let db = tree.path + "/library.sqlite"
        _ = try Self.makeLibrary(at: db, count: 800, seed: seed)
        let computed = try Self.computedCopy(of: db)
        let questions: [[String]] = [
            ["sections"], ["sections", "--json"], ["sections", "--level", "fine"], ["sections", "--section", "2"],
            ["sections", "--section", "1", "--json"], ["sections", "--level", "fine", "--section", "3"],
            ["sections", "--level", "fine", "--section", "5", "--json"], ["sections", "--section", "9999"],
            ["sections", "--seed", "5"], ["zoom", "--from", "coarse", "--section", "2", "--item", "3", "--offset", "120"],
            ["zoom", "--from", "fine", "--section", "7", "--item", "1", "--offset", "4000", "--json"],
            ["zoom", "--from", "fine", "--focal-y", "300", "--offset", "2500"],
            ["zoom", "--from", "coarse", "--focal-y", "10", "--offset", "900", "--viewport", "800x600", "--json"],
            ["zoom", "--from", "fine", "--section", "0", "--item", "999"],
        ]
        for question in questions {
            let fromTables = try ShoeboxProcess.run(question + ["--db", db])
            let grouped = try ShoeboxProcess.run(question + ["--db", computed])
            #expect(fromTables.stdout == grouped.stdout, "\(question)")
            #expect(fromTables.stderr == grouped.stderr, "\(question)")
            #expect(fromTables.status == grouped.status, "\(question)")
        }
    }

    @Test("the tables are not used after another run started, with other settings, or in a database without them")
    func fallbacks() throws {
        let tree = try TemporaryDirectory()
        let path = tree.path + "/library.sqlite"
        let store = try Self.makeLibrary(at: path, count: 200, seed: 5)
        #expect(try StoredSections(store: store, settings: TimelineSettings()) != nil)
        var seeded = TimelineSettings()
        seeded.coarse.seed = 7
        #expect(try StoredSections(store: store, settings: seeded) == nil)

        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO indexRun (startedAt, status) VALUES ('now', 'running')") }
        #expect(try StoredSections(store: store, settings: TimelineSettings()) == nil)
        try queue.write { try $0.execute(sql: "DROP TABLE timelineState") }
        let readOnly = try LibraryStore(path: path, mode: .readOnly)
        #expect(try StoredSections(store: readOnly, settings: TimelineSettings()) == nil)
        let listed = try ShoeboxProcess.run(["sections", "--db", path])
        #expect(listed.status == 0 && listed.stdout.contains("200 photos"), "\(listed.stdout)\(listed.stderr)")
    }

    @Test("an index run persists the tables; a run that changes nothing restamps them, one that adds a photo recomputes them")
    func indexRuns() throws {
        let tree = try TemporaryDirectory()
        for minute in 0..<12 {
            try tree.write("photos/\(minute).jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: String(format: "2025:03:03 10:%02d:00", minute))))
        }
        let db = tree.path + "/index.sqlite"
        func state() throws -> (run: Int64, last: Int64, shown: Int) {
            let queue = try DatabaseQueue(path: db)
            return try queue.read { db in
                (try Int64.fetchOne(db, sql: "SELECT runID FROM timelineState") ?? -1,
                 try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun") ?? -2,
                 try Int.fetchOne(db, sql: "SELECT shown FROM timelineSection WHERE level = 'coarse' AND idx = 0") ?? -1)
            }
        }
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        let first = try state()
        #expect(first.run == first.last && first.shown == 10)
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        let again = try state()
        #expect(again.run == again.last && again.run > first.run && again.shown == 10)
        for minute in 12..<20 {
            try tree.write("photos/\(minute).jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: String(format: "2025:03:03 10:%02d:00", minute))))
        }
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        let grown = try state()
        #expect(grown.run == grown.last && grown.shown == 20)
        let listed = try ShoeboxProcess.run(["sections", "--db", db])
        #expect(listed.stdout.contains("1 coarse section, 20 photos"), "\(listed.stdout)")
    }
}
