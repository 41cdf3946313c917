import Dispatch
import Foundation
import Hummingbird
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
@testable import ShoeboxServer
import Synchronization
import Testing

/// `/api/places` is counted in the background after each library load, before anyone asks, once
/// per snapshot however many ask meanwhile, and not at all in a library without positions.
@Suite("shoebox serve: places counted ahead")
struct PlacesPreparationTests {
    @Test("After a load the places answer is counted without any request, and a request serves those bytes")
    func countedWithoutARequest() async throws {
        let fixture = try await PlacesAPITests.Fixture()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: .default)
        let loaded = try LibraryState(library: library).loaded
        loaded.waitForBackgroundWork()
        #expect(loaded.placeCountings.load(ordering: .relaxed) == 1)
        let answer = try loaded.placesAnswer(in: library)
        #expect(loaded.placeCountings.load(ordering: .relaxed) == 1)
        let fresh = try ContractJSON.encode(PlacesJSON(library.placeCounts()), compact: true)
        #expect(Array(answer.plain.readableBytesView) == Array(fresh))
    }

    @Test("A request while the places are counted waits for that counting and gets the same bytes")
    func requestWaitsForTheCounting() async throws {
        let fixture = try await PlacesAPITests.Fixture()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: .default)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Atomic<Int>(0)
        let state = try LibraryState(library: library) {
            // Only the first counting is held: a second one would be the bug this test looks for.
            guard calls.add(1, ordering: .relaxed).newValue == 1 else { return }
            started.signal()
            release.wait()
        }
        let loaded = state.loaded
        #expect(started.wait(timeout: .now() + 30) == .success, "the background counting never started")
        let requested = Mutex<CachedAnswer?>(nil)
        let done = DispatchSemaphore(value: 0)
        let request = Thread {
            requested.withLock { $0 = try? loaded.placesAnswer(in: library) }
            done.signal()
        }
        request.start()
        // The request is now waiting (or about to wait) on the counting the background holds.
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
        release.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        loaded.waitForBackgroundWork()
        let answer = try #require(requested.withLock { $0 })
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(loaded.placeCountings.load(ordering: .relaxed) == 1)
        #expect(Array(answer.plain.readableBytesView) == Array(try loaded.placesAnswer(in: library).plain.readableBytesView))
    }

    @Test("After an index run the new snapshot's places are counted again without a request, with the new photo")
    func reloadRecounts() async throws {
        let fixture = try await PlacesAPITests.Fixture()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: .default)
        let state = try LibraryState(library: library)
        let before = state.loaded
        before.waitForBackgroundWork()
        try await SearchAPITests.Fixture.add(
            "photos/sintra-3.jpg", latitude: 38.7990, longitude: -9.3880, taken: "2025:03:20 10:00:00",
            to: fixture.tree, places: PlacesAPITests.Fixture.table)
        #expect(try state.refreshIfChanged())
        let after = state.loaded
        #expect(after !== before)
        after.waitForBackgroundWork()
        #expect(after.placeCountings.load(ordering: .relaxed) == 1)
        let old = try before.placesAnswer(in: library)
        let new = try after.placesAnswer(in: library)
        #expect(after.placeCountings.load(ordering: .relaxed) == 1)
        #expect(Array(old.plain.readableBytesView) != Array(new.plain.readableBytesView))
        let fresh = try ContractJSON.encode(PlacesJSON(library.placeCounts()), compact: true)
        #expect(Array(new.plain.readableBytesView) == Array(fresh))
    }

    @Test("A library without positions counts no places ahead; a request still gets its answer")
    func nothingCountedWithoutPositions() async throws {
        let fixture = try await ServerFixture(count: 20)
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: fixture.settings().configuration)
        #expect(try library.hasPositions() == false)
        let loaded = try LibraryState(library: library).loaded
        loaded.waitForBackgroundWork()
        #expect(loaded.placeCountings.load(ordering: .relaxed) == 0)
        _ = try loaded.placesAnswer(in: library)
        #expect(loaded.placeCountings.load(ordering: .relaxed) == 1)
    }
}
