import WallClock
public import LibraryIndex
public import PhotoMetadata
public import Timeline
public import ZoomMapping
import Synchronization

/// The photos of a library grouped into sections, as of one moment: loaded in one indexed query,
/// then built by the pure timeline. Immutable and `Sendable`: a server shares one snapshot between
/// all requests and swaps in a new one after each index run.
public final class TimelineSnapshot: Sendable {
    public let timeline: PhotoTimeline
    /// Photos left out because their stored date is not a calendar date.
    public let leftOut: Int
    /// The `LibraryStatistics.lastRunID` the snapshot was loaded after.
    public let runID: Int64?
    /// Per photo, by position in `timeline.photos`.
    private let details: [Detail]
    /// Whether any photo is a stack's cover.
    private let hasStacks: Bool
    /// In a search result: for a stack found only through a member, that member's id, by the
    /// cover's row id (see `SearchMatch.members`).
    private let matchedMembers: [Int64: Int64]
    /// Whether any photo could not be read by the index.
    private let hasUnreadable: Bool
    private let zoomMaps = Mutex<[ViewportKey: ZoomMap]>([:])
    private let packedMaps = Mutex<[PackedKey: PackedZoomMap]>([:])

    /// What the JSON contract needs of a photo besides its timeline entry.
    struct Detail: Sendable {
        var id: Int64
        var source: DateSource
        var width: Int32
        var height: Int32
        var isVideo: Bool
        var pathBytes: [UInt8]?
        /// The photos of the stack it is the cover of (a stack is one item), else 0.
        var stackCount: Int32 = 0
        /// Whether the index read the file without an error (a Years card's key photo must be).
        var isReadable = true
    }

    /// Loads every photo of `store` and groups it with `settings`; `statistics`, when the caller
    /// has just read them, save counting the rows again.
    ///
    /// - Complexity: O(n log n) for n photos; one query over the `(captured, path)` index.
    public convenience init(store: LibraryStore, settings: TimelineSettings, statistics: LibraryStatistics? = nil) throws(LibraryError) {
        let counted: LibraryStatistics
        if let statistics {
            counted = statistics
        } else {
            do { counted = try store.statistics() } catch { throw LibraryError(error) }
        }
        try self.init(
            capacity: counted.photos + counted.videos, runID: counted.lastRunID, settings: settings,
            stackCounts: try Self.stackCounts(store),
            forEachMoment: { body throws(IndexError) in try store.forEachMoment(body) })
    }

    /// The timeline of the photos of `store` matching `query` (a search result), grouped with
    /// `settings` exactly as the whole library's; empty for an empty query.
    ///
    /// - Complexity: one FTS5 lookup, then O(m log m) for the m matching photos.
    public convenience init(store: LibraryStore, settings: TimelineSettings, matching query: SearchQuery, runID: Int64?) throws(LibraryError) {
        try self.init(
            capacity: 0, runID: runID, settings: settings, stackCounts: try Self.stackCounts(store),
            forEachMoment: { body throws(IndexError) in try store.forEachMoment(matching: query, body) })
    }

    private static func stackCounts(_ store: LibraryStore) throws(LibraryError) -> [Int64: Int] {
        do { return try store.stackCounts() } catch { throw LibraryError(error) }
    }

    /// Groups the photos `forEachMoment` calls its argument with (capture order, then path).
    convenience init(
        capacity: Int, runID: Int64?, settings: TimelineSettings, stackCounts: [Int64: Int] = [:],
        forEachMoment: ((PhotoMoment) throws -> Void) throws -> Void
    ) throws(LibraryError) {
        var photos: [TimelinePhoto] = []
        var details: [Detail] = []
        var leftOut = 0
        do {
            photos.reserveCapacity(capacity)
            details.reserveCapacity(capacity)
            try forEachMoment { moment in
                let captured = moment.captured
                guard captured.isValid else {
                    leftOut += 1
                    return
                }
                photos.append(TimelinePhoto(path: moment.path, captured: captured, isFromModificationTime: moment.source == .fileModified))
                details.append(Detail(
                    id: moment.id, source: moment.source, width: Int32(clamping: moment.width ?? -1),
                    height: Int32(clamping: moment.height ?? -1), isVideo: moment.mediaType == .video, pathBytes: moment.pathBytes,
                    stackCount: Int32(clamping: stackCounts[moment.id] ?? 0), isReadable: moment.isReadable))
            }
        } catch let error as IndexError {
            throw LibraryError(error)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw LibraryError(IndexError(.databaseFailure, "Reading the index failed: \(error).", underlyingError: error))
        }
        try self.init(photos: photos, details: details, leftOut: leftOut, runID: runID, settings: settings)
    }

