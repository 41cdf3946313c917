import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
@testable import ShoeboxServer
import Testing
import Timeline

/// A search result built in memory (FTS5 ids, then the loaded timeline filtered) is the same
/// timeline, with the same section places, as one queried from SQLite; and it follows the library.
@Suite("shoebox serve: search results in memory")
struct SearchResultTests {
    @Test("The filtered timeline and its places equal the ones queried from SQLite", arguments: [
        "lisbon", "sintra", "2019", "eos r6", "country:PT", "country:PT region:Lisbon city:Sintra", "2025-03", "atlantis",
    ])
    func sameAsQueried(text: String) async throws {
        let fixture = try await SearchAPITests.Fixture()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: .default)
        let state = try LibraryState(library: library)
        let query = SearchQuery(text)
        let result = try state.loaded.result(matching: query, in: library)
        let queried = try library.snapshot(matching: query)
        let queriedPlaces = try library.sectionPlaces(matching: query)
        #expect(result.snapshot.timeline.photos == queried.timeline.photos, "\(text)")
        #expect((0..<queried.timeline.photos.count).map(result.snapshot.id(ofPhoto:)) == (0..<queried.timeline.photos.count).map(queried.id(ofPhoto:)))
        for level in [TimelineLevel.coarse, .fine] {
            let mine = try result.snapshot.summaries(level).map { SectionJSON($0, snapshot: result.snapshot, photos: .none) }
            let theirs = try queried.summaries(level).map { SectionJSON($0, snapshot: queried, photos: .none) }
            #expect(mine.map(\.count) == theirs.map(\.count), "\(text) \(level)")
            #expect(mine.map { result.places.names(from: $0.start, to: $0.end) } == theirs.map { queriedPlaces.names(from: $0.start, to: $0.end) },
                    "\(text) \(level)")
        }
        // Asked again, in another spelling, the result is kept, not made again.
        #expect(try state.loaded.result(matching: SearchQuery("  " + text + " "), in: library).snapshot === result.snapshot)
    }

    @Test("After an index run the server loads, a search sees the new photos (results are kept per snapshot)")
    func followsTheLibrary() async throws {
        let fixture = try await SearchAPITests.Fixture()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: .default)
        let state = try LibraryState(library: library)
        #expect(try state.loaded.result(matching: SearchQuery("sintra"), in: library).snapshot.timeline.photos.count == 2)
        try await SearchAPITests.Fixture.add(
            "photos/2025/sintra-3.jpg", latitude: 38.7990, longitude: -9.3880, taken: "2025:03:20 10:00:00",
            to: fixture.tree, places: SearchAPITests.Fixture.table)
        #expect(try state.refreshIfChanged())
        #expect(try state.loaded.result(matching: SearchQuery("sintra"), in: library).snapshot.timeline.photos.count == 3)
    }
}
