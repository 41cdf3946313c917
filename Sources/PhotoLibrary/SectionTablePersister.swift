public import LibraryIndex
public import Timeline
import Foundation

/// Computes the section tables an index run persists, grouping exactly as ``TimelineSnapshot``
/// does (it builds one), with the settings `sections` and `zoom` use unless told otherwise.
public struct SectionTablePersister: TimelinePersisting {
    public let settings: TimelineSettings

    public init(settings: TimelineSettings) {
        self.settings = settings
    }

    public var settingsKey: String { Self.key(settings) }

    /// `settings` as compact JSON with sorted keys: equal settings, equal text.
    static func key(_ settings: TimelineSettings) -> String {
        (try? ContractJSON.encode(settings, compact: true)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    public func tables(forEachMoment: ((PhotoMoment) throws -> Void) throws -> Void) throws -> StoredTimeline {
        let snapshot = try TimelineSnapshot(capacity: 0, runID: nil, settings: settings, forEachMoment: forEachMoment)
        let timeline = snapshot.timeline
        func fileDated(_ positions: some Sequence<Int>) -> Int {
            positions.reduce(0) { $0 + (timeline.photos[$1].dateOrigin == .fileModified ? 1 : 0) }
        }
        let coarse = timeline.coarseSections.map { s in
            StoredSection(
                firstDay: s.firstDay.daysSince2001, lastDay: s.lastDay.daysSince2001, start: s.photoRange.lowerBound,
                count: s.count, shown: s.shown.count, fileDated: fileDated(s.shown),
                firstPhoto: snapshot.id(ofPhoto: s.photoRange.lowerBound), link: s.fineSections.lowerBound)
        }
        let fine = timeline.fineSections.map { s in
            StoredSection(
                firstDay: s.firstDay.daysSince2001, lastDay: s.lastDay.daysSince2001, start: s.photoRange.lowerBound,
                count: s.count, shown: s.count, fileDated: fileDated(s.photoRange),
                firstPhoto: snapshot.id(ofPhoto: s.photoRange.lowerBound), link: s.coarseSection)
        }
        let shown = timeline.coarseSections.enumerated().flatMap { index, s in
            s.shown.enumerated().map { item, position in
                StoredShownPhoto(section: index, item: item, position: position, photo: snapshot.id(ofPhoto: position))
            }
        }
        // Rows with no usable date are rows of the moment query but no position: positions are rows only without them.
        return StoredTimeline(leftOut: snapshot.leftOut, isExact: timeline.inputWasSorted && snapshot.leftOut == 0, coarse: coarse, fine: fine, shown: shown)
    }
}
