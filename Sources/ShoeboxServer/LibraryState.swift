import Dispatch
import Foundation
import Hummingbird
import LibraryIndex
import Logging
import PhotoLibrary
import ServiceLifecycle
import Synchronization
import Timeline
import ZoomMapping

/// The library as the server sees it: the current timeline snapshot, swapped atomically for a new
/// one when an index run finishes (in this process or another), plus answers encoded once per
/// snapshot.
final class LibraryState: Sendable {
    let library: PhotoLibrary
    private let current: Mutex<Loaded>
    private let refreshing = Mutex<Void>(())
    /// Told when a refresh finds the library pointed at another folder (`shoebox relocate`).
    private let rootObservers = Mutex<[@Sendable (_ old: String?, _ new: String) -> Void]>([])

    /// A snapshot, the JSON already encoded from it, and the paths of photos asked for lately.
    final class Loaded: Sendable {
        let snapshot: TimelineSnapshot
        let statistics: LibraryStatistics
        let root: String?
        private let encoded = Mutex<[String: CachedAnswer.Slot]>([:])
        private let paths = Mutex<[Int64: RelativePath]>([:])
        /// Section pages (a level, index, `from` and `count` each), the least recently asked for
        /// forgotten first: about 30 KB a page of 120 photos with its gzip copy.
        private let pages = AnswerCache(limit: Loaded.pageLimit, byteBudget: 64 * 1024 * 1024)
        /// Search results, the one asked for most recently last.
        private let results = Mutex<[(query: String, result: SearchResult)]>([])
        /// The place of every photo, loaded once per snapshot (see `loadPlacesInBackground(of:)`).
        private let placesByPhoto = Mutex<PlacesByPhoto?>(nil)
        /// How many answers were encoded (each key once per snapshot, however many ask at once).
        let encodings = Atomic<Int>(0)
        /// How many times the photos were counted per place for `/api/places`.
        let placeCountings = Atomic<Int>(0)
        /// Called before they are counted: lets a test hold the counting.
        private let willCountPlaces: @Sendable () -> Void
        /// Entered while `prepareInBackground(of:)` works.
        private let preparing = DispatchGroup()

        /// Paths kept at most (about 100 bytes each) before they are forgotten all at once.
        static let pathLimit = 65_536
        /// Answers kept at most (one per level and viewport asked for).
        static let answerLimit = 256
        /// Section pages kept at most.
        static let pageLimit = 512
        /// Search results whose timelines are kept.
        static let resultLimit = 8

        /// The whole library's timeline, or that of the photos of `scope` (see `result(in:library:)`).
        func snapshot(in scope: TimelineScope, library: PhotoLibrary) throws(LibraryError) -> TimelineSnapshot {
            if scope.isLibrary { return snapshot }
            return try result(in: scope, library: library).snapshot
        }

        /// The photos of `scope` (matching its search, inside its map box) as a timeline with its
        /// section places, made once and kept among the last ``resultLimit`` asked for: the ids
        /// come from FTS5 and the `photo_on_map` index (the sources of truth), the timeline and the
        /// places from this snapshot's photos in memory.
        func result(in scope: TimelineScope, library: PhotoLibrary) throws(LibraryError) -> SearchResult {
            let key = scope.key
            let kept = results.withLock { list -> SearchResult? in
                guard let index = list.firstIndex(where: { $0.query == key }) else { return nil }
                let entry = list.remove(at: index)
                list.append(entry)
                return entry.result
            }
            if let kept { return kept }
            let match = try scope.search.map { query throws(LibraryError) in try library.searchMatch(query) }
            var ids = match?.ids
            if let box = scope.box {
                let inside = try library.photoIDs(in: box)
                ids = ids.map { Self.intersection($0, inside) } ?? inside
            }
            let filtered = try snapshot.keeping(ids: ids ?? [], members: match?.members ?? [:])
            let made = SearchResult(snapshot: filtered, places: SectionPlaces(filtered, places: try places(in: library)))
            results.withLock { list in
                list.removeAll { $0.query == key }
                list.append((key, made))
                if list.count > Self.resultLimit { list.removeFirst(list.count - Self.resultLimit) }
            }
            return made
        }

