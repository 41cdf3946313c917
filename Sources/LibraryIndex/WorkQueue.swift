import Foundation

/// Hands items to any number of threads, each item to one of them, while its producer may still
/// be appending: a thread that finds the queue empty waits for more until the queue is closed.
///
/// Keeps every item appended (`items`), so the producer can tell what it has queued.
final class WorkQueue<Element: Sendable>: @unchecked Sendable {  // state guarded by `condition`
    private let condition = NSCondition()
    private var queued: [Element] = []
    /// The index of the next item to hand out.
    private var taken = 0
    private var isClosed = false

    /// Appends `items` (dropped once the queue is closed); returns how many were appended in all.
    @discardableResult
    func append(contentsOf items: some Collection<Element>) -> Int {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return queued.count }
        queued.append(contentsOf: items)
        condition.broadcast()
        return queued.count
    }

    /// No more items: `next()` returns nil once the rest has been handed out.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Closes the queue and hands out nothing more, for a run that stops at once.
    func cancel() {
        condition.lock()
        isClosed = true
        taken = queued.count
        condition.broadcast()
        condition.unlock()
    }

    /// The next item, waiting for one while the queue is open; nil once it is closed and every
    /// item has been handed out.
    func next() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while taken == queued.count && !isClosed { condition.wait() }
        guard taken < queued.count else { return nil }
        taken += 1
        return queued[taken - 1]
    }

    /// How many items were appended so far, handed out or not.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued.count
    }

    /// Every item appended so far, handed out or not.
    var items: [Element] {
        condition.lock()
        defer { condition.unlock() }
        return queued
    }
}
