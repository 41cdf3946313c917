import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Places
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
}
