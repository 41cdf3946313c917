import Foundation
import Synchronization

/// A places table loaded the first time a photo with a position needs a place, and then kept:
/// an index of photos without positions never pays for loading it (about a second in a debug
/// build), unless it asked for it ahead (`preloadInBackground()`, a first index's, on a core that
/// would otherwise wait).
///
/// Safe from any thread: callers that ask while it loads wait for that one load. A load that fails
/// (no table installed, or an unreadable one) is reported once to `onFailure` and not tried again;
/// the table then reads as `nil`. An index run's readers start the load on a thread of its own
/// (`loadInBackground()`) and read other files meanwhile, asking `isSettled` before `table`.
public final class LazyPlaceTable: Sendable {
    private enum State {
        case notLoaded
        case loaded(PlaceTable?)
    }

    private let state = Mutex<State>(.notLoaded)
    private let load: @Sendable () throws(PlaceTableError) -> PlaceTable
    private let onFailure: @Sendable (PlaceTableError) -> Void
    private let attempts = Atomic<Int>(0)
    /// Set once `table` answers without waiting: loaded, or failed.
    private let settled = Atomic<Bool>(false)
    private let backgroundLoadStarted = Atomic<Bool>(false)
    /// Broadcast when the table settles, for `waitUntilSettled(timeout:)`.
    private let settling = NSCondition()
    /// Why a load started ahead of need (`preloadInBackground()`) failed, until `table` is asked.
    private let heldFailure = Mutex<PlaceTableError?>(nil)

    /// A table that `load` reads when first needed; `onFailure` hears once why it could not.
    public init(
        loading load: @escaping @Sendable () throws(PlaceTableError) -> PlaceTable,
        onFailure: @escaping @Sendable (PlaceTableError) -> Void = { _ in }
    ) {
        self.load = load
        self.onFailure = onFailure
    }

    /// A table already loaded, or none (no place is ever named).
    public convenience init(_ table: PlaceTable?) {
        self.init(loading: { () throws(PlaceTableError) -> PlaceTable in
            guard let table else { throw PlaceTableError(.missing, "No places table was given.") }
            return table
        })
        if table == nil {
            state.withLock { $0 = .loaded(nil) }
            settle()
        }
    }

    /// The installed table (see `PlaceTable.loadInstalled`), loaded when first needed.
    public static func installed(onFailure: @escaping @Sendable (PlaceTableError) -> Void) -> LazyPlaceTable {
        LazyPlaceTable(loading: { () throws(PlaceTableError) -> PlaceTable in try PlaceTable.loadInstalled() }, onFailure: onFailure)
    }

    /// The table, loading it on the first call; `nil` when it could not be loaded.
    public var table: PlaceTable? { resolve(reportingFailure: true) }

    /// The table, loading it if no one has; a failure goes to `onFailure` now, or, when not
    /// `reportingFailure`, when `table` is next asked.
    private func resolve(reportingFailure: Bool) -> PlaceTable? {
        var failure: PlaceTableError?
        let table = state.withLock { state -> PlaceTable? in
            if case .loaded(let table) = state {
                if reportingFailure { failure = heldFailure.withLock { held in defer { held = nil }; return held } }
                return table
            }
            attempts.add(1, ordering: .relaxed)
            // Settled after a held failure is stored, so that whoever asks next reports it.
            defer { settle() }
            switch Result(catching: { () throws(PlaceTableError) -> PlaceTable in try load() }) {
            case .success(let table):
                state = .loaded(table)
                return table
            case .failure(let error):
                if reportingFailure { failure = error } else { heldFailure.withLock { $0 = error } }
                state = .loaded(nil)
                return nil
            }
        }
        if let failure { onFailure(failure) }
        return table
    }

    /// Whether the table was loaded, or could not be: `table` then answers at once.
    public var isSettled: Bool { settled.load(ordering: .acquiring) }

    /// Waits until the table is settled, at most `timeout` seconds; whether it is.
    public func waitUntilSettled(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        settling.lock()
        defer { settling.unlock() }
        while !isSettled {
            if !settling.wait(until: deadline) { break }
        }
        return isSettled
    }

    private func settle() {
        settling.lock()
        settled.store(true, ordering: .releasing)
        settling.broadcast()
        settling.unlock()
    }

    /// Starts loading the table on a thread of its own, unless it is settled or already loading;
    /// `table` then waits only for what is left of that load.
    public func loadInBackground() {
        startLoading(reportingFailure: true)
    }

    /// Starts loading the table on a thread of its own before any photo needs it, as
    /// `loadInBackground()`, but says nothing of a failure until `table` is asked: a first index
    /// loads it while it creates its database, and only photos with positions need it.
    public func preloadInBackground() {
        startLoading(reportingFailure: false)
    }

    private func startLoading(reportingFailure: Bool) {
        guard !isSettled,
              backgroundLoadStarted.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
        else { return }
        let thread = Thread { [self] in _ = resolve(reportingFailure: reportingFailure) }
        thread.name = "shoebox.places"
        thread.start()
    }

    /// How many times the table was read from its source (0 until a place is needed, then 1).
    public var loadAttempts: Int { attempts.load(ordering: .relaxed) }
}
