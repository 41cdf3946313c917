import Foundation
import PhotoFixtures
import Testing
@testable import Thumbnails

/// The in-memory layer: recently served images sent again without reading their file.
@Suite struct MemoryTests {
    @Test func aKeptImageIsServedWithoutItsFile() throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", memoryBudget: 1 << 20)
        let url = try folder.write("photos/a.jpg", PhotoFixtures.jpeg(width: 1200, height: 900))
        let source = try Scratch.source(path: url.path, id: 1)
        #expect(cache.imageInMemory(for: source, size: .thumbnail) == nil)
        let first = cache.image(for: source, size: .thumbnail)
        #expect(!first.isPlaceholder)
        #expect(cache.imageETag(for: source, size: .thumbnail) == first.etag)
        // With the disk cache gone, only memory can answer.
        try FileManager.default.removeItem(atPath: cache.directory)
        let kept = try #require(cache.imageInMemory(for: source, size: .thumbnail))
        #expect(kept.bytes == first.bytes && kept.etag == first.etag)
        #expect(cache.image(for: source, size: .thumbnail).bytes == first.bytes)
        #expect(cache.statistics.memoryHits == 2)
        #expect(cache.statistics.generated == 1 && cache.statistics.hits == 0)
        // Another size is another entry.
        #expect(cache.imageInMemory(for: source, size: .preview) == nil)
    }

    @Test func placeholdersAndAZeroBudgetKeepNothing() throws {
        let folder = try TemporaryDirectory()
        let url = try folder.write("photos/cut.jpg", Array(PhotoFixtures.jpeg(width: 64, height: 64).prefix(40)))
        let broken = try Scratch.source(path: url.path, id: 2)
        let cache = ThumbnailCache(directory: folder.path + "/cache", memoryBudget: 1 << 20)
        #expect(cache.image(for: broken, size: .thumbnail).isPlaceholder)
        #expect(cache.imageInMemory(for: broken, size: .thumbnail) == nil)

        let good = try Scratch.source(path: try folder.write("photos/b.jpg", PhotoFixtures.jpeg(width: 300, height: 200)).path, id: 3)
        let off = ThumbnailCache(directory: folder.path + "/cache-off")
        _ = off.image(for: good, size: .thumbnail)
        #expect(off.imageInMemory(for: good, size: .thumbnail) == nil)
        _ = off.image(for: good, size: .thumbnail)
        #expect(off.statistics.hits == 1 && off.statistics.memoryHits == 0)
    }

    @Test func recentlyUsedMatchesASimpleModel() {
        // A list kept in recency order, most recent first: obviously right, and O(n).
        var model: [(key: Int, cost: Int)] = []
        let budget = 100
        var cache = RecentlyUsed<Int, String>(budget: budget)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        for _ in 0..<5_000 {
            let key = next(24)
            if next(3) == 0 {
                let got = cache.value(for: key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(got == "\(key)")
                    model.insert(model.remove(at: index), at: 0)
                } else {
                    #expect(got == nil)
                }
            } else {
                let cost = next(45)
                cache.insert("\(key)", for: key, cost: cost)
                model.removeAll { $0.key == key }
                if cost <= budget {
                    while model.reduce(0, { $0 + $1.cost }) + cost > budget { model.removeLast() }
                    model.insert((key, cost), at: 0)
                }
            }
            cache._checkInvariants()
            #expect(cache.keysByRecency == model.map(\.key))
            #expect(cache.totalCost == model.reduce(0) { $0 + $1.cost })
        }
        cache.insert("big", for: 99, cost: budget + 1)
        #expect(cache.value(for: 99) == nil, "a value over the whole budget is not kept")
    }
}
