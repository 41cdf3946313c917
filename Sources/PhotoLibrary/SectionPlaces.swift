import Foundation
public import LibraryIndex
import Timeline
import WallClock

/// Names a section by where its photos were taken: up to three names, most photos first.
///
/// City names while a section has at most ``maximumNames`` cities; when it spans more, the names of
/// its regions, and when those are more too, of its countries. Built once from the day counts of a
/// library (or of a search result); each section's names are then a binary search away.
public struct SectionPlaces: Sendable {
    /// Names given at most.
    public static let maximumNames = 3

    private let counts: [DayPlaceCount]

    /// - Parameter counts: ordered by day, as `LibraryStore.placeCountsByDay` returns them.
    public init(_ counts: [DayPlaceCount]) {
        self.counts = counts
    }

    /// The names for the photos taken from day `start` to day `end` (`YYYY-MM-DD`, both included).
    ///
    /// - Complexity: O(log *d* + *p*) for *d* day counts, *p* of them in the range.
    public func names(from start: String, to end: String) -> [String] {
        var low = 0, high = counts.count
        while low < high {
            let middle = (low + high) / 2
            if counts[middle].day < start { low = middle + 1 } else { high = middle }
        }
        var inRange: [DayPlaceCount] = []
        var index = low
        while index < counts.count, counts[index].day <= end {
            inRange.append(counts[index])
            index += 1
        }
        return Self.names(inRange)
    }

    /// The names for these counts (of one section).
    static func names(_ counts: [DayPlaceCount]) -> [String] {
        for key in [\PhotoPlace.city, \PhotoPlace.region, \PhotoPlace.country] {
            var totals: [String: Int] = [:]
            var order: [String] = []
            for count in counts {
                guard let name = count.place[keyPath: key] else { continue }
                if totals[name] == nil { order.append(name) }
                totals[name, default: 0] += count.count
            }
            // Cities and regions name a section only when they are few; countries always do.
            guard !totals.isEmpty, totals.count <= maximumNames || key == \PhotoPlace.country else { continue }
            let first = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
            return totals.sorted { $0.value != $1.value ? $0.value > $1.value : first[$0.key]! < first[$1.key]! }
                .prefix(maximumNames).map(\.key)
        }
        return []
    }
}

extension SectionPlaces {
    /// The place names of the sections of `snapshot` (a search result, say), from the places of
    /// its photos held in memory rather than a query: the same names `LibraryStore.placeCountsByDay`
    /// would give.
    ///
    /// - Complexity: O(m) for the m photos of `snapshot`.
    public init(_ snapshot: TimelineSnapshot, places: PlacesByPhoto) {
        var counts: [DayPlaceCount] = []
        var day: (year: Int, month: Int, day: Int)?
        var dayCounts: [Int: Int] = [:]
        func flush() {
            guard let day, !dayCounts.isEmpty else { return }
            let text = String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            // In the order of the query's GROUP BY: city, region, country, code, absent names first.
            let ordered = dayCounts.sorted { a, b in
                let (x, y) = (places.places[a.key], places.places[b.key])
                for (l, r) in [(x.city, y.city), (x.region, y.region), (x.country, y.country), (x.countryCode, y.countryCode)] where l != r {
                    guard let l else { return true }
                    guard let r else { return false }
                    return l.utf8.lexicographicallyPrecedes(r.utf8)
                }
                return false
            }
            counts += ordered.map { DayPlaceCount(day: text, place: places.places[$0.key], count: $0.value) }
            dayCounts.removeAll(keepingCapacity: true)
        }
        for (position, photo) in snapshot.timeline.photos.enumerated() {
            let date = photo.captured
            if day == nil || day! != (date.year, date.month, date.day) {
                flush()
                day = (date.year, date.month, date.day)
            }
            if let index = places.placeIndex(ofPhoto: snapshot.id(ofPhoto: position)) { dayCounts[index, default: 0] += 1 }
        }
        flush()
        self.init(counts)
    }
}