        /// The photos matching search `query` (see `result(in:library:)`).
        func result(matching query: SearchQuery, in library: PhotoLibrary) throws(LibraryError) -> SearchResult {
            try result(in: TimelineScope(search: query), library: library)
        }

        /// The ids in both ascending lists.
        static func intersection(_ a: [Int64], _ b: [Int64]) -> [Int64] {
            var out: [Int64] = []
            var i = 0, j = 0
            while i < a.count, j < b.count {
                if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
            }
            return out
        }

        /// Loads the places of every photo, then (in a library with positions) counts the photos
        /// per place for `/api/places`, on a thread of its own, so that neither the first search
        /// nor the Places page waits (about 0.4 s and 0.9 s at a million photos); a request asking
        /// meanwhile waits for this one computation.
        func prepareInBackground(of library: PhotoLibrary) {
            preparing.enter()
            let thread = Thread { [self] in
                defer { preparing.leave() }
                _ = try? places(in: library)
                guard (try? library.hasPositions()) == true else { return }
                _ = try? placesAnswer(in: library)
            }
            thread.name = "shoebox.places"
            thread.start()
        }

        /// Returns once the work `prepareInBackground(of:)` started is done.
        func waitForBackgroundWork() { preparing.wait() }

        /// `/api/places` (`PlacesJSON`), counted once per snapshot.
        func placesAnswer(in library: PhotoLibrary) throws -> CachedAnswer {
            try cached("places") {
                willCountPlaces()
                placeCountings.add(1, ordering: .relaxed)
                return try ContractJSON.encode(PlacesJSON(library.placeCounts()), compact: true)
            }
        }

        /// The place of every photo of this snapshot's library, loaded once.
        private func places(in library: PhotoLibrary) throws(LibraryError) -> PlacesByPhoto {
            try placesByPhoto.withLock { places throws(LibraryError) -> PlacesByPhoto in
                if let places { return places }
                let loaded = try library.placesByPhoto()
                places = loaded
                return loaded
            }
        }

        init(snapshot: TimelineSnapshot, statistics: LibraryStatistics, root: String?, willCountPlaces: @escaping @Sendable () -> Void = {}) {
            self.snapshot = snapshot
            self.statistics = statistics
            self.root = root
            self.willCountPlaces = willCountPlaces
        }

        /// The answer for `key`, encoded (and compressed) by `make` the first time; requests
        /// that ask meanwhile wait for that one encoding. Buffers are shared copy-on-write:
        /// serving a cached answer copies nothing.
        func cached(_ key: String, _ make: () throws -> Data) throws -> CachedAnswer {
            let slot = encoded.withLock { slots in
                if let slot = slots[key] { return slot }
                if slots.count >= Self.answerLimit { slots.removeAll() }
                let slot = CachedAnswer.Slot()
                slots[key] = slot
                return slot
            }
            return try slot.answer {
                encodings.add(1, ordering: .relaxed)
                return try make()
            }
        }

        /// A section page for `key`, encoded (and compressed) by `make` the first time it is asked
        /// for since this snapshot loaded (or since it was forgotten).
        func cachedPage(_ key: String, _ make: () throws -> Data) throws -> CachedAnswer {
            try pages.answer(key) {
                encodings.add(1, ordering: .relaxed)
                return try make()
            }
        }

        /// How many section pages are kept.
        var cachedPages: Int { pages.count }

        /// The relative path of photo `id`, from memory or the database; a thumbnail asked for
        /// again needs no query.
        func path(ofPhoto id: Int64, in library: PhotoLibrary) throws(LibraryError) -> RelativePath {
            if let path = paths.withLock({ $0[id] }) { return path }
            let path = try library.photo(id: id).path
            paths.withLock { paths in
                if paths.count >= Self.pathLimit { paths.removeAll() }
                paths[id] = path
            }
            return path
        }
    }

