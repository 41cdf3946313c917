import GalleryLayout
import WallClock
import Foundation
import SeededRandom
import Testing
import Timeline
import ZoomMapping

/// A random library: bursts of days with gaps, few photos on most days and many on some.
func randomLibrary(using rng: inout SplitMix64, maxPhotos: Int = 1200) -> [TimelinePhoto] {
    var photos: [TimelinePhoto] = []
    var day = Int.random(in: 0...8000, using: &rng)
    let target = Int.random(in: 1...maxPhotos, using: &rng)
    while photos.count < target {
        let perDay = Bool.random(using: &rng) ? Int.random(in: 1...8, using: &rng) : Int.random(in: 8...150, using: &rng)
        for _ in 0..<perDay {
            // Whole minutes: some photos share a capture time.
            let minute = Int.random(in: 0..<1440, using: &rng)
            let (y, m, d) = TimelineDay(daysSince2001: day).components
            photos.append(TimelinePhoto(
                path: "p/\(day)/\(photos.count).jpg",
                captured: LocalDateTime(year: y, month: m, day: d, hour: minute / 60, minute: minute % 60)))
        }
        day += Bool.random(using: &rng) ? 1 : Int.random(in: 2...40, using: &rng)
    }
    return photos
}

/// Random but valid zoom settings: viewport, insets, spacing and columns vary.
func randomZoomSettings(using rng: inout SplitMix64) -> ZoomSettings {
    guard Int.random(in: 0..<4, using: &rng) != 0 else { return ZoomSettings() }
    func insets() -> SectionInsets {
        Bool.random(using: &rng)
            ? SectionInsets()
            : SectionInsets(top: 4, left: 2, bottom: 6, right: 3)
    }
    return ZoomSettings(
        coarse: GridMetrics(
            columns: Int.random(in: 5...12, using: &rng), itemSpacing: [0, 1].randomElement(using: &rng)!,
            lineSpacing: [0, 2].randomElement(using: &rng)!, headerHeight: [50, 30].randomElement(using: &rng)!,
            sectionInsets: insets()),
        fine: GridMetrics(
            columns: Int.random(in: 2...6, using: &rng), itemSpacing: 1.5, lineSpacing: [1.5, 4].randomElement(using: &rng)!,
            headerHeight: 50, sectionInsets: insets()),
        contentInsets: ContentInsets(top: [0, 64, 91].randomElement(using: &rng)!, bottom: [0, 34].randomElement(using: &rng)!),
        viewport: ViewportSize(
            width: Double(Int.random(in: 320...1024, using: &rng)), height: Double(Int.random(in: 400...1400, using: &rng))))
}

/// A random library with its map.
func randomMap(seed: UInt64) throws -> (map: ZoomMap, rng: SplitMix64) {
    var rng = SplitMix64(seed: seed)
    let settings = TimelineSettings(
        fine: FineSettings(mergeLimit: [12, 40].randomElement(using: &rng)!),
        coarse: CoarseSettings(
            spanDays: [14, 7, 30].randomElement(using: &rng)!,
            sampling: Int.random(in: 0..<4, using: &rng) == 0 ? .stride : .stable, seed: rng.next()))
    let timeline = try PhotoTimeline(photos: randomLibrary(using: &rng), settings: settings)
    return (try ZoomMap(timeline: timeline, settings: randomZoomSettings(using: &rng)), rng)
}

/// A random valid index path of `layout`.
func randomIndexPath(_ layout: GridLayout, using rng: inout SplitMix64) -> GridIndexPath {
    let section = Int.random(in: 0..<layout.sectionCount, using: &rng)
    return GridIndexPath(section: section, item: Int.random(in: 0..<layout.sectionCounts[section], using: &rng))
}

func exists(_ path: LevelIndexPath, in map: ZoomMap) -> Bool {
    let layout = map.layout(path.level)
    return layout.sectionCounts.indices.contains(path.section)
        && (0..<layout.sectionCounts[path.section]).contains(path.item)
}

func close(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

let propertySeeds: [UInt64] = Array(1...40)

/// The vectors of one behaviour from `../shared/seed-layouts/vectors.json`; cancels the test when absent.
func seedVectors(behaviour: String, filePath: String = #filePath) throws -> [SeedVector] {
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("../shared/seed-layouts/vectors.json").standardizedFileURL
    guard let data = try? Data(contentsOf: url) else {
        try Test.cancel("vectors.json not found at \(url.path); skipping the MiniPhotos vectors")
    }
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let vectors = try #require(object["vectors"] as? [[String: Any]])
    return try vectors.filter { $0["behaviour"] as? String == behaviour }.map { try SeedVector($0) }
}

struct SeedVector {
    let id: String
    let input: [String: Any]
    let expected: [String: Any]
    let tolerance: Double

    init(_ object: [String: Any]) throws {
        id = try #require(object["id"] as? String)
        input = try #require(object["input"] as? [String: Any])
        expected = try #require(object["expected"] as? [String: Any])
        tolerance = object["tolerance"] as? Double ?? 1e-9
    }

    func double(_ key: String, in dictionary: [String: Any]? = nil) throws -> Double {
        try #require((dictionary ?? input)[key] as? Double, "\(id): \(key)")
    }

    func int(_ key: String) throws -> Int {
        try #require(input[key] as? Int, "\(id): \(key)")
    }

    func ints(_ key: String) throws -> [Int] {
        try #require(input[key] as? [Int], "\(id): \(key)")
    }
}
