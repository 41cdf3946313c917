/// Groups files holding the same picture, in three tiers, and picks the one of each to keep.
///
/// Pairs are found per tier — `exact`: equal size and SHA-256; `samePicture`: equal
/// `PictureFingerprint.pixels`; `similar`: both perceptual hashes within `thresholds`, candidates
/// from `HammingIndex`es on the pHash and the dHash — and groups are the connected sets of those pairs. Two files
/// of one stack are never paired, nor are two files of different shots of one camera in the
/// `similar` tier (burst frames look alike but are different pictures).
public enum DuplicateFinder {
    /// The groups among `candidates`, using the tiers up to `loosest`.
    ///
    /// Deterministic: the groups come ordered by their kept file's path.
    /// - Complexity: O(n) for the first two tiers (hash tables); for `similar`, the index's bucket
    ///   look-ups per file plus one comparison per file sharing a probed bucket — never all pairs.
    public static func groups(
        in candidates: [DuplicateCandidate], loosest: DuplicateKind = .similar,
        thresholds: DuplicateThresholds = .default
    ) -> [DuplicateGroup] {
        var sets = DisjointSets(count: candidates.count)
        func link(_ a: Int, _ b: Int) {
            if let stack = candidates[a].stack, stack == candidates[b].stack { return }
            sets.union(a, b)
        }

        // Exact: equal size and digest.
        var bytes: [SizedDigest: Int] = [:]
        for (position, candidate) in candidates.enumerated() {
            guard let digest = candidate.sha256 else { continue }
            let key = SizedDigest(size: candidate.fileSize, digest: digest)
            if let first = bytes[key] { link(first, position) } else { bytes[key] = position }
        }

        if loosest >= .samePicture {
            var pictures: [UInt64: Int] = [:]
            for (position, candidate) in candidates.enumerated() {
                guard let pixels = candidate.fingerprint?.pixels else { continue }
                if let first = pictures[pixels] { link(first, position) } else { pictures[pixels] = position }
            }
        }

        if loosest >= .similar {
            forEachSimilarPair(in: candidates, thresholds: thresholds) { a, b in
                if let one = candidates[a].shot, let other = candidates[b].shot,
                   one.camera == other.camera, one.millisecond != other.millisecond {
                    return
                }
                link(a, b)
            }
        }

        var pathByID: [Int64: String] = [:]
        let groups = sets.groups().map { positions in
            let made = group(of: positions, in: candidates)
            pathByID[made.keep] = candidates[positions.first { candidates[$0].id == made.keep }!].facts.path
            return made
        }
        return groups.sorted { (pathByID[$0.keep]!, $0.keep) < (pathByID[$1.keep]!, $1.keep) }
    }

    /// Calls `body` for pairs of candidates (positions, the first lower) whose fingerprints are
    /// within `thresholds`; a pair may come more than once.
    ///
    /// Candidates come from two `HammingIndex`es, on the pHash and on the dHash, probed one bit
    /// around each chunk: every pair within the thresholds whose pHash or dHash differ by at most
    /// 7 bits is found (pigeonhole: then a chunk differs by at most one bit); pairs further apart
    /// in both are found when a chunk of either is that close.
    /// - Complexity: 2 × 4 × 17 bucket look-ups per file, plus the files in those buckets (about
    ///   n / 65,536 each): O(n²/2¹⁶) comparisons, a few seconds for a million files.
    public static func forEachSimilarPair(
        in candidates: [DuplicateCandidate], thresholds: DuplicateThresholds, _ body: (Int, Int) -> Void
    ) {
        // Only the files that have fingerprints go into the indexes.
        let positions = candidates.indices.filter { candidates[$0].fingerprint != nil }
        let fingerprints = positions.map { candidates[$0].fingerprint! }
        let masks = HammingIndex.masks(radius: searchRadius)
        for index in [HammingIndex(fingerprints.map(\.pHash)), HammingIndex(fingerprints.map(\.dHash))] {
            for i in fingerprints.indices {
                index.forEachCandidate(after: i, masks: masks) { j in
                    if thresholds.areSimilar(fingerprints[i], fingerprints[j]) { body(positions[i], positions[j]) }
                }
            }
        }
    }

    /// The bits probed around each 16-bit chunk.
    static let searchRadius = 1

    /// The group of `positions`: the kept file first, the others by path, with the kind and reason.
    static func group(of positions: [Int], in candidates: [DuplicateCandidate]) -> DuplicateGroup {
        let keep = positions.min { candidates[$0].facts.isPreferred(to: candidates[$1].facts) }!
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
