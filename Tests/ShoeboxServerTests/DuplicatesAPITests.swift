import Duplicates
import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import Places
import ShoeboxServer
import Testing

/// `/api/duplicates`: the groups `shoebox duplicates` stored, per tier, read without hashing anything.
@Suite("shoebox serve: duplicates")
struct DuplicatesAPITests {
    @Test("answers the stored groups of the asked tier, the kept file first; a bad tier is a 400")
    func storedGroups() async throws {
        let tree = try TemporaryDirectory()
        let jpeg = PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:05:01 10:00:00"))
        for path in ["photos/a.jpg", "photos/copy/a.jpg", "photos/b.jpg"] { try tree.write(path, jpeg) }
        let database = try await SearchAPITests.Fixture.index(tree, places: PlaceTable(entries: []))
        let store = try LibraryStore(path: database, mode: .readWrite)
        let ids = Dictionary(uniqueKeysWithValues: try store.duplicateRows().map { ($0.path.string, $0.id) })
        let a = try #require(ids["a.jpg"]), copy = try #require(ids["copy/a.jpg"])
        try store.replaceDuplicateGroups([
            DuplicateGroup(kind: .exact, members: [.init(id: a, match: .exact), .init(id: copy, match: .exact)], reason: "oldest file"),
        ], tier: .similar)
        try store.replaceDuplicateGroups([], tier: .exact)

        let app = try SearchAPITests.Fixture.app(database: database, tree: tree)
        let responses = try await get(app, [("/api/duplicates", [:]), ("/api/duplicates?tier=exact", [:]), ("/api/duplicates?tier=nearly", [:])])
        let body = try SearchAPITests.object(responses[0])
        #expect(body["tier"] as? String == "similar")
        let groups = try #require(body["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect(groups.first?["kind"] as? String == "exact")
        #expect(groups.first?["keep"] as? String == "a.jpg")
        #expect(groups.first?["reason"] as? String == "oldest file")
        let photos = try #require(groups.first?["photos"] as? [[String: Any]])
        #expect(photos.map { $0["path"] as? String } == ["a.jpg", "copy/a.jpg"])
        #expect(photos.map { $0["folder"] as? String } == ["", "copy"])
        #expect(photos.map { $0["keep"] as? Bool } == [true, false])
        #expect(photos.allSatisfy { $0["size"] as? Int == jpeg.count && $0["width"] as? Int == 16 && $0["height"] as? Int == 12 })
        #expect(photos.first?["captured"] as? String == "2024-05-01T10:00:00")
        #expect(try SearchAPITests.object(responses[1])["groups"] as? [Any] != nil)
        #expect((try SearchAPITests.object(responses[1])["groups"] as? [Any])?.isEmpty == true)
        #expect(responses[2].status == .badRequest)
        #expect(body["total"] as? Int == 1 && body["offset"] as? Int == 0)
        #expect(body["extraFiles"] as? Int == 1 && body["extraBytes"] as? Int == jpeg.count)
    }

    @Test("answers a page of groups by the kept file's path, with the totals of all of them; a bad page is a 400")
    func pages() async throws {
        let tree = try TemporaryDirectory()
        // Stored in reverse order: pages follow the kept files' paths, not the order of storing.
        let (database, _, rows) = try await Self.sevenPicturesStoredTwice(in: tree, storingInReverse: true)

        let app = try SearchAPITests.Fixture.app(database: database, tree: tree)
        var kept: [String] = []
        for offset in [0, 3, 6, 9] {
            let page = try SearchAPITests.object(try await get(app, "/api/duplicates?limit=3&offset=\(offset)"))
            #expect(page["total"] as? Int == 7 && page["offset"] as? Int == offset)
            #expect(page["extraFiles"] as? Int == 7)
            let groups = try #require(page["groups"] as? [[String: Any]])
            #expect(groups.count == max(0, min(3, 7 - offset)))
            kept += groups.compactMap { $0["keep"] as? String }
            #expect(groups.allSatisfy { ($0["photos"] as? [[String: Any]])?.count == 2 })
        }
        #expect(kept == (0..<7).map { "p\($0).jpg" })
        let extraBytes = rows.filter { $0.path.string.hasPrefix("copies/") }.reduce(0) { $0 + Int($1.fileSize) }
        #expect(try SearchAPITests.object(try await get(app, "/api/duplicates"))["extraBytes"] as? Int == extraBytes)
        for bad in ["limit=0", "limit=1001", "offset=-1", "offset=x"] {
            #expect(try await get(app, "/api/duplicates?\(bad)").status == .badRequest, "\(bad)")
        }
    }

