import Foundation
import GalleryLayout
import SeededRandom
import Testing

@Suite("Carousel and MiniPhotos properties")
struct CarouselAndGridPropertyTests {
    private static func randomCarousel(using generator: inout some RandomNumberGenerator) -> CoverCarousel {
        let side = CGFloat.random(in: 150...400, using: &generator)
        return CoverCarousel(
            side: side,
            viewWidth: side + CGFloat.random(in: 20...120, using: &generator),
            originX: CGFloat.random(in: 0...50, using: &generator),
            count: Int.random(in: 1...20, using: &generator)
        )
    }

    @Test("snapping to a cell makes it the snap target, and scaled cells never overlap", arguments: propertySeeds)
    func carouselSnapsToCentredCell(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let carousel = Self.randomCarousel(using: &generator)
        let index = Int.random(in: 0..<carousel.count, using: &generator)
        let step = carousel.step(contentOffsetX: carousel.snapOffsetX(forIndex: index))
        #expect(step.snapIndex == index)
        let centred = step.cells.first { $0.index == index }
        #expect(centred.map { isClose($0.distance, 0) && $0.scale == 1 } == true)

        let offset = CGFloat.random(in: -carousel.contentInset...(carousel.contentWidth), using: &generator)
        let cells = carousel.step(contentOffsetX: offset).cells
        #expect(cells.allSatisfy { $0.scale <= 1 && $0.scale >= carousel.configuration.minimumScale && $0.alpha > 0 && $0.alpha <= 1 })
        let scaled = cells.map { cell in
            CGRect(x: cell.centerX - cell.frameWidth / 2, y: 0, width: cell.frameWidth, height: cell.frameWidth)
        }
        #expect(framesAreDisjoint(scaled))
        #expect(carousel.snapOffsetX(afterDragEndingAt: offset) == carousel.snapOffsetX(forIndex: carousel.step(contentOffsetX: offset).snapIndex))
    }

    @Test("grid frames never overlap and fit in the content height", arguments: propertySeeds)
    func gridFramesAreDisjoint(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let width = CGFloat.random(in: 300...1000, using: &generator)
        let counts = (0..<Int.random(in: 1...6, using: &generator)).map { _ in Int.random(in: 0...45, using: &generator) }
        for grid in [MiniPhotosGrid.clusters(width: width), .moments(width: width)] {
            var frames: [CGRect] = []
            for (section, count) in counts.enumerated() {
                for item in 0..<count {
                    frames.append(grid.itemFrame(at: GridIndexPath(section: section, item: item), sectionCounts: counts))
                }
            }
            let height = grid.contentHeight(sectionCounts: counts)
            #expect(frames.allSatisfy { $0.minX >= 0 && $0.maxX <= width + 1e-9 && $0.maxY <= height + 1e-9 })
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] {
                    let overlap = a.insetBy(dx: 1e-6, dy: 1e-6).intersects(b.insetBy(dx: 1e-6, dy: 1e-6))
                    #expect(!overlap, "\(a) overlaps \(b)")
                }
            }
        }
    }

    @Test("zooming in keeps the tapped photo at the same height", arguments: propertySeeds)
    func zoomKeepsHeight(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let zoom = MiniPhotosZoom(width: CGFloat.random(in: 300...1000, using: &generator))
        let clusterCounts = (0..<3).map { _ in Int.random(in: 1...50, using: &generator) }
        let momentCounts = (0..<5).map { _ in Int.random(in: 1...20, using: &generator) }
        let source = GridIndexPath(section: 1, item: Int.random(in: 0..<clusterCounts[1], using: &generator))
        let target = GridIndexPath(section: 3, item: Int.random(in: 0..<momentCounts[3], using: &generator))
        let offset = CGFloat.random(in: -100...800, using: &generator)
        let result = zoom.zoomIn(from: source, clusterCounts: clusterCounts, contentOffsetY: offset, to: target, momentCounts: momentCounts)
        let before = zoom.clusters.itemFrame(at: source, sectionCounts: clusterCounts).minY - offset
        let after = zoom.moments.itemFrame(at: target, sectionCounts: momentCounts).minY - result.contentOffsetY
        #expect(isClose(before, after))
    }

    @Test("stride sampling picks the capped count of distinct, ascending indices", arguments: propertySeeds)
    func strideSamplingIsWellFormed(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let sampler = StrideSampler()
        let count = Int.random(in: 0...400, using: &generator)
        let indices = sampler.sampleIndices(count: count)
        let target = sampler.targetCount(for: count)
        #expect(indices.count == target)
        #expect(target <= 50 && target <= count)
        #expect(count <= 10 ? target == count : target % 10 == 0)
        #expect(zip(indices, indices.dropFirst()).allSatisfy { $0 < $1 })
        #expect(indices.allSatisfy { (0..<count).contains($0) })
    }

    @Test("a pushed-out cell ends outside the visible bounds, one step past the edge", arguments: propertySeeds)
    func pushOutLeavesBounds(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let bounds = CGRect(x: 0, y: CGFloat.random(in: -100...500, using: &generator), width: 375, height: 667)
        let start = CGPoint(
            x: CGFloat.random(in: bounds.minX..<bounds.maxX, using: &generator),
            y: CGFloat.random(in: bounds.minY..<bounds.maxY, using: &generator)
        )
        let pointer = CGPoint(x: CGFloat.random(in: -200...200, using: &generator), y: CGFloat.random(in: -200...200, using: &generator))
        let push = MiniPhotosZoom.pushOut(boundary: bounds, pointer: pointer, start: start)
        let end = CGPoint(x: start.x + push.dx, y: start.y + push.dy)
        let inside = bounds.minX <= end.x && end.x < bounds.maxX && bounds.minY <= end.y && end.y < bounds.maxY
        #expect(!inside || push.magnitude == 0)
        #expect(push.magnitude > 0 && push.magnitude.truncatingRemainder(dividingBy: 10) == 0)
        #expect(isClose((push.dx * push.dx + push.dy * push.dy).squareRoot(), push.magnitude))
    }
}
