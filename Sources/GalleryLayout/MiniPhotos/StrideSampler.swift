/// MiniPhotos' rule for the thumbnails a cluster shows: a capped count, taken at a regular
/// stride.
///
/// A cluster of `n` photos shows 50 above 50 photos, 40 above 40, 30 above 30, 20 above 20,
/// 10 above 10 (thresholds strict: exactly 20 shows 10), else all of them. Shoebox's own
/// sections use a stable hash-based sampling (the `Timeline` module); this is the original
/// rule, offered as an alternative strategy.
public struct StrideSampler: Sendable, Hashable {
    /// Sample sizes, largest first; a cluster shows the first one it strictly exceeds.
    public var targetCounts: [Int]

    /// Creates a sampler; the default sizes are MiniPhotos'.
    public init(targetCounts: [Int] = [50, 40, 30, 20, 10]) {
        self.targetCounts = targetCounts
    }

    /// How many photos a cluster of `count` shows.
    public func targetCount(for count: Int) -> Int {
        targetCounts.first { count > $0 } ?? max(0, count)
    }

    /// The indices shown for a cluster of `count`, ascending.
    ///
    /// Starts at 0 and adds the real stride `count / target` repeatedly, truncating the running
    /// sum (not `k × stride`), exactly as MiniPhotos did.
    /// - Complexity: O(*target*).
    public func sampleIndices(count: Int) -> [Int] {
        let target = targetCount(for: count)
        guard target < count else { return Array(0..<max(0, count)) }
        guard target > 0 else { return [] }
        let stride = Double(count) / Double(target)
        var indices = [0]
        indices.reserveCapacity(target)
        var sum = 0.0
        for _ in 1..<target {
            sum += stride
            indices.append(Int(sum))
        }
        return indices
    }
}
