import GalleryLayout
import WallClock
// Times the timeline and zoom map on a deterministic 1,000,000-photo library.
// Run: swift run -c release TimelineBenchmark [photoCount]
// Only the packed layouts (issue 31's ≤ 50 ms for ≥ 100,000 sections): swift run -c release TimelineBenchmark --packing
// Or, on an indexed library (e.g. one written by make-library), the read commands beside sqlite3:
//      swift build -c release --product shoebox && swift run -c release TimelineBenchmark --db FILE

import Foundation
import SeededRandom
import Timeline
import ZoomMapping

/// A library that looks like a family's: quiet stretches with a few photos on some days,
/// trips and events of several days with hundreds a day, and gaps of weeks.
func makeLibrary(count: Int, rng: inout SplitMix64) -> [TimelinePhoto] {
    var photos: [TimelinePhoto] = []
    photos.reserveCapacity(count)
    var day = TimelineDay(year: 2004, month: 6, day: 1)!.daysSince2001
    var tripDaysLeft = 0
    while photos.count < count {
        let perDay: Int
        if tripDaysLeft > 0 {
            tripDaysLeft -= 1
            perDay = Int.random(in: 40...400, using: &rng)
        } else if Int.random(in: 0..<40, using: &rng) == 0 {
            tripDaysLeft = Int.random(in: 2...14, using: &rng)
            perDay = Int.random(in: 20...200, using: &rng)
        } else if Int.random(in: 0..<10, using: &rng) < 4 {
            perDay = Int.random(in: 1...25, using: &rng)
        } else {
            perDay = 0
        }
        if perDay > 0 {
            let (y, m, d) = TimelineDay(daysSince2001: day).components
            let folder = "\(y)/\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)/"
            for _ in 0..<min(perDay, count - photos.count) {
                let second = Int.random(in: 6 * 3600..<86_400, using: &rng)
                let hasMilliseconds = Bool.random(using: &rng)
                photos.append(TimelinePhoto(
                    path: folder + "IMG_\(photos.count).JPG",
                    captured: LocalDateTime(
                        year: y, month: m, day: d, hour: second / 3600, minute: second / 60 % 60, second: second % 60,
                        millisecond: hasMilliseconds ? Int.random(in: 0..<1000, using: &rng) : nil),
                    dateOrigin: Int.random(in: 0..<50, using: &rng) == 0 ? .fileModified : .recorded))
            }
        }
        day += tripDaysLeft > 0 ? 1 : (Int.random(in: 0..<20, using: &rng) == 0 ? Int.random(in: 7...60, using: &rng) : 1)
    }
    return photos
}

/// Runs `body` `runs` times and prints the fastest and the slowest run; returns the last value.
func measure<T>(_ label: String, runs: Int = 1, _ body: () throws -> T) rethrows -> (T, Duration) {
    let clock = ContinuousClock()
    var times: [Duration] = []
    var value: T?
    for _ in 0..<runs {
        value = nil
        let start = clock.now
        value = try body()
        times.append(clock.now - start)
    }
    let line = label.padding(toLength: 50, withPad: " ", startingAt: 0) + format(times.min()!)
    print(runs > 1 ? line + "   (slowest of \(runs): \(format(times.max()!).trimmingCharacters(in: .whitespaces)))" : line)
    return (value!, times.min()!)
}

func format(_ d: Duration) -> String {
    let ms = Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15
    return String(format: "%9.1f ms", ms)
}

func nanoseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) / 1e9
}

func peakMemory() -> String {
    status("VmHWM")
}

/// A field of /proc/self/status, in MB.
func status(_ field: String) -> String {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let kB = Int(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).dropLast(3))
    else { return "n/a" }
    return String(format: "%.0f MB", Double(kB) / 1024)
}

func printMemory(_ label: String) {
    print(label.padding(toLength: 50, withPad: " ", startingAt: 0) + "peak \(peakMemory()), now \(status("VmRSS"))")
}

if CommandLine.arguments.contains("--db") {
    try runCommandBenchmark(Array(CommandLine.arguments.dropFirst()))
    exit(0)
}

let count = CommandLine.arguments.dropFirst().lazy.compactMap { Int($0) }.first ?? 1_000_000
var rng = SplitMix64(seed: 2001)

print("TimelineBenchmark: \(count) photos (times: fastest run)")
// Generated day by day with random times in each day; put in capture order once, as rows
// loaded with ORDER BY would be.
let (sorted, _) = try measure("generate library (not part of the API)") {
    try PhotoTimeline(photos: makeLibrary(count: count, rng: &rng)).photos
}
printMemory("memory with the input rows loaded")
print()

// The CLI's path: rows loaded already in capture order (ORDER BY captured, path).
let settings = TimelineSettings()
let (prepared, _) = try measure("input prep, pre-sorted (keys + order check)", runs: 5) {
    try PhotoTimeline.captureOrdered(sorted)
}
let (days, _) = measure("day runs", runs: 5) { PhotoTimeline.dayRuns(keys: prepared.keys, dayStartHour: 0) }
_ = measure("fine + coarse sections with sampling", runs: 5) {
    PhotoTimeline.sections(days: days, photos: prepared.photos, settings: settings)
}
let (timeline, _) = try measure("PhotoTimeline.init, pre-sorted input (total)", runs: 5) {
    try PhotoTimeline(photos: sorted, settings: settings)
}
precondition(timeline.inputWasSorted && prepared.wasSorted)
let (map, _) = try measure("ZoomMap.init", runs: 5) { try ZoomMap(timeline: timeline) }
printMemory("memory with timeline and zoom map built")
print(
    "  \(timeline.fineSections.count) fine sections, \(timeline.coarseSections.count) coarse sections, "
        + "\(timeline.coarseSections.reduce(0) { $0 + $1.shown.count }) photos shown at the coarse level")
