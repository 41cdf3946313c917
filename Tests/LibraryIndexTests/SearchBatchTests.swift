import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Places
import Synchronization
import Testing

/// The indexer writes a batch's search words in two statements with the row triggers off, and
/// stores the place counts per day at the end of a run: both must answer exactly as the triggers
/// and a scan of the rows did.
@Suite("Search words and place days written by batch")
struct SearchBatchTests {
    static func setModified(_ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: path)
    }

    @Test("Across batches every photo is found by its name and place; changed, removed and no-longer-image files leave no stale words")
    func batchesKeepTheIndexExact() async throws {
        let tree = try TemporaryDirectory()
        for i in 0..<25 {
            try tree.write("root/day/p\(i)x.jpg", TestPlaces.jpeg(
                i % 2 == 0 ? TestPlaces.lisbon : TestPlaces.saoPaulo, local: "2025:03:08 10:00:00", make: "Canon", model: "EOS R6"))
        }
        var settings = IndexSettings.default
        settings.batchSize = 4
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, settings: settings, places: TestPlaces.table)
        for i in 0..<25 { #expect(try SearchIndexTests.found(store, "p\(i)x") == ["p\(i)x.jpg"]) }
        #expect(try store.photoIDs(matching: SearchQuery("lisbon")).count == 13)
        #expect(try store.photoIDs(matching: SearchQuery("canon march 2025")).count == 25)

        // A changed camera, a removed file, and a file that is no longer an image.
        try tree.write("root/day/p0x.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2010:01:20 10:00:00", make: "NIKON", model: "D90"))
        try Self.setModified(tree.path + "/root/day/p0x.jpg")
        try FileManager.default.removeItem(atPath: tree.path + "/root/day/p1x.jpg")
        try tree.write("root/day/p2x.jpg", Array("not an image any more".utf8))
        try Self.setModified(tree.path + "/root/day/p2x.jpg")
        try await index(tree.path + "/root", into: store, settings: settings, places: TestPlaces.table)
        #expect(try SearchIndexTests.found(store, "nikon sao paulo 2010") == ["p0x.jpg"])
        #expect(try SearchIndexTests.found(store, "p0x canon") == [])
        #expect(try SearchIndexTests.found(store, "p1x") == [])
        #expect(try SearchIndexTests.found(store, "p2x") == [])
        #expect(try store.photoIDs(matching: SearchQuery("canon")).count == 22)
        #expect(try store.photoIDs(matching: SearchQuery("lisbon")).count == 11)

        // The words are those the triggers write: dropping every row through them leaves no match.
        try store.write { db in try db.execute(sql: "DELETE FROM photo") }
        #expect(try store.photoIDs(matching: SearchQuery("jpg")).isEmpty)
        #expect(try store.photoIDs(matching: SearchQuery("2025")).isEmpty)
    }

    @Test("A first index writes its rows with the search triggers dropped and the flag set, and puts both back at its end", .timeLimit(.minutes(1)))
    func firstIndexDropsTheTriggersWhileItWrites() async throws {
        let tree = try TemporaryDirectory()
        for folder in ["a", "b"] {
            for i in 0..<5 { try tree.write("photos/\(folder)/IMG_\(i).jpg", PhotoFixtures.jpeg(width: 8, height: 8)) }
        }
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let state = "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'photoSearch%'), (SELECT count(*) FROM searchDeferred)"
        // While the walk leaves the last folder, once the first folder's rows are written.
        let (job, observation) = try WalkReadOverlapTests.job(root: tree.path + "/photos", store: store, waitingIn: "b", for: 5)
        let during = Mutex<[Int]>([])
        let waiting = job.folderWalkedForTesting.withLock { $0 }
        job.folderWalkedForTesting.withLock {
            $0 = { left in
                waiting?(left)
                guard left.string == "b", let row = try? store.read({ try Row.fetchOne($0, sql: state) }) else { return }
                during.withLock { $0 = [row[0], row[1]] }
            }
        }
        _ = try await WalkReadOverlapTests.run(job)
        #expect((observation.state.withLock { $0.photosWritten } ?? 0) >= 5, "rows were written before the look")
        #expect(during.withLock { $0 } == [0, 1], "mid-run: no search trigger, the flag set")
        let after = try store.read { try Row.fetchOne($0, sql: state) }
        #expect(after.map { [$0[0], $0[1]] as [Int] } == [3, 0])
        #expect(try store.photoIDs(matching: SearchQuery("jpg")).count == 10)
    }

    @Test("Rows written by another program keep the index in step through the triggers")
    func triggersStillServeOtherWriters() async throws {
        let (tree, store) = try await SearchIndexTests.indexed()
        defer { withExtendedLifetime(tree) {} }
        try store.write { db in
            try db.execute(sql: "UPDATE photo SET make = 'Leica', model = 'M6' WHERE CAST(path AS TEXT) LIKE '%grandma%'")
            try db.execute(sql: "DELETE FROM photo WHERE CAST(path AS TEXT) LIKE '%sp.jpg'")
            try #require(try Int.fetchOne(db, sql: "SELECT count(*) FROM searchDeferred") == 0)
        }
        #expect(try SearchIndexTests.found(store, "leica") == ["grandma.jpg"])
        #expect(try SearchIndexTests.found(store, "d90") == [])
        #expect(try SearchIndexTests.found(store, "brazil") == [])
    }

    @Test("Place counts per day are stored by each run, named later ones included, and equal a scan of the rows")
    func placeDaysStored() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("root/a.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:15 12:00:00"))
        try tree.write("root/b.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:07:15 13:00:00"))
        try tree.write("root/c.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2025:07:16 12:00:00"))
        try tree.write("root/d.jpg", TestPlaces.jpeg(nil, local: "2025:07:17 12:00:00"))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: nil)
        #expect(try store.read { db in try LibraryStore.storedPlaceDays(db) } == [])
        #expect(try store.placeCountsByDay() == [])

        // The next run names the places without reading a file: the stored counts follow.
        for try await _ in try Indexer(root: tree.path + "/root", store: store, places: LazyPlaceTable(loading: { TestPlaces.table })).run() {}
        let stored = try #require(try store.read { db in try LibraryStore.storedPlaceDays(db) })
        #expect(stored.map(\.day) == ["2025-07-15", "2025-07-16"])
        #expect(stored.map(\.count) == [2, 1])
        #expect(stored.first?.place.city == "Lisbon")

        // An unchanged run keeps them; a run started since makes readers scan the rows: the same answer.
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        #expect(try store.read { db in try LibraryStore.storedPlaceDays(db) } == stored)
        _ = try store.beginRun()
        #expect(try store.read { db in try LibraryStore.storedPlaceDays(db) } == nil)
        #expect(try store.placeCountsByDay() == stored)
    }

    @Test("The writer's search words function gives the triggers' expression byte for byte, NULLs, odd dates and stray bytes too")
    func searchWordsFunctionMatchesTheExpression() throws {
        let tree = try TemporaryDirectory()
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        // (city, region, country, make, model, captured, path): every column NULL in turn, months
        // 00 to 13, dates shorter than a day, characters of several bytes before and in the month,
        // a path that is not UTF-8, numbers where text is expected, an empty path.
        let rows = """
            ('Lisboa', 'Lisboa', 'Portugal', 'Canon', 'EOS R6', '2025-03-08T10:00:00.000', X'6461792F702E6A7067'),
            (NULL, NULL, NULL, NULL, NULL, '2025-12-31T23:59:59', X'612F62'),
            ('São Paulo', NULL, 'Brasil', 'NIKON', NULL, '2010-01-20', X'C3A92F66FF2E6A7067'),
            ('Zürich', 'Zürich', 'Schweiz', NULL, 'X100', '2024-00-01', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024-13-01', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024-1', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '', X''),
            ('a', 'b', 'c', 'd', 'e', 'ééééé-06-01', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024-é6-01', X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024-11-01T00:00:00', '日本/写真.jpg'),
            (12, 3.5, 'c', 7, 'e', 20240501, X'7A'),
            ('a', 'b', 'c', 'd', 'e', NULL, X'7A'),
            ('a', 'b', 'c', 'd', 'e', '2024-02-01', NULL)
            """
        let mismatches = try store.write { db in
            try Row.fetchAll(db, sql: """
                WITH photo (placeCity, placeRegion, placeCountry, make, model, captured, path) AS (VALUES \(rows))
                SELECT quote(\(LibraryStore.searchWordsCall("photo"))), quote(\(LibraryStore.searchWords("photo"))) FROM photo
                WHERE \(LibraryStore.searchWordsCall("photo")) IS NOT \(LibraryStore.searchWords("photo"))
                    OR typeof(\(LibraryStore.searchWordsCall("photo"))) != typeof(\(LibraryStore.searchWords("photo")))
                """).map { "\($0[0] as String? ?? "nil") != \($0[1] as String? ?? "nil")" }
        }
        #expect(mismatches.isEmpty)
        let count = try store.write { db in
            try Int.fetchOne(db, sql: "WITH photo (placeCity, placeRegion, placeCountry, make, model, captured, path) AS (VALUES \(rows)) SELECT count(*) FROM photo")
        }
        #expect(count == 14)
    }

    @Test("Place days counted in Swift equal SQLite's GROUP BY: order within a day, missing names, names that start alike, stray bytes, Live Photo videos left out")
    func placeDaysEqualGroupBy() throws {
        let tree = try TemporaryDirectory()
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        // (captured, city, region, country, code, mediaType, pairedWith): one day's places
        // interleaved, so a run of equal rows ends and comes back.
        let places: [(String?, String?, String?, String?)] = [
            ("Porto", "Porto", "Portugal", "PT"), ("Porto Alegre", "Rio Grande do Sul", "Brasil", "BR"),
            (nil, nil, "Portugal", "PT"), ("Porto", nil, "Portugal", "PT"), ("Porto", "Porto", "Portugal", nil),
            ("São Paulo", "São Paulo", "Brasil", "BR"), ("Sao Paulo", "São Paulo", "Brasil", "BR"),
            ("a\u{0}b", nil, "X", "XX"), ("a", nil, "X", "XX"), ("a\u{1}", nil, "X", "XX"), ("", "", "Y", ""),
            (nil, nil, nil, nil),
        ]
        try store.write { db in
            var id = 0
            for round in 0..<3 {
                for (day, places) in [("2025-07-15", places), ("2025-07-14", places.reversed()), ("2024-01-01", Array(places.prefix(3)))] {
                    for (index, place) in places.enumerated() {
                        id += 1
                        let video = round == 2 && index % 3 == 0
                        try db.execute(sql: """
                            INSERT INTO photo (path, fileSize, modified, captured, dateSource, placeCity, placeRegion, placeCountry,
                                placeCountryCode, mediaType, pairedWith)
                            VALUES (?, 1, 1, ?, 'exif', CAST(? AS TEXT), ?, ?, ?, ?, ?)
                            """, arguments: [
                                // The city as bytes cast to text: a String argument would end at its NUL.
                                Data("p\(id).jpg".utf8), "\(day)T1\(index % 10):00:00", place.0.map { Data($0.utf8) }, place.1, place.2, place.3,
                                video ? "video" : "photo", video ? 1 : nil,
                            ])
                    }
                }
            }
        }
        func grouped(_ condition: (sql: String, arguments: StatementArguments)) throws -> [[String?]] {
            try store.read { db in
                // Names read as bytes: GRDB's strings end at a NUL.
                try Row.fetchAll(db, sql: """
                    SELECT substr(captured, 1, 10), CAST(placeCity AS BLOB), CAST(placeRegion AS BLOB), CAST(placeCountry AS BLOB),
                        CAST(placeCountryCode AS BLOB), count(*)
                    FROM photo WHERE placeCountry IS NOT NULL AND \(LibraryStore.timelineFilter) AND \(condition.sql)
                    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
                    """, arguments: condition.arguments).map { row -> [String?] in
                    [row[0]] + (1...4).map { (row[$0] as Data?).map { String(decoding: $0, as: UTF8.self) } } + [String(row[5] as Int)]
                }
            }
        }
        let counted = try store.read { db in
            try LibraryStore.placeDays(db).map { [$0.day, $0.city, $0.region, $0.country, $0.countryCode, String($0.count)] }
        }
        #expect(try grouped(("1", [])).count == 25)
        let all = try grouped(("1", []))
        #expect(counted == all, "\(zip(counted, all).filter { $0 != $1 })")
        // A search's counts (the rows' words come from the triggers).
        let porto = SearchQuery("porto")
        let searched = try store.placeCountsByDay(matching: porto).map {
            [$0.day, $0.place.city, $0.place.region, $0.place.country, $0.place.countryCode, String($0.count)]
        }
        #expect(try grouped(LibraryStore.searchCondition(porto)).count == 10)
        #expect(try searched == grouped(LibraryStore.searchCondition(porto)))
    }
}
