import Duplicates
import SeededRandom
import Testing

@Suite("Multi-index hashing")
struct HammingIndexTests {
    /// Hashes with planted neighbours at every distance up to 12 bits.
    static func hashes(count: Int, seed: UInt64) -> [UInt64] {
        var random = SplitMix64(seed: seed)
        var hashes: [UInt64] = []
        while hashes.count < count {
            let hash = random.next()
            hashes.append(hash)
            var near = hash
            for _ in 0..<Int.random(in: 0...12, using: &random) { near ^= 1 << UInt64(Int.random(in: 0..<64, using: &random)) }
            hashes.append(near)
        }
        return hashes
    }

    @Test("finds every pair within the distance the probe radius covers, as brute force does", arguments: [3, 7, 11])
    func findsEveryPair(distance: Int) {
        let hashes = Self.hashes(count: 1_500, seed: UInt64(distance))
        let index = HammingIndex(hashes)
        let masks = HammingIndex.masks(radius: HammingIndex.chunkRadius(for: distance))
        var found = Set<[Int]>()
        for i in hashes.indices {
            index.forEachCandidate(after: i, masks: masks) { j in
                #expect(j > i)
                if PictureFingerprint.distance(hashes[i], hashes[j]) <= distance { found.insert([i, j]) }
            }
        }
        var expected = Set<[Int]>()
        for i in hashes.indices {
            for j in (i + 1)..<hashes.count where PictureFingerprint.distance(hashes[i], hashes[j]) <= distance { expected.insert([i, j]) }
        }
        #expect(!expected.isEmpty)
        #expect(found == expected)
    }

    @Test("probe radius per chunk follows the pigeonhole principle")
    func radius() {
        #expect(HammingIndex.chunkRadius(for: 3) == 0)
        #expect(HammingIndex.chunkRadius(for: 4) == 1)
        #expect(HammingIndex.chunkRadius(for: 10) == 2)
        #expect(HammingIndex.masks(radius: 0) == [0])
        #expect(HammingIndex.masks(radius: 1).count == 17)
        #expect(HammingIndex.masks(radius: 2).count == 1 + 16 + 120)
    }
}
