import GalleryLayout
import WallClock
public import LibraryIndex
public import Timeline
public import ZoomMapping
import PhotoMetadata

/// Answers `sections` and `zoom` from the tables the last index run persisted, reading only the
/// rows a question needs. Exists only when those tables hold the answer for the settings asked
/// for; every method returns `nil` for a question they cannot answer exactly (the caller then
/// builds a ``TimelineSnapshot``), so the answers are the snapshot's, byte for byte.
public struct StoredSections: Sendable {
    let store: LibraryStore
    let state: StoredTimelineState

    /// The persisted tables of `store`, or `nil` when they were computed with other settings,
    /// before the last run started, or never (a database indexed before them).
    public init?(store: LibraryStore, settings: TimelineSettings) throws(LibraryError) {
        do {
            guard let state = try store.storedTimeline(settingsKey: SectionTablePersister.key(settings)) else { return nil }
            self.store = store
            self.state = state
        } catch {
            throw LibraryError(error)
        }
    }

    /// Photos with no usable date, in no section.
    public var leftOut: Int { state.leftOut }

    private func sectionCount(_ level: TimelineLevel) -> Int {
        level == .coarse ? state.coarseItems.count : state.fineItems.count
    }

    /// The sections of `level`, or one of them, as ``TimelineSnapshot/reports(_:section:withPhotos:)``
    /// gives them; `nil` for every fine section's photos (that is every photo: the snapshot
    /// streams them no slower) or when the tables cannot say which rows a fine section holds.
    ///
    /// - Complexity: one row per section; with photos, one indexed lookup per shown coarse photo
    ///   or one range of rows for a fine section.
    public func reports(_ level: TimelineLevel, section: Int? = nil, withPhotos: Bool) throws(LibraryError) -> [SectionReport]? {
        let count = sectionCount(level)
        if let section, !(0..<count).contains(section) {
            throw LibraryError(.outOfRange, count == 0
                ? "There are no \(level) sections: the index is empty."
                : "Section \(section) is out of range: the \(level) level has sections 0–\(count - 1).")
        }
        if withPhotos && level == .fine && (section == nil || !state.isExact) { return nil }
        do {
            let sections = try store.storedSections(level: level.rawValue, index: section)
            guard sections.count == (section == nil ? count : 1) else { return nil }
            var photos: [Int: [SectionReport.Photo]] = [:]
            if withPhotos {
                let first = section ?? 0
                switch level {
                case .coarse:
                    let shown = try store.storedShown(section: section)
                    let moments = try store.moments(ids: shown.map(\.photo))
                    for entry in shown {
                        guard let moment = moments[entry.photo] else { return nil }
                        photos[entry.section, default: []].append(Self.photo(moment))
                    }
                case .fine:
                    let s = sections[0]
                    photos[first] = try store.moments(from: s.firstPhoto, offset: 0, count: s.count).map(Self.photo)
                }
            }
            var reports: [SectionReport] = []
            for (offset, s) in sections.enumerated() {
                let index = (section ?? 0) + offset
                let shown = withPhotos ? photos[index] ?? [] : nil
                if let shown, shown.count != s.shown { return nil }
                reports.append(SectionReport(
                    level: level, index: index, start: TimelineDay(daysSince2001: s.firstDay), end: TimelineDay(daysSince2001: s.lastDay),
                    count: s.count, shown: s.shown, fileDated: s.fileDated, photos: shown))
            }
            return reports
        } catch {
            throw LibraryError(error)
        }
    }

    /// Answers `request` as ``TimelineSnapshot/zoom(_:settings:)`` does, or `nil` when the tables
    /// cannot (a fine photo's row when positions are not rows).
    ///
    /// - Complexity: O(sections) to lay out the grids from the stored item counts; one coarse
    ///   section's sample (at most `sampleCap` rows) and at most one fine row.
    public func zoom(_ request: ZoomRequest, settings zoom: ZoomSettings) throws(LibraryError) -> ZoomJSON? {
        try request.validate()
        var settings = zoom
        if let viewport = request.viewport {
            settings.viewport.width = viewport.width
            settings.viewport.height = viewport.height
        }
        let grids: ZoomGrids
        do {
            grids = try ZoomGrids(coarseItems: state.coarseItems.map(Int.init), fineItems: state.fineItems.map(Int.init), settings: settings)
        } catch {
            throw LibraryError(.invalidSettings, sentence: error.message, underlyingError: error)
        }
        let indexPath: GridIndexPath
        do {
            switch request.anchor {
            case .item(let section, let item):
                indexPath = GridIndexPath(section: section, item: item)
            case .focalPoint(let x, let y):
                indexPath = try grids.pinchAnchor(
                    from: request.from, focalPoint: GridPoint(x: x ?? settings.viewport.width / 2, y: y), contentOffsetY: request.offset)
            }
            try grids.layout(request.from).validate(section: indexPath.section, item: indexPath.item)
        } catch {
            throw LibraryError(.outOfRange, sentence: error.message, underlyingError: error)
        }
        do {
            guard let lookup = try StoredZoomLookup(state: state, store: store, from: request.from, at: indexPath) else { return nil }
            let transition = try grids.zoom(from: request.from, at: indexPath, contentOffsetY: request.offset, photos: lookup)
            guard let path = lookup.paths[transition.sourcePhoto], let target = lookup.paths[transition.targetPhoto] else { return nil }
            return ZoomJSON(transition, path: path, targetPath: target, viewportHeight: settings.viewport.height)
        } catch let error as ZoomError {
            throw LibraryError(.outOfRange, sentence: error.message, underlyingError: error)
        } catch let error as IndexError {
            throw LibraryError(error)
        } catch {
            throw LibraryError(.invalidRequest, "\(error)")
        }
    }

