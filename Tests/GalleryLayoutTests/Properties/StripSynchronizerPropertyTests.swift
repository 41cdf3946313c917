import Foundation
import GalleryLayout
import SeededRandom
import Testing

@Suite("Pager and strip synchronisation properties")
struct StripSynchronizerPropertyTests {
    private static func randomPair(using generator: inout some RandomNumberGenerator) -> StripSynchronizer {
        let strip = AccordionStrip.random(using: &generator, minimumCount: 2)
        let pager = ParallaxPager(pageSize: CGSize(
            width: CGFloat.random(in: 200...1200, using: &generator),
            height: CGFloat.random(in: 200...1200, using: &generator)
        ))
        return StripSynchronizer(pager: pager, strip: strip)
    }

    @Test("while the pager moves from page i to i + 1 the strip's centre moves linearly from cell i to cell i + 1", arguments: propertySeeds)
    func stripCentreMovesLinearly(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pair = Self.randomPair(using: &generator)
        let strip = pair.strip
        let page = Int.random(in: 0..<(strip.count - 1), using: &generator)
        // The centre of cell j when the strip rests on page j.
        func restingCenter(_ index: Int) -> CGFloat {
            strip.layout(following: PagerPosition(index: index, fraction: 0)).frames[index].midX
        }

        var puppet = PagerPosition(index: page, fraction: 0)
        for step in 0...10 {
            let pageWidth = pair.pager.pageSize.width
            let offset = pageWidth * CGFloat(page) + pageWidth * CGFloat(step) / 10
            let update = pair.stripUpdate(pagerContentOffsetX: offset, previousPuppet: puppet)
            puppet = update.puppet
            let position = update.pagerPosition
            guard position.index + 1 < strip.count else { continue }
            let from = restingCenter(position.index)
            let to = restingCenter(position.index + 1)
            let expected = from + (to - from) * position.fraction
            #expect(isClose(update.visibleCenterX, expected, tolerance: 1e-9), "page \(page) step \(step)")
        }
        let resting = pair.stripUpdate(pagerContentOffsetX: pair.pager.contentOffsetX(forPage: page), previousPuppet: puppet)
        #expect(isClose(resting.visibleCenterX, restingCenter(page)))
    }

    @Test("the pager follows the strip to the strip's current page", arguments: propertySeeds)
    func pagerFollowsStrip(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pair = Self.randomPair(using: &generator)
        let index = Int.random(in: 0..<pair.strip.count, using: &generator)
        let inset = CGFloat.random(in: 0...40, using: &generator)
        let offset = pair.pagerContentOffsetX(forThumbnail: index, pagerInsetLeft: inset)
        let position = pair.pager.position(contentOffsetX: offset, insetLeft: inset, count: pair.strip.count)
        // The page arithmetic may land a rounding error short of the page (index − 1, fraction
        // ≈ 1): the pager still shows page `index`.
        #expect(isClose(CGFloat(position.index) + position.fraction, CGFloat(index)))
        #expect(position.index == index || (position.index == index - 1 && isClose(position.fraction, 1)))
    }

    @Test("over-scrolling the pager keeps the puppet and rubber-bands the strip", arguments: propertySeeds)
    func overScrollKeepsPuppet(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let pair = Self.randomPair(using: &generator)
        let previous = PagerPosition(index: 0, fraction: 0)
        let pull = CGFloat.random(in: 1...300, using: &generator)
        let update = pair.stripUpdate(pagerContentOffsetX: -pull, previousPuppet: previous)
        #expect(update.pagerPosition.fraction < 0)
        #expect(update.puppet == previous)
        let resting = pair.stripUpdate(pagerContentOffsetX: 0, previousPuppet: previous)
        #expect(update.inset == resting.inset)
        #expect(update.contentOffsetX < resting.contentOffsetX, "the strip is pulled right with the pager")
    }
}
