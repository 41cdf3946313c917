import GalleryLayout
import SeededRandom
import Testing
import Timeline
import ZoomMapping

@Suite("Grid layout")
struct GridLayoutTests {
    /// 4 columns of 25 pt: width 122 − insets 10 + 6 − 3 gaps of 2 = 100.
    static let metrics = GridMetrics(
        columns: 4, itemSpacing: 2, lineSpacing: 4, headerHeight: 20,
        sectionInsets: SectionInsets(top: 5, left: 10, bottom: 7, right: 6))
    let layout = GridLayout(level: .fine, sectionCounts: [5, 0, 4], metrics: GridLayoutTests.metrics, viewportWidth: 122)

    @Test("hand-computed frames and heights with insets, spacing and an empty section")
    func frames() throws {
        #expect(layout.cellSide == 25)
        // Section heights: 20 + 5 + (2·25 + 4) + 7 = 86; 20 + 5 + 7 = 32; 20 + 5 + 25 + 7 = 57.
        #expect(layout.contentHeight == 175)
        #expect([0, 1, 2, 3].map(layout.sectionTop) == [0, 86, 118, 175])
        #expect(try layout.frame(section: 0, item: 0) == GridRect(minX: 10, minY: 25, width: 25, height: 25))
        #expect(try layout.frame(section: 0, item: 3) == GridRect(minX: 91, minY: 25, width: 25, height: 25))
        #expect(try layout.frame(section: 0, item: 4) == GridRect(minX: 10, minY: 54, width: 25, height: 25))
        #expect(try layout.frame(section: 2, item: 1) == GridRect(minX: 37, minY: 143, width: 25, height: 25))
        #expect(try layout.headerFrame(section: 2) == GridRect(minX: 0, minY: 118, width: 122, height: 20))
    }

    @Test("index path at a point: cells only")
    func hitTesting() {
        #expect(layout.indexPath(at: GridPoint(x: 12, y: 30)) == GridIndexPath(section: 0, item: 0))
        #expect(layout.indexPath(at: GridPoint(x: 36, y: 30)) == nil, "gap between columns")
        #expect(layout.indexPath(at: GridPoint(x: 50, y: 60)) == nil, "empty place in a partial row")
        #expect(layout.indexPath(at: GridPoint(x: 5, y: 30)) == nil, "left inset")
        #expect(layout.indexPath(at: GridPoint(x: 20, y: 10)) == nil, "header")
        #expect(layout.indexPath(at: GridPoint(x: 20, y: 52)) == nil, "line gap")
        #expect(layout.indexPath(at: GridPoint(x: 61.9, y: 167.9)) == GridIndexPath(section: 2, item: 1))
        #expect(layout.indexPath(at: GridPoint(x: 20, y: -1)) == nil)
        #expect(layout.indexPath(at: GridPoint(x: .infinity, y: .nan)) == nil)
    }

    @Test("nearest index path: partial rows, headers, empty sections")
    func nearest() {
        // Beyond the partial row, level with it: its last cell, though item 1 above is closer in a straight line.
        #expect(layout.nearestIndexPath(to: GridPoint(x: 50, y: 60)) == GridIndexPath(section: 0, item: 4))
        // In the line gap, 1 pt under row 0 and 3 pt above row 1.
        #expect(layout.nearestIndexPath(to: GridPoint(x: 100, y: 51)) == GridIndexPath(section: 0, item: 3))
        #expect(layout.nearestIndexPath(to: GridPoint(x: 100, y: 53)) == GridIndexPath(section: 0, item: 4))
        // Exactly between rows (2 pt each): the earlier row.
        #expect(layout.nearestIndexPath(to: GridPoint(x: 50, y: 52)) == GridIndexPath(section: 0, item: 1))
        // In the empty section: the previous section's last row (21 pt) beats the next one's first (43 pt).
        #expect(layout.nearestIndexPath(to: GridPoint(x: 20, y: 100)) == GridIndexPath(section: 0, item: 4))
        // In section 2's header: its first row (13 pt) beats section 0 (51 pt).
        #expect(layout.nearestIndexPath(to: GridPoint(x: 20, y: 130)) == GridIndexPath(section: 2, item: 0))
        #expect(layout.nearestIndexPath(to: GridPoint(x: -500, y: -500)) == GridIndexPath(section: 0, item: 0))
        #expect(layout.nearestIndexPath(to: GridPoint(x: 500, y: 5000)) == GridIndexPath(section: 2, item: 3))
        // Exactly between two cells (1 pt from each): the earlier wins.
        #expect(layout.nearestIndexPath(to: GridPoint(x: 36, y: 30)) == GridIndexPath(section: 0, item: 0))
        let empty = GridLayout(level: .coarse, sectionCounts: [], metrics: .coarse, viewportWidth: 390)
        #expect(empty.nearestIndexPath(to: GridPoint(x: 0, y: 0)) == nil)
        #expect(empty.contentHeight == 0)
    }

