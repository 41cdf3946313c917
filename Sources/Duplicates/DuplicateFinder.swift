/// Groups files holding the same picture, in three tiers, and picks the one of each to keep.
///
/// A file matches another — `exact`: equal size and SHA-256; `samePicture`: equal
/// `PictureFingerprint.pixels`; `similar`: `DuplicateThresholds.areSimilar` (both perceptual
/// hashes close, candidates from `HammingIndex`es on the pHash and the dHash, then the colours
/// compared). Two files of one stack never match; in the `similar` tier neither do two files whose
/// metadata names different shots (burst frames, or two cameras' pictures: a copy keeps its
/// camera and time, or loses both), nor two pictures of different shapes (`KeepFacts.hasShape`).
///
/// Every member of a group matches the kept file itself: files are taken in the order they would
/// be kept, and each file not yet in a group starts one, with every file left that matches it. A
/// file like a member but not like the kept one is not pulled in through that member (`similar`
/// is not transitive: A ≈ B and B ≈ C need not make A ≈ C).
public enum DuplicateFinder {
    /// The groups among `candidates`, using the tiers up to `loosest`.
    ///
    /// Deterministic: the groups come ordered by their kept file's path.
    /// - Complexity: O(n log n) for the order and the first two tiers (hash tables); for `similar`,
    ///   the index's bucket look-ups per file plus one comparison per file sharing a probed bucket
    ///   — never all pairs.
    public static func groups(
        in candidates: [DuplicateCandidate], loosest: DuplicateKind = .similar,
        thresholds: DuplicateThresholds = .default
    ) -> [DuplicateGroup] {
        // Every file's matches, of any tier (filtered by stack and shot when taken).
        var matches = [[Int]](repeating: [], count: candidates.count)
        func connect(_ positions: [Int]) {
            guard positions.count > 1 else { return }
            for position in positions { matches[position] += positions.filter { $0 != position } }
        }

        // Exact: equal size and digest.
        var bytes: [SizedDigest: [Int]] = [:]
        for (position, candidate) in candidates.enumerated() {
            guard let digest = candidate.sha256 else { continue }
            bytes[SizedDigest(size: candidate.fileSize, digest: digest), default: []].append(position)
        }
        bytes.values.forEach(connect)

        if loosest >= .samePicture {
            var pictures: [UInt64: [Int]] = [:]
            for (position, candidate) in candidates.enumerated() {
                guard let pixels = candidate.fingerprint?.pixels else { continue }
                pictures[pixels, default: []].append(position)
            }
            pictures.values.forEach(connect)
        }

        if loosest >= .similar {
            forEachSimilarPair(in: candidates, thresholds: thresholds) { a, b in
                // Two shots (burst frames, or two cameras' pictures of one layout), or two shapes.
                if let one = candidates[a].shot, let other = candidates[b].shot, one != other { return }
                guard candidates[a].facts.hasShape(of: candidates[b].facts) else { return }
                matches[a].append(b)
                matches[b].append(a)
            }
        }

        // In the order of keeping: each file not yet taken keeps a group of the files left that match it.
        let order = candidates.indices.filter { !matches[$0].isEmpty }
            .sorted { a, b in
                let one = candidates[a].facts, other = candidates[b].facts
                return one.isPreferred(to: other) || (!other.isPreferred(to: one) && a < b)
            }
        var taken = [Bool](repeating: false, count: candidates.count)
        var groups: [(path: String, group: DuplicateGroup)] = []
        for keep in order where !taken[keep] {
            taken[keep] = true
            var positions = [keep]
            for other in matches[keep] where !taken[other] {
                if let stack = candidates[keep].stack, stack == candidates[other].stack { continue }
                taken[other] = true
                positions.append(other)
            }
            if positions.count > 1 { groups.append((candidates[keep].facts.path, group(keeping: keep, of: positions, in: candidates))) }
        }
        return groups.sorted { ($0.path, $0.group.keep) < ($1.path, $1.group.keep) }.map(\.group)
    }

    /// Calls `body` once for each pair of candidates (positions, the first lower) whose
    /// fingerprints are within `thresholds`, in increasing order.
    ///
    /// Candidates come from two `HammingIndex`es, on the pHash and on the dHash, probed one bit
    /// around each chunk: every pair within the thresholds whose pHash or dHash differ by at most
    /// 7 bits is found (pigeonhole: then a chunk differs by at most one bit); pairs further apart
    /// in both are found when a chunk of either is that close. The colours are compared only for
    /// the pairs whose hashes are close, once each.
    /// - Complexity: 2 × 4 × 17 bucket look-ups per file, plus the files in those buckets (about
    ///   n / 65,536 each): O(n²/2¹⁶) hash comparisons, a few seconds for a million files; then a
    ///   sort of the close pairs and one colour comparison each.
    public static func forEachSimilarPair(
        in candidates: [DuplicateCandidate], thresholds: DuplicateThresholds, _ body: (Int, Int) -> Void
    ) {
        // Only the files that have fingerprints go into the indexes.
        let positions = candidates.indices.filter { candidates[$0].fingerprint != nil }
        let fingerprints = positions.map { candidates[$0].fingerprint! }
        let masks = HammingIndex.masks(radius: searchRadius)
        // Close pairs as (i << 32 | j), i < j indexes into `fingerprints`; a pair found in several
        // buckets is kept once.
        var close: [UInt64] = []
        for index in [HammingIndex(fingerprints.map(\.pHash)), HammingIndex(fingerprints.map(\.dHash))] {
            for i in fingerprints.indices {
                index.forEachCandidate(after: i, masks: masks) { j in
                    if thresholds.hashesAreClose(fingerprints[i], fingerprints[j]) { close.append(UInt64(i) << 32 | UInt64(j)) }
                }
            }
        }
        close.sort()
        var previous: UInt64?
        for pair in close where pair != previous {
            previous = pair
            let i = Int(pair >> 32), j = Int(pair & 0xFFFF_FFFF)
            let a = fingerprints[i], b = fingerprints[j]
            if ColourRendition.distance(a.colour, b.colour) <= thresholds.colourLimit(a, b) { body(positions[i], positions[j]) }
        }
    }

    /// The bits probed around each 16-bit chunk.
    static let searchRadius = 1

    /// The group of `positions`, kept file `keep` first, the others by path, with the kind and reason.
    static func group(keeping keep: Int, of positions: [Int], in candidates: [DuplicateCandidate]) -> DuplicateGroup {
        let kept = candidates[keep]
        let others = positions.filter { $0 != keep }.sorted { candidates[$0].facts.path < candidates[$1].facts.path }
        var members = [DuplicateGroup.Member(id: kept.id, match: .exact)]
        for position in others {
            let other = candidates[position]
            let match: DuplicateKind
            if let digest = other.sha256, digest == kept.sha256, other.fileSize == kept.fileSize {
                match = .exact
            } else if let pixels = other.fingerprint?.pixels, pixels == kept.fingerprint?.pixels {
                match = .samePicture
            } else {
                match = .similar
            }
            members.append(.init(id: other.id, match: match))
        }
        return DuplicateGroup(
            kind: members.map(\.match).max() ?? .exact, members: members,
            reason: kept.facts.reason(over: others.map { candidates[$0].facts }))
    }

    private struct SizedDigest: Hashable {
        var size: Int64
        var digest: SHA256Value
    }
}
