/// 64-bit hashes indexed for near-neighbour search by multi-index hashing.
///
/// Each hash is split into four 16-bit chunks, and each chunk position has a table of 65,536
/// buckets. Two hashes within Hamming distance `d` of each other have, by the pigeonhole principle,
/// a chunk within `d / 4` bits of the other's, so probing each chunk's bucket and the buckets
/// `radius` bits away finds every pair within `4 × (radius + 1) − 1` bits — without comparing all
/// pairs.
///
/// The tables are laid out flat (bucket offsets into one member array per chunk), four arrays for
/// any number of hashes.
public struct HammingIndex: Sendable {
    /// The indexed hashes, by position.
    public let hashes: [UInt64]
    /// For chunk c, `offsets[c][k] ..< offsets[c][k + 1]` are the positions in `members[c]` of
    /// the hashes whose chunk c is k.
    private let offsets: [[Int32]]
    private let members: [[Int32]]

    public static let chunkCount = 4

    /// Indexes `hashes` (at most `Int32.max` of them).
    ///
    /// - Complexity: O(n + 65,536) per chunk.
    public init(_ hashes: [UInt64]) {
        precondition(hashes.count < Int(Int32.max), "too many hashes for one index")
        self.hashes = hashes
        var offsets: [[Int32]] = []
        var members: [[Int32]] = []
        for chunk in 0..<Self.chunkCount {
            var counts = [Int32](repeating: 0, count: 65_537)
            for hash in hashes { counts[Int(Self.chunk(hash, chunk)) + 1] += 1 }
            for k in 1..<counts.count { counts[k] += counts[k - 1] }
            var next = counts
            var list = [Int32](repeating: 0, count: hashes.count)
            for (position, hash) in hashes.enumerated() {
                let key = Int(Self.chunk(hash, chunk))
                list[Int(next[key])] = Int32(position)
                next[key] += 1
            }
            offsets.append(counts)
            members.append(list)
        }
        self.offsets = offsets
        self.members = members
    }

    @inlinable
    static func chunk(_ hash: UInt64, _ index: Int) -> UInt16 { UInt16(truncatingIfNeeded: hash >> UInt64(16 * index)) }

    /// The probe radius per chunk that finds every pair within `distance` bits.
    public static func chunkRadius(for distance: Int) -> Int { max(0, distance) / chunkCount }

    /// Calls `body` with the position of every hash after `position` (higher positions only, so
    /// each pair comes once per chunk it shares) whose chunk differs from the hash at `position`'s
    /// by one of `masks` (see `masks(radius:)`); a pair may come several times. `body` checks the
    /// real distance.
    ///
    /// - Complexity: `masks.count` bucket look-ups per chunk, plus the sizes of those buckets.
    public func forEachCandidate(after position: Int, masks: [UInt16], _ body: (Int) -> Void) {
        let hash = hashes[position]
        for chunk in 0..<Self.chunkCount {
            let key = Self.chunk(hash, chunk)
            let offsets = self.offsets[chunk]
            members[chunk].withUnsafeBufferPointer { members in
                for mask in masks {
                    let probe = Int(key ^ mask)
                    for slot in Int(offsets[probe])..<Int(offsets[probe + 1]) {
                        let other = Int(members[slot])
                        if other > position { body(other) }
                    }
                }
            }
        }
    }

    /// Every 16-bit mask with at most `radius` bits set (radius capped at 3: 697 masks).
    public static func masks(radius: Int) -> [UInt16] {
        let radius = min(max(radius, 0), 3)
        return (0...UInt16.max).filter { $0.nonzeroBitCount <= radius }
    }
}
