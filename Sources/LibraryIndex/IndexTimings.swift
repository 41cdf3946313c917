import Synchronization

/// Where the time of one index run went, phase by phase: filled only when a benchmark asks for it
/// (`Indexer.timings`), so that a slow phase can be named rather than guessed.
///
/// Phases that run on several threads at once (reading, place look-ups) add up every thread's
/// time, so the phases can add up to more than the run's wall time.
package final class IndexTimings: Sendable {
    package enum Phase: Int, CaseIterable, Sendable {
        /// Claiming the root and loading the stamps of the index.
        case start
        /// The walk's thread, from start to end (it overlaps the reading).
        case walk
        /// Opening, `fstat` and reading each file's metadata and sidecars, on every reader thread.
        case read
        /// Finding the nearest place of each position (loading the table included).
        case placeLookup
        /// Writing the photo rows, batch by batch (the search triggers included where they fire).
        case insert
        /// Writing the search index's words of each batch's rows.
        case searchIndex
        /// Grouping the photos into the stored section tables.
        case sections
        /// Removals, Live Photo pairs, pending places, closing the run and the checkpoint.
        case finish
        /// Of `finish`: linking Live Photo pairs and finding the stacks.
        case pairsAndStacks

        package var name: String {
            switch self {
            case .start: "start (root, stamps)"
            case .walk: "walk and stat (walk thread)"
            case .read: "metadata read (all readers)"
            case .placeLookup: "place lookup (all readers)"
            case .insert: "DB insert (writer)"
            case .searchIndex: "search index (writer)"
            case .sections: "stored sections"
            case .finish: "finish: pairs, run row, commit"
            case .pairsAndStacks: "  of which pairs and stacks"
            }
        }
    }

    private let nanoseconds = Mutex<[Int64]>(Array(repeating: 0, count: Phase.allCases.count))

    package init() {}

    /// Adds `duration` to `phase`.
    package func add(_ duration: Duration, to phase: Phase) {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        nanoseconds.withLock { $0[phase.rawValue] += total }
    }

    /// The time spent in `phase` so far.
    package subscript(phase: Phase) -> Duration {
        .nanoseconds(nanoseconds.withLock { $0[phase.rawValue] })
    }
}

extension IndexTimings? {
    /// Runs `body`, adding its time to `phase` when there are timings to fill.
    @inline(__always)
    func measure<T, E: Error>(_ phase: IndexTimings.Phase, _ body: () throws(E) -> T) throws(E) -> T {
        guard let timings = self else { return try body() }
        let start = ContinuousClock.now
        defer { timings.add(ContinuousClock.now - start, to: phase) }
        return try body()
    }
}
