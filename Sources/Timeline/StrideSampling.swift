/// MiniPhotos' sampling rule (`MP.sample_indices`): evenly strided positions in capture order.
public enum StrideSampling {
    /// Positions (0-based, ascending) of `target` photos out of `count`.
    ///
    /// With `target == count` every position; otherwise `stride = count/target` (real), positions
    /// `trunc(0)`, `trunc(stride)`, `trunc(stride + stride)`, … with the stride accumulated by
    /// repeated addition, as the original did. `target` is clamped to `0...count`.
    public static func indices(count: Int, target: Int) -> [Int] {
        let count = max(count, 0)
        let target = min(max(target, 0), count)
        guard target < count else { return Array(0..<count) }
        guard target > 0 else { return [] }
        let stride = Double(count) / Double(target)
        var result = [0]
        result.reserveCapacity(target)
        var accumulated = 0.0
        for _ in 1..<target {
            accumulated += stride
            result.append(Int(accumulated))
        }
        return result
    }
}