    static func photo(_ moment: PhotoMoment) -> SectionReport.Photo {
        SectionReport.Photo(path: moment.path, captured: moment.captured.timelineDateTime, source: moment.source, pathBytes: moment.pathBytes)
    }
}

/// The photos one zoom touches, read from the persisted tables: the coarse section involved
/// (its sample, with capture times and paths) and, from the fine level, the tapped photo.
struct StoredZoomLookup: ZoomPhotoLookup {
    /// `fineStarts[s]` is the position of fine section `s`'s first photo; the last entry is the total.
    let fineStarts: [Int]
    /// The coarse section the zoom goes to or comes from, and its shown positions.
    let coarseSection: Int
    let shown: [Int]
    var captureMilliseconds: [Int: Int64] = [:]
    var paths: [Int: String] = [:]

    init?(state: StoredTimelineState, store: LibraryStore, from level: TimelineLevel, at indexPath: GridIndexPath) throws {
        var starts = [Int]()
        starts.reserveCapacity(state.fineItems.count + 1)
        var total = 0
        starts.append(0)
        for count in state.fineItems {
            total += Int(count)
            starts.append(total)
        }
        fineStarts = starts
        let fineSection = level == .fine ? indexPath.section : nil
        coarseSection = fineSection.map { Self.coarseSection(ofFine: $0, firstFine: state.coarseFirstFine) } ?? indexPath.section
        let sample = try store.storedShown(section: coarseSection)
        shown = sample.map(\.position)
        let moments = try store.moments(ids: sample.map(\.photo))
        for entry in sample {
            guard let moment = moments[entry.photo], let ms = moment.captured.timelineDateTime.millisecondsSince2001 else { return nil }
            captureMilliseconds[entry.position] = ms
            paths[entry.position] = moment.path
        }
        if let fineSection {
            // The tapped fine photo is row `item` from its section's first: only when positions are rows.
            guard state.isExact,
                  let first = try store.storedSections(level: TimelineLevel.fine.rawValue, index: fineSection).first,
                  let moment = try store.moments(from: first.firstPhoto, offset: indexPath.item, count: 1).first,
                  let ms = moment.captured.timelineDateTime.millisecondsSince2001
            else { return nil }
            let position = starts[fineSection] + indexPath.item
            captureMilliseconds[position] = ms
            paths[position] = moment.path
        }
    }

    /// The coarse section whose fine sections include `fine`: the last whose first is at or before it.
    static func coarseSection(ofFine fine: Int, firstFine: [Int32]) -> Int {
        max(0, firstFine.partitionPoint { Int($0) > fine } - 1)
    }

    /// The fine section holding `photo`: the last whose start is at or before it.
    func fineSection(of photo: Int) -> Int {
        max(0, fineStarts.dropLast().partitionPoint { $0 > photo } - 1)
    }

    func shownPhoto(at indexPath: GridIndexPath, in level: TimelineLevel) -> Int {
        level == .coarse ? shown[indexPath.item] : fineStarts[indexPath.section] + indexPath.item
    }

    func landing(of photo: Int, in level: TimelineLevel) -> (GridIndexPath, Int) {
        let fine = fineSection(of: photo)
        switch level {
        case .fine:
            return (GridIndexPath(section: fine, item: photo - fineStarts[fine]), photo)
        case .coarse:
            if let item = shown.firstIndex(of: photo) { return (GridIndexPath(section: coarseSection, item: item), photo) }
            let nearest = ZoomGrids.nearestShownItem(to: photo, shown: shown) { captureMilliseconds[$0] ?? 0 }
            return (GridIndexPath(section: coarseSection, item: nearest), shown[nearest])
        }
    }
}

extension LocalDateTime {
    /// The same wall-clock time as the timeline holds it.
    var timelineDateTime: LocalDateTime {
        LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }
}