    @Test("a group whose kept file, or whose only other file, is gone after the next index run leaves the pages and the totals")
    func groupsFollowRemovedFiles() async throws {
        let tree = try TemporaryDirectory()
        let (database, store, rows) = try await Self.sevenPicturesStoredTwice(in: tree)
        // The kept file of the first group and the copy of the second go; the index runs again.
        try FileManager.default.removeItem(atPath: tree.path + "/photos/p0.jpg")
        try FileManager.default.removeItem(atPath: tree.path + "/photos/copies/p1.jpg")
        for try await _ in try Indexer(root: tree.path + "/photos", store: store, places: LazyPlaceTable(nil)).run(prune: true) {}

        let app = try SearchAPITests.Fixture.app(database: database, tree: tree)
        var kept: [String] = []
        for offset in [0, 3] {
            let page = try SearchAPITests.object(try await get(app, "/api/duplicates?limit=3&offset=\(offset)"))
            #expect(page["total"] as? Int == 5 && page["extraFiles"] as? Int == 5)
            kept += (page["groups"] as? [[String: Any]] ?? []).compactMap { $0["keep"] as? String }
        }
        #expect(kept == (2..<7).map { "p\($0).jpg" })
        let extraBytes = rows.filter { $0.path.string.hasPrefix("copies/") && !$0.path.string.hasSuffix("p0.jpg") && !$0.path.string.hasSuffix("p1.jpg") }
            .reduce(0) { $0 + Int($1.fileSize) }
        #expect(try SearchAPITests.object(try await get(app, "/api/duplicates"))["extraBytes"] as? Int == extraBytes)
    }

    /// Seven pictures, each stored twice (its copy one byte longer, to tell their sizes apart),
    /// indexed, and stored as seven `similar` groups keeping `pN.jpg` over `copies/pN.jpg`.
    static func sevenPicturesStoredTwice(
        in tree: TemporaryDirectory, storingInReverse: Bool = false
    ) async throws -> (database: String, store: LibraryStore, rows: [DuplicateRow]) {
        for n in 0..<7 {
            let jpeg = PhotoFixtures.jpeg(width: 16 + n, height: 12, exif: ExifFields(dateTimeOriginal: "2024:05:0\(n + 1) 10:00:00"))
            try tree.write("photos/p\(n).jpg", jpeg)
            try tree.write("photos/copies/p\(n).jpg", jpeg + [0])
        }
        let database = try await SearchAPITests.Fixture.index(tree, places: PlaceTable(entries: []))
        let store = try LibraryStore(path: database, mode: .readWrite)
        let rows = try store.duplicateRows()
        let ids = Dictionary(uniqueKeysWithValues: rows.map { ($0.path.string, $0.id) })
        let order = storingInReverse ? Array((0..<7).reversed()) : Array(0..<7)
        try store.replaceDuplicateGroups(order.map { n in
            DuplicateGroup(kind: .similar, members: [.init(id: ids["p\(n).jpg"]!, match: .exact), .init(id: ids["copies/p\(n).jpg"]!, match: .similar)],
                           reason: "oldest file")
        }, tier: .similar)
        return (database, store, rows)
    }
}