    /// The photos of `self` whose ids are in `ids` (a search result), grouped with the same
    /// settings: the result's own timeline, with no query, since every photo is loaded already.
    /// Photos of `ids` that are in no section (Live Photo video halves, dates that are no
    /// calendar date) are not in it either.
    ///
    /// - Complexity: O(n) for the n photos of `self`, plus grouping the m kept.
    /// `members` names, by cover, the member through which a stack was found (``matchedMember(ofPhoto:)``).
    public func keeping(ids: [Int64], members: [Int64: Int64] = [:]) throws(LibraryError) -> TimelineSnapshot {
        let largest = ids.max() ?? -1
        var kept = [UInt64](repeating: 0, count: largest >= 0 ? Int(largest) / 64 + 1 : 0)
        for id in ids where id >= 0 { kept[Int(id) / 64] |= 1 << UInt64(id % 64) }
        var photos: [TimelinePhoto] = []
        var details: [Detail] = []
        for (position, detail) in self.details.enumerated() {
            let id = detail.id
            guard id >= 0, id <= largest, kept[Int(id) / 64] & (1 << UInt64(id % 64)) != 0 else { continue }
            photos.append(timeline.photos[position])
            details.append(detail)
        }
        return try TimelineSnapshot(
            photos: photos, details: details, leftOut: 0, runID: runID, settings: timeline.settings, matchedMembers: members)
    }

    /// Groups `photos` (in capture order, then path), `details` giving each one's row.
    private init(
        photos: [TimelinePhoto], details: [Detail], leftOut: Int, runID: Int64?, settings: TimelineSettings,
        matchedMembers: [Int64: Int64] = [:]
    ) throws(LibraryError) {
        let input = photos.map(\.path)
        do {
            timeline = try PhotoTimeline(photos: photos, settings: settings)
        } catch {
            throw LibraryError(.invalidSettings, sentence: error.message, underlyingError: error)
        }
        self.leftOut = leftOut
        self.runID = runID
        if timeline.inputWasSorted {
            self.details = details
        } else {
            // The timeline reordered its input (rows come in index order, so it never should):
            // put the details in its order, matching by path.
            let inputPositions = Dictionary(zip(input, input.indices), uniquingKeysWith: { first, _ in first })
            self.details = timeline.photos.map { details[inputPositions[$0.path] ?? 0] }
        }
        hasStacks = details.contains { $0.stackCount > 0 }
        self.matchedMembers = matchedMembers
        hasUnreadable = details.contains { !$0.isReadable }
    }

    /// Where the date of the photo at `position` in `timeline.photos` came from.
    public func source(ofPhoto position: Int) -> DateSource { details[position].source }

    /// The row id of the photo at `position`.
    public func id(ofPhoto position: Int) -> Int64 { details[position].id }

    /// The number of photos of the stack whose cover is the photo at `position` (the cover stands
    /// for them all), or `nil` when it is no stack's cover.
    public func stackCount(ofPhoto position: Int) -> Int? {
        let count = details[position].stackCount
        return count > 0 ? Int(count) : nil
    }

    /// In a search result, the member of the stack whose cover is at `position` that the search
    /// found, when the cover itself does not match: the page the pager opens on.
    public func matchedMember(ofPhoto position: Int) -> Int64? {
        matchedMembers.isEmpty ? nil : matchedMembers[details[position].id]
    }

    /// Every photo of the timeline, a stack counted with all of its photos (`timeline.photos`
    /// counts it once): what a search result's `total` says.
    ///
    /// - Complexity: O(1) without stacks, else O(n).
    public var photoCount: Int {
        photoCounter?(0..<details.count) ?? details.count
    }

    /// The photos of section `index` of `level`, a stack counted with all of its photos (the
    /// section's `count` counts it once, as the one item the grid shows): what a header says.
    ///
    /// - Complexity: O(1) without stacks, else O(photos of the section).
    public func photoCount(_ level: TimelineLevel, section index: Int) -> Int {
        let range = switch level {
        case .coarse: timeline.coarseSections.indices.contains(index) ? timeline.coarseSections[index].photoRange : 0..<0
        case .fine: timeline.fineSections.indices.contains(index) ? timeline.fineSections[index].photoRange : 0..<0
        }
        return photoCounter?(range) ?? range.count
    }

    /// The photos that the items at a range of positions stand for, a stack with all of its photos;
    /// `nil` without stacks (each item is one photo).
    var photoCounter: ((Range<Int>) -> Int)? {
        guard hasStacks else { return nil }
        return { [details] range in details[range].reduce(0) { $0 + max(1, Int($1.stackCount)) } }
    }