print("  content height: coarse \(Int(map.coarse.contentHeight)) pt, fine \(Int(map.fine.contentHeight)) pt")
print()

// The packing function: counts and groups are its input (the viewer gets them from /api/sections).
for level in [PackedLevel.fine, .coarse] {
    let counts = level == .fine ? timeline.fineSections.map(\.count) : timeline.coarseSections.map(\.shown.count)
    let groups = level == .fine
        ? timeline.fineSections.map { PackedLayout.group(.fine, firstDay: $0.firstDay.components) }
        : timeline.coarseSections.map { PackedLayout.group(.coarse, firstDay: $0.firstDay.components) }
    for width in [390.0, 1440] {
        let (layout, _) = try measure("PackedLayout \(level), \(Int(width)) wide, \(counts.count) sections", runs: 10) {
            try PackedLayout(level: level, counts: counts, groups: groups, width: width)
        }
        print("  \(layout.columns) columns, \(layout.lineCount) lines, content height \(Int(layout.contentHeight)) pt")
    }
}
// A denser split: the same million photos in at least 100,000 sections of 1–19 photos.
var denseCounts: [Int] = []
var denseGroups: [Int] = []
var left = count
while left > 0 {
    let n = min(left, Int.random(in: 1...19, using: &rng))
    denseCounts.append(n)
    denseGroups.append(denseCounts.count / 30)
    left -= n
}
for width in [390.0, 1440] {
    _ = try measure("PackedLayout fine, \(Int(width)) wide, \(denseCounts.count) sections", runs: 10) {
        try PackedLayout(level: .fine, counts: denseCounts, groups: denseGroups, width: width)
    }
}
_ = try measure("PackedZoomMap.init, 1440×900 (years + 3 layouts)", runs: 5) {
    try PackedZoomMap(timeline: timeline, viewport: ViewportSize(width: 1440, height: 900), today: TimelineDay(year: 2026, month: 11, day: 27)!)
}
print()
if CommandLine.arguments.contains("--packing") { exit(0) }

// Queries: inputs drawn beforehand so only the map is timed.
let queries = 1_000_000
var coarsePaths: [GridIndexPath] = []
var finePaths: [GridIndexPath] = []
var offsets: [Double] = []
var focals: [GridPoint] = []
for _ in 0..<queries {
    let c = Int.random(in: 0..<map.coarse.sectionCount, using: &rng)
    coarsePaths.append(GridIndexPath(section: c, item: Int.random(in: 0..<map.coarse.sectionCounts[c], using: &rng)))
    let f = Int.random(in: 0..<map.fine.sectionCount, using: &rng)
    finePaths.append(GridIndexPath(section: f, item: Int.random(in: 0..<map.fine.sectionCounts[f], using: &rng)))
    offsets.append(Double.random(in: 0..<1, using: &rng))
    focals.append(GridPoint(x: Double.random(in: 0..<390, using: &rng), y: Double.random(in: 0..<844, using: &rng)))
}

var checksum = 0.0
for (label, level, kind) in [
    ("zoom in  (coarse → fine)", TimelineLevel.coarse, 0), ("zoom out (fine → coarse)", .fine, 0),
    ("pinch from coarse", .coarse, 1), ("pinch from fine", .fine, 1),
] {
    let range = map.scrollRange(level)
    let (_, elapsed) = try measure("\(queries) × \(label)", runs: 3) {
        for i in 0..<queries {
            let offset = range.lowerBound + offsets[i] * (range.upperBound - range.lowerBound)
            let t = kind == 0
                ? try map.zoom(from: level, at: level == .coarse ? coarsePaths[i] : finePaths[i], contentOffsetY: offset)
                : try map.pinch(from: level, focalPoint: focals[i], contentOffsetY: offset)
            checksum += t.contentOffsetY + Double(t.to.item)
        }
    }
    print("  → \(String(format: "%.0f", nanoseconds(elapsed) / Double(queries))) ns/query")
}
print()

// Unsorted input: a fresh shuffled copy each run, handed over so it is reordered in place.
var shuffledRuns: [[TimelinePhoto]] = (0..<3).map { _ in sorted.shuffled(using: &rng) }
_ = try measure("input prep, shuffled (keys + sort + reorder)", runs: 3) {
    try PhotoTimeline.captureOrdered(shuffledRuns.removeLast()).wasSorted
}
shuffledRuns = (0..<3).map { _ in sorted.shuffled(using: &rng) }
_ = try measure("PhotoTimeline.init, shuffled input (total)", runs: 3) {
    try PhotoTimeline(photos: shuffledRuns.removeLast(), settings: settings).fineSections.count
}
let strideTimeline = try PhotoTimeline(photos: sorted, settings: TimelineSettings(coarse: CoarseSettings(sampling: .stride)))
print("  stride sampling shows \(strideTimeline.coarseSections.reduce(0) { $0 + $1.shown.count }) photos")
print()
print("checksum \(checksum)")
printMemory("memory at the end")
