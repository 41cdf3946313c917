import GalleryLayout
import SeededRandom
import Timeline
import WallClock
import ZoomMapping

/// A family archive of 25 years (2001–2025), about 1,900 photos: ten early years of 4–9 lone
/// days of 1–2 photos each, then fifteen years growing denser (10 days a year rising to 38, most
/// days 1–5 photos, one in five an event of 6–20).
func sparseArchive(seed: UInt64) -> [TimelinePhoto] {
    var rng = SplitMix64(seed: seed)
    var photos: [TimelinePhoto] = []
    for (index, year) in (2001...2025).enumerated() {
        let dayCount = index < 10 ? Int.random(in: 4...9, using: &rng) : 10 + 2 * (index - 10)
        let first = TimelineDay(year: year, month: 1, day: 1)!.daysSince2001
        let last = TimelineDay(year: year, month: 12, day: 31)!.daysSince2001
        var days = Set<Int>()
        while days.count < dayCount { days.insert(Int.random(in: first...last, using: &rng)) }
        for day in days.sorted() {
            let count = index < 10
                ? Int.random(in: 1...2, using: &rng)
                : (Int.random(in: 0..<5, using: &rng) == 0 ? Int.random(in: 6...20, using: &rng) : Int.random(in: 1...5, using: &rng))
            let (y, m, d) = TimelineDay(daysSince2001: day).components
            for n in 0..<count {
                let minute = 9 * 60 + n * 7
                photos.append(TimelinePhoto(
                    path: "\(y)/\(day)/IMG_\(photos.count).JPG",
                    captured: LocalDateTime(year: y, month: m, day: d, hour: minute / 60, minute: minute % 60)))
            }
        }
    }
    return photos
}

/// What a person scrolling a packed level sees, screen by screen.
struct ScreenCoverage {
    /// Photos' share of each screen, top to bottom: screen `k` is `[k·H, (k + 1)·H)`, the last one
    /// ending at the content's bottom.
    var shares: [Double]
    /// Content height over viewport height.
    var screens: Double

    init(_ layout: PackedLayout, viewportHeight h: Double) {
        let w = layout.width
        let total = layout.contentHeight
        let count = max(1, Int((total / h).rounded(.up)))
        let tops = (0..<count).map { k in min(Double(k) * h, max(0, total - h)) }
        var area = [Double](repeating: 0, count: count)
        for section in 0..<layout.sectionCount {
            let block = try! layout.block(section)
            let n = layout.sectionCounts[section]
            for row in 0..<block.rows {
                let inRow = min(block.columns, n - row * block.columns)
                let y0 = block.frame.minY + Double(row) * layout.pitch
                let y1 = y0 + layout.cellSide
                for (k, top) in tops.enumerated() {
                    let overlap = min(y1, top + h) - max(y0, top)
                    if overlap > 0 { area[k] += Double(inRow) * layout.cellSide * overlap }
                }
            }
        }
        shares = area.map { $0 / (w * h) }
        screens = total / h
    }

    func percentile(_ p: Double) -> Double {
        let sorted = shares.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
    }
    var median: Double { percentile(0.5) }
    var p10: Double { percentile(0.1) }
}
