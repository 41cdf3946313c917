import ArgumentParser
import LibraryIndex
import PhotoMetadata
import Timeline

/// The photos of a database, grouped into sections: one indexed query, then the pure timeline.
struct LibraryTimeline {
    let timeline: PhotoTimeline
    /// Photos left out because their stored date is not a calendar date.
    let leftOut: Int
    /// Where each photo's date came from, by position in `timeline.photos`.
    private let sources: [DateSource]
    /// Fallback when the timeline had to reorder its input (it never does for rows in index order).
    private let sourcesByPath: [String: DateSource]?

    init(store: LibraryStore, settings: TimelineSettings) throws {
        let count = try store.photoCount()
        var photos: [TimelinePhoto] = []
        photos.reserveCapacity(count)
        var sources: [DateSource] = []
        sources.reserveCapacity(count)
        var leftOut = 0
        try store.forEachMoment { moment in
            let c = moment.captured
            let captured = TimelineDateTime(
                year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second,
                millisecond: c.millisecond)
            guard captured.isValid else {
                leftOut += 1
                return
            }
            photos.append(TimelinePhoto(path: moment.path, captured: captured, isFromModificationTime: moment.source == .fileModified))
            sources.append(moment.source)
        }
        let input = photos
        do {
            timeline = try PhotoTimeline(photos: photos, settings: settings)
        } catch {
            throw CLIError(sentence: error.message)
        }
        self.leftOut = leftOut
        self.sources = sources
        sourcesByPath = timeline.inputWasSorted ? nil
            : Dictionary(zip(input.map(\.path), sources), uniquingKeysWith: { first, _ in first })
    }

    /// Where the date of the photo at `position` in `timeline.photos` came from.
    func source(ofPhoto position: Int) -> DateSource {
        if let sourcesByPath { return sourcesByPath[timeline.photos[position].path] ?? .fileModified }
        return sources[position]
    }
}

/// `--level` / `--from`: coarse or fine.
enum LevelArgument: String, ExpressibleByArgument, CaseIterable {
    case coarse
    case fine

    var level: TimelineLevel { self == .coarse ? .coarse : .fine }
}
