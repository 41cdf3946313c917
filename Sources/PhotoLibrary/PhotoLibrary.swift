public import LibraryIndex
public import Timeline
import ZoomMapping

/// One indexed library, opened for reading: its configuration, its store, and timeline snapshots.
/// What every front end (the command line, the server) starts from.
public final class PhotoLibrary: Sendable {
    public let databasePath: String
    public let configuration: ShoeboxConfiguration
    public let store: LibraryStore

    /// Opens the database at `databasePath` read-only.
    public init(databasePath: String, configuration: ShoeboxConfiguration) throws(LibraryError) {
        self.databasePath = databasePath
        self.configuration = configuration
        do {
            store = try LibraryStore(path: databasePath, mode: .readOnly)
        } catch {
            throw LibraryError(error)
        }
    }

    /// Loads the photos and groups them with the configured section settings, or `settings`;
    /// pass the `statistics` just read, if any, so the rows are not counted twice.
    public func snapshot(settings: TimelineSettings? = nil, statistics: LibraryStatistics? = nil) throws(LibraryError) -> TimelineSnapshot {
        try TimelineSnapshot(store: store, settings: settings ?? configuration.sections, statistics: statistics)
    }

    /// The timeline of the photos matching `query`, grouped with the configured section settings
    /// or `settings`.
    public func snapshot(matching query: SearchQuery, settings: TimelineSettings? = nil, runID: Int64? = nil) throws(LibraryError) -> TimelineSnapshot {
        try TimelineSnapshot(store: store, settings: settings ?? configuration.sections, matching: query, runID: runID)
    }

    /// The absolute folder the library indexes, or `nil` before the first run.
    public func root() throws(LibraryError) -> String? {
        do { return try store.root() } catch { throw LibraryError(error) }
    }

    /// Counts and the last finished run.
    public func statistics() throws(LibraryError) -> LibraryStatistics {
        do { return try store.statistics() } catch { throw LibraryError(error) }
    }

    /// The id of the last finished run (see `LibraryStore.lastRunID()`).
    public func lastRunID() throws(LibraryError) -> Int64? {
        do { return try store.lastRunID() } catch { throw LibraryError(error) }
    }

    /// The place names of every section, or of the sections of a search result (`query`).
    public func sectionPlaces(matching query: SearchQuery? = nil) throws(LibraryError) -> SectionPlaces {
        do { return SectionPlaces(try store.placeCountsByDay(matching: query)) } catch { throw LibraryError(error) }
    }

    /// The photos counted per place (see `LibraryStore.placeCounts()`).
    public func placeCounts() throws(LibraryError) -> PlaceCounts {
        do { return try store.placeCounts() } catch { throw LibraryError(error) }
    }

    /// Whether any photo has a position (see `LibraryStore.hasPositions()`).
    public func hasPositions() throws(LibraryError) -> Bool {
        do { return try store.hasPositions() } catch { throw LibraryError(error) }
    }

    /// The place of every photo, in memory (see `LibraryStore.placesByPhoto()`).
    public func placesByPhoto() throws(LibraryError) -> PlacesByPhoto {
        do { return try store.placesByPhoto() } catch { throw LibraryError(error) }
    }

    /// The ids of the photos matching `query`, ascending, a stack's member standing for its cover.
    public func photoIDs(matching query: SearchQuery) throws(LibraryError) -> [Int64] {
        do { return try store.photoIDs(matching: query) } catch { throw LibraryError(error) }
    }

    /// The items matching `query` and the stacks found through a member (see `SearchMatch`).
    public func searchMatch(_ query: SearchQuery) throws(LibraryError) -> SearchMatch {
        do { return try store.searchMatch(query) } catch { throw LibraryError(error) }
    }

    /// The photos in the cells of `zoom` that `box` touches, a cluster per cell (see
    /// `LibraryStore.mapClusters(in:zoom:)`).
    public func map(_ box: MapBox, zoom: Int) throws(LibraryError) -> MapJSON {
        do { return MapJSON(try store.mapClusters(in: box, zoom: zoom), box: box) } catch { throw LibraryError(error) }
    }

    /// The smallest box around the positions of the photos matching `query`, and their number
    /// (see `LibraryStore.mapBounds(matching:)`).
    public func mapBounds(matching query: SearchQuery) throws(LibraryError) -> (box: MapBox, count: Int)? {
        do { return try store.mapBounds(matching: query) } catch { throw LibraryError(error) }
    }

    /// The ids of the photos inside `box`, ascending (see `LibraryStore.photoIDs(in:)`).
    public func photoIDs(in box: MapBox) throws(LibraryError) -> [Int64] {
        do { return try store.photoIDs(in: box) } catch { throw LibraryError(error) }
    }

    /// The rows with `ids`, in that order.
    public func photos(ids: [Int64]) throws(LibraryError) -> [IndexedPhoto] {
        do { return try store.photos(ids: ids) } catch { throw LibraryError(error) }
    }

    /// The row with `id`.
    public func photo(id: Int64) throws(LibraryError) -> IndexedPhoto {
        let row: IndexedPhoto?
        do { row = try store.photo(id: id) } catch { throw LibraryError(error) }
        guard let row else { throw LibraryError(.outOfRange, "There is no photo with id \(id).") }
        return row
    }
}