    @Test("visible index paths")
    func visible() {
        #expect(layout.visibleIndexPaths(contentOffsetY: 60, viewportHeight: 70) == [GridIndexPath(section: 0, item: 4)])
        #expect(layout.visibleIndexPaths(contentOffsetY: 0, viewportHeight: 26).map(\.item) == [0, 1, 2, 3])
        #expect(layout.visibleIndexPaths(contentOffsetY: 50, viewportHeight: 4) == [], "only the line gap")
        #expect(layout.visibleIndexPaths(contentOffsetY: -64, viewportHeight: 1000).count == 9)
        #expect(layout.visibleIndexPaths(contentOffsetY: 175, viewportHeight: 100) == [])
    }

    @Test("out-of-range errors name the valid range")
    func errors() {
        let coarse = GridLayout(level: .coarse, sectionCounts: Array(repeating: 5, count: 10), metrics: .coarse, viewportWidth: 390)
        #expect(message { try coarse.frame(section: 12, item: 0) } == "section 12 is out of range: the coarse level has sections 0–9")
        #expect(message { try coarse.frame(section: -1, item: 0) } == "section -1 is out of range: the coarse level has sections 0–9")
        #expect(message { try coarse.frame(section: 3, item: 5) } == "item 5 is out of range: section 3 of the coarse level has items 0–4")
        #expect(message { try layout.frame(section: 1, item: 0) } == "item 0 is out of range: section 1 of the fine level has no items")
        let none = GridLayout(level: .fine, sectionCounts: [], metrics: .fine, viewportWidth: 390)
        #expect(message { try none.frame(section: 0, item: 0) } == "section 0 is out of range: the fine level has no sections")
    }

    private func message(_ body: () throws -> GridRect) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as? ZoomError)?.message
        }
    }

    @Test("point queries agree with brute force on random layouts", arguments: propertySeeds)
    func bruteForce(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let settings = randomZoomSettings(using: &rng)
        let level = Bool.random(using: &rng) ? TimelineLevel.coarse : .fine
        let counts = (0..<Int.random(in: 1...12, using: &rng)).map { _ in
            Int.random(in: 0..<4, using: &rng) == 0 ? 0 : Int.random(in: 1...30, using: &rng)
        }
        let layout = GridLayout(
            level: level, sectionCounts: counts, metrics: settings.metrics(level), viewportWidth: settings.viewport.width)
        var frames: [(GridIndexPath, GridRect)] = []
        for (section, count) in counts.enumerated() {
            for item in 0..<count {
                frames.append((GridIndexPath(section: section, item: item), try layout.frame(section: section, item: item)))
            }
        }
        for _ in 0..<300 {
            let point = GridPoint(
                x: Double.random(in: -20...(settings.viewport.width + 20), using: &rng),
                y: Double.random(in: -50...(layout.contentHeight + 50), using: &rng))
            #expect(layout.indexPath(at: point) == frames.first { $0.1.contains(point) }?.0, "\(point)")
            // Nearest row first (vertical distance), then nearest cell in it (horizontal), then the earlier.
            func distances(_ r: GridRect) -> (Double, Double) {
                (max(r.minY - point.y, 0, point.y - r.maxY), max(r.minX - point.x, 0, point.x - r.maxX))
            }
            let nearest = frames.min { a, b in
                let (da, db) = (distances(a.1), distances(b.1))
                return da != db ? da < db : a.0 < b.0
            }?.0
            #expect(layout.nearestIndexPath(to: point) == nearest, "\(point)")
        }
        for _ in 0..<100 {
            let top = Double.random(in: -100...(layout.contentHeight + 10), using: &rng)
            let height = Double.random(in: 1...900, using: &rng)
            let expected = frames.filter { $0.1.minY < top + height && $0.1.maxY > top }.map(\.0)
            #expect(layout.visibleIndexPaths(contentOffsetY: top, viewportHeight: height) == expected)
        }
        // Frames of one section never overlap and stay inside the section.
        for section in counts.indices {
            let inSection = frames.filter { $0.0.section == section }.map(\.1)
            for frame in inSection {
                #expect(frame.minY >= layout.sectionTop(section) + settings.metrics(level).headerHeight)
                #expect(frame.maxY <= layout.sectionTop(section + 1) + 1e-9)
                #expect(frame.maxX <= settings.viewport.width + 1e-9)
            }
        }
    }
}
