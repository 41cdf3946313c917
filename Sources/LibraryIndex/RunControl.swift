import Synchronization

/// The stop flag shared by an index run's threads.
final class RunControl: Sendable {
    private let stopRequested = Atomic<Bool>(false)

    func requestStop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }
}