    /// Called (on the thread that counts) before the photos are counted per place: lets a test hold the counting.
    private let willCountPlaces: @Sendable () -> Void

    init(library: PhotoLibrary, willCountPlaces: @escaping @Sendable () -> Void = {}) throws(LibraryError) {
        self.library = library
        self.willCountPlaces = willCountPlaces
        current = Mutex(try Self.load(library, willCountPlaces: willCountPlaces))
    }

    /// The snapshot requests are answered from.
    var loaded: Loaded { current.withLock { $0 } }

    /// Loads a new snapshot if a run finished since the current one, or the library was moved to
    /// another folder (`shoebox relocate`, which finishes no run); returns whether it did. Two
    /// callers at once (the watcher and the poller) load it once.
    @discardableResult
    func refreshIfChanged(force: Bool = false) throws(LibraryError) -> Bool {
        let change = try refreshing.withLock { _ throws(LibraryError) -> (before: Loaded, after: Loaded)? in
            let before = loaded
            // Polled every second: compare the cheap run id and root before counting anything.
            let ran = try library.lastRunID() != before.statistics.lastRunID
            let moved = try library.root() != before.root
            guard force || ran || moved else { return nil }
            let fresh = try Self.load(library, willCountPlaces: willCountPlaces)
            current.withLock { $0 = fresh }
            return (before, fresh)
        }
        guard let change else { return false }
        if let root = change.after.root, root != change.before.root {
            for observer in rootObservers.withLock({ $0 }) { observer(change.before.root, root) }
        }
        return true
    }

    /// Calls `observer` with the old and new folder each time a refresh finds the library moved.
    func onRootMoved(_ observer: @escaping @Sendable (_ old: String?, _ new: String) -> Void) {
        rootObservers.withLock { $0.append(observer) }
    }

    private static func load(_ library: PhotoLibrary, willCountPlaces: @escaping @Sendable () -> Void) throws(LibraryError) -> Loaded {
        // Statistics first: a run finishing while the snapshot loads is then noticed next time.
        let statistics = try library.statistics()
        let loaded = Loaded(
            snapshot: try library.snapshot(statistics: statistics), statistics: statistics, root: try library.root(),
            willCountPlaces: willCountPlaces)
        loaded.prepareInBackground(of: library)
        return loaded
    }
}

/// A search result: its own timeline, and the places its sections are named by.
struct SearchResult: Sendable {
    let snapshot: TimelineSnapshot
    let places: SectionPlaces

    var pair: (TimelineSnapshot, SectionPlaces) { (snapshot, places) }
}

/// Polls the database for finished index runs (of this server's watcher or of `shoebox index` in
/// another process), loads their result and tells the viewers.
struct LibraryRefresher: Service {
    let state: LibraryState
    let events: EventHub
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                refresh(state: state, events: events, logger: logger)
            }
        }
        events.finishAll()
    }
}

/// Loads the library again if a run finished (or always, with `force`: a correction changed rows),
/// and sends `library-changed` if it did.
func refresh(state: LibraryState, events: EventHub, logger: Logger, force: Bool = false) {
    do {
        let root = state.loaded.root
        if try state.refreshIfChanged(force: force) {
            let loaded = state.loaded
            if loaded.root != root, let moved = loaded.root {
                logger.notice("The library moved from \(root ?? "(none)") to \(moved) (shoebox relocate): photos are served from the new folder.")
            }
            logger.info("Loaded the library after an index run: \(loaded.statistics.photos.counted("photo")), \(loaded.statistics.videos.counted("video")).")
            events.libraryChanged(loaded)
        }
    } catch {
        logger.warning("Could not reload the library: \(error)")
    }
}
