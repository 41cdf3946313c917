import Synchronization

/// Hands out the indices `0..<count` to any number of threads, each exactly once.
final class WorkQueue: Sendable {
    private let nextIndex = Atomic<Int>(0)
    let count: Int

    init(count: Int) {
        self.count = count
    }

    func next() -> Int? {
        let index = nextIndex.add(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }
}