    /// Which positions hold a photo the index read without an error (the Years cards' key photos
    /// are chosen among them, by ``yearList(today:detail:)`` and ``packedMap(viewport:contentInsets:today:)``
    /// alike); `nil` when every photo was read.
    var readablePhotos: ((Int) -> Bool)? {
        guard hasUnreadable else { return nil }
        return { [details] position in details[position].isReadable }
    }

    /// The display size of the photo at `position`, when known.
    public func displaySize(ofPhoto position: Int) -> (width: Int, height: Int)? {
        let detail = details[position]
        return detail.width >= 0 && detail.height >= 0 ? (Int(detail.width), Int(detail.height)) : nil
    }

    /// `photo` or `video`, for the photo at `position`.
    public func mediaType(ofPhoto position: Int) -> MediaType { details[position].isVideo ? .video : .photo }

    /// The exact bytes of the path at `position` when it is not valid UTF-8.
    public func pathBytes(ofPhoto position: Int) -> [UInt8]? { details[position].pathBytes }

    /// The position in `timeline.photos` of the photo with row id `id`, or `nil` if it is in no section.
    ///
    /// - Complexity: O(n); the snapshot keeps no index by id.
    public func position(ofPhotoID id: Int64) -> Int? {
        details.firstIndex { $0.id == id }
    }

    /// The zoom map for `settings` (one per viewport, built once and kept).
    public func zoomMap(settings: ZoomSettings) throws(LibraryError) -> ZoomMap {
        let key = ViewportKey(settings)
        if let map = zoomMaps.withLock({ $0[key] }) { return map }
        let map: ZoomMap
        do {
            map = try ZoomMap(timeline: timeline, settings: settings)
        } catch {
            throw LibraryError(.invalidSettings, sentence: error.message, underlyingError: error)
        }
        zoomMaps.withLock { maps in
            if maps.count >= 64 { maps.removeAll() }
            maps[key] = map
        }
        return map
    }

    /// The packed layouts for `viewport` (one per viewport, insets and day, built once and kept).
    ///
    /// - Throws: ``LibraryError`` with code `invalidSettings` for a width outside 1…100,000
    ///   points or a height or insets out of range.
    public func packedMap(viewport: ViewportSize, contentInsets: ContentInsets, today: TimelineDay) throws(LibraryError) -> PackedZoomMap {
        let key = PackedKey(bits: [viewport.width, viewport.height, contentInsets.top, contentInsets.bottom].map(\.bitPattern), today: today.daysSince2001)
        if let map = packedMaps.withLock({ $0[key] }) { return map }
        let map: PackedZoomMap
        do {
            map = try PackedZoomMap(timeline: timeline, viewport: viewport, contentInsets: contentInsets, today: today, isReadable: readablePhotos)
        } catch {
            throw LibraryError(.invalidSettings, sentence: error.message, underlyingError: error)
        }
        packedMaps.withLock { maps in
            if maps.count >= 16 { maps.removeAll() }
            maps[key] = map
        }
        return map
    }

    /// The summaries of `level`, or of one section of it.
    public func summaries(_ level: TimelineLevel, section: Int? = nil) throws(LibraryError) -> [SectionSummary] {
        guard let section else { return timeline.summaries(level) }
        // One section alone: a section page asks for one of thousands.
        guard let summary = timeline.summary(level, section) else {
            let count = timeline.sectionCount(level)
            throw LibraryError(.outOfRange, count == 0
                ? "There are no \(level) sections: the index is empty."
                : "Section \(section) is out of range: the \(level) level has sections 0–\(count - 1).")
        }
        return [summary]
    }
}

/// A packed map's viewport, insets and day as a dictionary key.
private struct PackedKey: Hashable {
    var bits: [UInt64]
    var today: Int
}

/// Zoom settings as a dictionary key (they are `Equatable` but not `Hashable`).
private struct ViewportKey: Hashable {
    var bits: [UInt64]

    init(_ settings: ZoomSettings) {
        var values = [settings.viewport.width, settings.viewport.height, settings.contentInsets.top, settings.contentInsets.bottom]
        for m in [settings.coarse, settings.fine] {
            values += [Double(m.columns), m.itemSpacing, m.lineSpacing, m.headerHeight,
                       m.sectionInsets.top, m.sectionInsets.left, m.sectionInsets.bottom, m.sectionInsets.right]
        }
        bits = values.map(\.bitPattern)
    }
}
