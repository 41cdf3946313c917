import Foundation
import GalleryLayout
import SeededRandom
import Testing

@Suite("Snapping strip properties")
struct SnappingStripPropertyTests {
    @Test("the scroll range runs exactly from the first slot to the last", arguments: propertySeeds)
    func scrollRangeMatchesSlots(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 1...50, using: &generator)
        let metrics = strip.metrics(count: count)
        #expect(isClose(metrics.minOffsetX, strip.contentOffsetX(forIndex: 0)))
        #expect(isClose(metrics.maxOffsetX, strip.contentOffsetX(forIndex: count - 1)))
    }

    @Test("a slot's offset centres it, and maps back to its index", arguments: propertySeeds)
    func slotOffsetsRoundTrip(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 1...50, using: &generator)
        let index = Int.random(in: 0..<count, using: &generator)
        let offset = strip.contentOffsetX(forIndex: index)
        #expect(strip.nearestIndex(contentOffsetX: offset, count: count) == index)

        let cells = strip.cells(contentOffsetX: offset, aspects: randomAspects(count: count, using: &generator))
        #expect(isClose(cells[index].centerX, offset + strip.boundsWidth / 2), "focused thumbnail centred")
        // Up to rounding of the slot arithmetic: only the centred thumbnail is expanded.
        #expect(isClose(cells[index].expanding, 1))
        #expect(cells.enumerated().allSatisfy { $0.offset == index || isClose($0.element.expanding, 0) })
    }

    @Test("a fling snaps to the nearest slot inside the strip", arguments: propertySeeds)
    func snapIsNearestSlot(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 1...30, using: &generator)
        let metrics = strip.metrics(count: count)
        let proposed = CGFloat.random(in: (metrics.minOffsetX - 500)...(metrics.maxOffsetX + 500), using: &generator)
        let snapped = strip.snapOffsetX(proposedOffsetX: proposed, count: count)
        let slots = (0..<count).map { strip.contentOffsetX(forIndex: $0) }
        #expect(slots.contains { isClose($0, snapped) })
        let best = slots.map { abs($0 - proposed) }.min()!
        #expect(isClose(abs(snapped - proposed), best))
    }

    @Test("thumbnail frames never overlap while scrolling", arguments: propertySeeds)
    func cellsAreDisjoint(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 1...40, using: &generator)
        let metrics = strip.metrics(count: count)
        let offset = CGFloat.random(in: (metrics.minOffsetX - 50)...(metrics.maxOffsetX + 50), using: &generator)
        let cells = strip.cells(
            contentOffsetX: offset,
            aspects: randomAspects(count: count, using: &generator),
            expandingRate: CGFloat.random(in: 0...1, using: &generator)
        )
        #expect(framesAreDisjoint(cells.map(\.frame)))
    }

    @Test("a deletion ends exactly at the final positions", arguments: propertySeeds)
    func deletionEndsAtFinalPositions(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 2...25, using: &generator)
        // Bias toward the ends, where the direction changes.
        let row = [0, count - 1, Int.random(in: 0..<count, using: &generator)].randomElement(using: &generator)!
        let aspects = randomAspects(count: count, using: &generator)
        let offset = strip.contentOffsetX(forIndex: row)
        let deletion = strip.deletion(row: row, count: count)

        let last = strip.cells(contentOffsetX: offset, aspects: aspects, updates: deletion.updates(elapsed: deletion.duration))
        #expect(deletion.isFinished(elapsed: deletion.duration))
        #expect(last[row].alpha == 0 && last[row].size.width == 0)

        let after = try #require(deletion.activeIndexAfter)
        var remaining = aspects
        remaining.remove(at: row)
        let finalOffset = strip.contentOffsetX(forIndex: after)
        let settled = strip.cells(contentOffsetX: finalOffset, aspects: remaining)
        for (newRow, cell) in settled.enumerated() {
            let old = last[newRow < row ? newRow : newRow + 1]
            #expect(isClose(old.centerX - offset, cell.centerX - finalOffset), "row \(newRow) lands in place")
            #expect(old.size == cell.size)
        }
    }

    @Test("a deletion's phases join without a jump", arguments: propertySeeds)
    func deletionIsContinuous(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 2...25, using: &generator)
        let row = Int.random(in: 0..<count, using: &generator)
        let aspects = randomAspects(count: count, using: &generator)
        let offset = strip.contentOffsetX(forIndex: row)
        let deletion = strip.deletion(row: row, count: count)
        let justBefore = strip.cells(contentOffsetX: offset, aspects: aspects, updates: deletion.updates(collapsing: 1, deleting: 0))
        let atBoundary = strip.cells(contentOffsetX: offset, aspects: aspects, updates: deletion.updates(elapsed: deletion.collapseDuration))
        #expect(zip(justBefore, atBoundary).allSatisfy { isClose($0.centerX, $1.centerX) })
        let start = strip.cells(contentOffsetX: offset, aspects: aspects, updates: deletion.updates(elapsed: 0))
        let untouched = strip.cells(contentOffsetX: offset, aspects: aspects)
        #expect(zip(start, untouched).allSatisfy { isClose($0.centerX, $1.centerX) && $0.size == $1.size })
    }

    @Test("a tap-move ends on the tapped slot, identical to resting there", arguments: propertySeeds)
    func moveEndsOnTarget(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let strip = SnappingStrip.random(using: &generator)
        let count = Int.random(in: 2...30, using: &generator)
        let from = Int.random(in: 0..<count, using: &generator)
        let to = (from + Int.random(in: 1..<count, using: &generator)) % count
        let aspects = randomAspects(count: count, using: &generator)
        let move = strip.moveAnimation(fromOffsetX: strip.contentOffsetX(forIndex: from), fromIndex: from, toIndex: to)
        let end = move.frame(elapsed: move.duration)
        #expect(isClose(end.contentOffsetX, strip.contentOffsetX(forIndex: to)))
        let animated = strip.cells(contentOffsetX: end.contentOffsetX, aspects: aspects, expandingRate: end.expandingRate, updates: end.updates)
        let resting = strip.cells(contentOffsetX: strip.contentOffsetX(forIndex: to), aspects: aspects)
        #expect(zip(animated, resting).allSatisfy { isClose($0.centerX, $1.centerX) && abs($0.size.width - $1.size.width) <= 1 })
        let start = move.frame(t: 0)
        #expect(start.contentOffsetX == move.fromOffsetX)
    }

    @Test("easing curves and the expanding-rate animation start at 0 and end at 1", arguments: propertySeeds)
    func easingEndsMeet(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for curve in Easing.allCases {
            #expect(curve.value(at: 0) == 0 && curve.value(at: 1) == 1)
            let xs = (0..<10).map { _ in CGFloat.random(in: 0...1, using: &generator) }.sorted()
            let ys = xs.map(curve.value(at:))
            #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 <= $1 }, "\(curve) is monotonic")
        }
        let rate = CGFloat.random(in: 0...1, using: &generator)
        for phase in [ExpandingRateAnimation.Phase.begin, .end] {
            let animation = ExpandingRateAnimation(phase: phase, currentRate: rate)
            #expect(animation.rate(elapsed: animation.duration) == animation.targetRate)
            #expect(animation.rate(t: 0) == rate)
        }
    }
}
