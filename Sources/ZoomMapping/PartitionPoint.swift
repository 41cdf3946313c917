package extension RandomAccessCollection where Index == Int {
    /// The index of the first element for which `isAfter` is true, or `endIndex` when there is
    /// none, in a collection that `isAfter` partitions: every false before every true.
    ///
    /// The sorted searches of the zoom (the section holding an offset, the fine section holding a
    /// photo, the first shown photo after one) are all this one.
    /// - Complexity: O(log n) calls of `isAfter`.
    func partitionPoint(where isAfter: (Element) throws -> Bool) rethrows -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if try isAfter(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
