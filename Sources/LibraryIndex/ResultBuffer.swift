import Foundation

/// A bounded hand-off from reader threads to the one writer: producers wait when it is full,
/// so memory stays flat however large the tree is.
final class ResultBuffer<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var producersLeft: Int
    private let capacity: Int
    /// Set when the consumer gives up (a write failed): producers stop waiting and drop their items.
    private var cancelled = false
    /// How many items the waiting consumer needs before it is worth waking (0: it is not waiting).
    private var consumerWants = 0

    init(capacity: Int, producers: Int) {
        self.capacity = capacity
        self.producersLeft = producers
    }

    func push(_ item: Element) {
        condition.lock()
        while items.count >= capacity && !cancelled { condition.wait() }
        if !cancelled { items.append(item) }
        // The consumer is woken when what it waits for is there, not for every item: at a warm
        // first index the readers' pushes otherwise woke the writer thousands of times a second.
        if consumerWants > 0 && items.count >= consumerWants { condition.broadcast() }
        condition.unlock()
    }

    /// Counts `count` more producers, which must be added before the last one finishes.
    func addProducers(_ count: Int) {
        condition.lock()
        producersLeft += count
        condition.unlock()
    }

    func producerFinished() {
        condition.lock()
        producersLeft -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every producer for good: pushes are dropped from now on. For a consumer that stops
    /// taking (its write failed), so no reader thread waits forever on a full buffer.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Up to `limit` items, waiting until `deadline` for at least one, then up to `gathering` more
    /// (never past `deadline`) for `limit` of them. `drained` is true once every producer has
    /// finished and nothing is left.
    ///
    /// Gathering makes the writer's batches whole: taking whatever was there, a first index of
    /// 10,000 photos committed 73 batches, most under 50 rows, each rewriting the index pages it
    /// touched; gathering for 50 ms, it commits 21, and its writer spends about a tenth less.
    func take(limit: Int, until deadline: Date, gathering: TimeInterval = 0.05) -> (items: [Element], drained: Bool) {
        condition.lock()
        defer {
            consumerWants = 0
            condition.unlock()
        }
        consumerWants = 1
        while items.isEmpty && producersLeft > 0 {
            if !condition.wait(until: deadline) { break }
        }
        let gathered = min(deadline, Date().addingTimeInterval(gathering))
        consumerWants = max(1, limit)
        while items.count < limit && producersLeft > 0 && !cancelled {
            if !condition.wait(until: gathered) { break }
        }
        let count = min(limit, items.count)
        let batch = Array(items.prefix(count))
        items.removeFirst(count)
        condition.broadcast()
        return (batch, items.isEmpty && producersLeft == 0)
    }
}
