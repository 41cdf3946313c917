import ArgumentParser
import LibraryIndex
import PhotoMetadata
import Timeline

/// The photos of a database, grouped into sections: one indexed query, then the pure timeline.
struct LibraryTimeline {
    let timeline: PhotoTimeline
    /// Where each photo's date came from, by path (for JSON output).
    let sources: [String: DateSource]
    /// Photos left out because their stored date is not a calendar date.
    let leftOut: Int

    init(store: LibraryStore, settings: TimelineSettings) throws {
        let moments = try store.moments()
        var photos: [TimelinePhoto] = []
        photos.reserveCapacity(moments.count)
        var sources: [String: DateSource] = [:]
        sources.reserveCapacity(moments.count)
        var leftOut = 0
        for moment in moments {
            let c = moment.captured
            let captured = TimelineDateTime(
                year: c.year, month: c.month, day: c.day, hour: c.hour, minute: c.minute, second: c.second,
                millisecond: c.millisecond)
            guard captured.isValid else {
                leftOut += 1
                continue
            }
            let path = moment.path.string
            photos.append(TimelinePhoto(path: path, captured: captured, isFromModificationTime: moment.source == .fileModified))
            sources[path] = moment.source
        }
        do {
            timeline = try PhotoTimeline(photos: photos, settings: settings)
        } catch {
            throw CLIError(error.message)
        }
        self.sources = sources
        self.leftOut = leftOut
    }
}

/// `--level` / `--from`: coarse or fine.
enum LevelArgument: String, ExpressibleByArgument, CaseIterable {
    case coarse
    case fine

    var level: TimelineLevel { self == .coarse ? .coarse : .fine }
}
