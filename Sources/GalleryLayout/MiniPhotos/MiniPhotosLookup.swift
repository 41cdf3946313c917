/// Look-ups MiniPhotos performs when moving between its grids.
public enum MiniPhotosLookup {
    /// The indices of the dates within `start...end` (inclusive), in order; `nil` dates are
    /// skipped.
    ///
    /// An empty result when `start > end`.
    public static func members<Stamp: Comparable>(of dates: [Stamp?], from start: Stamp, through end: Stamp) -> [Int] {
        dates.indices.filter { index in
            guard let date = dates[index] else { return false }
            return start <= date && date <= end
        }
    }

    /// The first position of `id` in `groups`, section by section; `nil` when absent.
    public static func indexPath<ID: Equatable>(of id: ID, in groups: [[ID]]) -> GridIndexPath? {
        for (section, group) in groups.enumerated() {
            if let item = group.firstIndex(of: id) {
                return GridIndexPath(section: section, item: item)
            }
        }
        return nil
    }

    /// The index of the asset to show for `target`: the first with the same id, otherwise the
    /// first dated strictly later; `nil` when neither exists or the target has no date.
    ///
    /// - Parameters:
    ///   - ids: the assets' ids, in order.
    ///   - dates: the assets' dates, parallel to `ids`.
    public static func nearestIndex<ID: Equatable, Stamp: Comparable>(
        ofID targetID: ID,
        date targetDate: Stamp?,
        ids: [ID],
        dates: [Stamp?]
    ) -> Int? {
        if let index = ids.firstIndex(of: targetID) {
            return index
        }
        guard let targetDate else { return nil }
        return dates.firstIndex { date in
            guard let date else { return false }
            return date > targetDate
        }
    }
}
