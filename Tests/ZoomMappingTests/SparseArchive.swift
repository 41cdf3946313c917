import GalleryLayout
import PhotoFixtures
import SeededRandom
import Timeline
import WallClock
import ZoomMapping

/// The family archive of ``FamilyArchive`` (25 years, about 1,900 photos) as timeline photos.
func sparseArchive(seed: UInt64) -> [TimelinePhoto] {
    FamilyArchive.captures(seed: seed).enumerated().map { n, captured in
        TimelinePhoto(path: "\(captured.year)/\(captured.month)-\(captured.day)/IMG_\(n).JPG", captured: captured)
    }
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
