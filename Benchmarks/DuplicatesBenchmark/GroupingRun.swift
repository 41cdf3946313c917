import Duplicates
import Foundation
import SeededRandom

/// Groups `count` synthetic files whose fingerprints have realistic near neighbours.
///
/// Hash bits are biased (each bit set with its own probability, 0.25–0.75, as the bits of real
/// pHashes are not independent coin flips); 2 % of photos have 1–3 similar copies (1–8 bits off in
/// each hash), 1 % an exact copy (same size and digest), 1 % a same-picture copy, and 10 % are
/// burst frames (runs of 3–10 shots 0.2 s apart, each 2–8 bits from the one before, stacked).
/// Colour renditions come from a pool of 4,096 random ones (sharing their storage); a copy has
/// its photo's.
struct GroupingRun {
    var count: Int

    func run() {
        var random = SplitMix64(seed: 32)
        let bias = (0..<64).map { _ in Double.random(in: 0.25...0.75, using: &random) }
        func draw() -> UInt64 {
            var hash: UInt64 = 0
            for bit in 0..<64 where Double.random(in: 0..<1, using: &random) < bias[bit] { hash |= 1 << UInt64(bit) }
            return hash
        }
        func flip(_ hash: UInt64, bits: Int) -> UInt64 {
            var hash = hash
            for _ in 0..<bits { hash ^= 1 << UInt64(Int.random(in: 0..<64, using: &random)) }
            return hash
        }
        func facts(_ id: Int64) -> KeepFacts {
            KeepFacts(width: 4000, height: 3000, hasCaptureDate: true, hasPosition: false, hasCamera: true, modified: id, path: "p/\(id).jpg")
        }

        let pool = (0..<4096).map { _ in
            ColourRendition(bytes: (0..<ColourRendition.edge * ColourRendition.edge * 3).map { _ in UInt8.random(in: 60...200, using: &random) })!
        }
        let made = ContinuousClock.now
        var candidates: [DuplicateCandidate] = []
        candidates.reserveCapacity(count + count / 10)
        var planted = 0
        while candidates.count < count {
            let id = Int64(candidates.count + 1)
            let fingerprint = PictureFingerprint(pixels: random.next(), dHash: draw(), pHash: draw(), colour: pool[Int(random.next() % 4096)])
            let kind = Double.random(in: 0..<1, using: &random)
            let base = DuplicateCandidate(id: id, fileSize: Int64.random(in: 500_000...9_000_000, using: &random),
                                          sha256: nil, fingerprint: fingerprint,
                                          shot: .init(camera: "cam\(id % 7)", millisecond: id * 10_000), facts: facts(id))
            candidates.append(base)
            if kind < 0.02 {
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    var copy = base
                    copy.id = Int64(candidates.count + 1)
                    copy.fingerprint = PictureFingerprint(pixels: random.next(), dHash: flip(fingerprint.dHash, bits: Int.random(in: 1...8, using: &random)),
                                                          pHash: flip(fingerprint.pHash, bits: Int.random(in: 1...8, using: &random)), colour: fingerprint.colour)
                    copy.facts = facts(copy.id)
                    candidates.append(copy)
                    planted += 1
                }
            } else if kind < 0.03 {
                let digest = SHA256Value(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })!
                candidates[candidates.count - 1].sha256 = digest
                var copy = candidates[candidates.count - 1]
                copy.id = Int64(candidates.count + 1)
                copy.facts = facts(copy.id)
                candidates.append(copy)
                planted += 1
            } else if kind < 0.04 {
                var copy = base
                copy.id = Int64(candidates.count + 1)
                copy.facts = facts(copy.id)
                candidates.append(copy)
                planted += 1
            } else if kind < 0.05 {
                // A burst: 3–10 frames, 0.2 s apart, each a few bits from the last; one stack.
                var previous = fingerprint
                for frame in 1..<Int.random(in: 3...10, using: &random) {
                    previous = PictureFingerprint(pixels: random.next(), dHash: flip(previous.dHash, bits: Int.random(in: 2...8, using: &random)),
                                                  pHash: flip(previous.pHash, bits: Int.random(in: 2...8, using: &random)), colour: previous.colour)
                    let frameID = Int64(candidates.count + 1)
                    candidates.append(DuplicateCandidate(
                        id: frameID, fileSize: base.fileSize + Int64(frame), fingerprint: previous,
                        shot: .init(camera: base.shot!.camera, millisecond: base.shot!.millisecond + Int64(frame) * 200),
                        stack: id, facts: facts(frameID)))
                }
                candidates[Int(id - 1)].stack = id
            }
        }
        print("Made \(candidates.count) synthetic files (\(planted) planted copies) in \(String(format: "%.1f", seconds(ContinuousClock.now - made))) s")

        for _ in 0..<2 {
            let start = ContinuousClock.now
            let groups = DuplicateFinder.groups(in: candidates)
            let elapsed = seconds(ContinuousClock.now - start)
            let members = groups.reduce(0) { $0 + $1.members.count }
            let kinds = Dictionary(grouping: groups, by: \.kind).mapValues(\.count)
            print(String(format: "Grouped %d files in %.2f s: %d groups, %d files in groups (%d exact, %d same-picture, %d similar)",
                         candidates.count, elapsed, groups.count, members, kinds[.exact] ?? 0, kinds[.samePicture] ?? 0, kinds[.similar] ?? 0))
        }
    }
}
