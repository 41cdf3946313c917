import Foundation
public import Places
import Synchronization

/// Keeps an index in step with its folder while it runs: one inotify watch per folder (new folders
/// are watched as they appear), and an incremental run once changes settle, so a camera import of
/// 500 files is one run, not 500. When watches run out (`max_user_watches`) or inotify cannot be
/// had, it says so once and falls back to periodic incremental runs: never a silent miss.
///
/// A file is read once it is complete: a file opened for writing is left out of runs until its
/// writer closes it, so a slow copy is never read half-written. When the root itself goes away
/// (moved, deleted, unmounted), the watcher says so, runs nothing (so nothing is removed from
/// the index), checks for it with a growing interval, and once it is back catches up and
/// watches again. A root that was a mount point is back only once something is mounted there.
///
/// ```swift
/// let watcher = LibraryWatcher(root: root, store: store)
/// for await event in watcher.events() { … }   // stop by leaving the loop
/// ```
public final class LibraryWatcher: Sendable {
    /// How eagerly the watcher runs.
    public struct Timing: Sendable {
        /// A run starts once no change has arrived for this long…
        public var quiet: Duration
        /// …or this long after the first change, however busy the folder is.
        public var maximumDelay: Duration
        /// A file created but never written to (a hard link, a file still empty) is read once
        /// nothing has happened to it for this long. A file that was written to waits for its
        /// writer to close it, however long that takes.
        public var openFileGrace: Duration
        /// Between runs when watching is not possible.
        public var fallbackInterval: Duration
        /// The most folders watched before falling back, as if `max_user_watches` were reached
        /// (`nil`: the kernel's own limit). Lets tests exhaust the watches.
        public var watchLimit: Int?
        /// The first wait before checking whether a root that went away is back; each check that
        /// finds it still away doubles the wait, up to `rootCheckMaximum`.
        public var rootCheckInitial: Duration
        /// The longest wait between two checks for a root that went away.
        public var rootCheckMaximum: Duration
        /// How often a watched root is checked for being the same folder still (a parent folder
        /// renamed or unmounted sends no event on the root itself).
        public var rootCheckInterval: Duration

        public init(
            quiet: Duration = .milliseconds(400), maximumDelay: Duration = .seconds(3),
            openFileGrace: Duration = .seconds(10), fallbackInterval: Duration = .seconds(30), watchLimit: Int? = nil,
            rootCheckInitial: Duration = .milliseconds(500), rootCheckMaximum: Duration = .seconds(30),
            rootCheckInterval: Duration = .seconds(2)
        ) {
            self.quiet = quiet
            self.maximumDelay = maximumDelay
            self.openFileGrace = openFileGrace
            self.fallbackInterval = fallbackInterval
            self.watchLimit = watchLimit
            self.rootCheckInitial = rootCheckInitial
            self.rootCheckMaximum = max(rootCheckMaximum, rootCheckInitial)
            self.rootCheckInterval = rootCheckInterval
        }
    }

    /// What the watcher is doing, for a log or a live view.
    public enum Event: Sendable {
        /// Watching `folders` folders for changes.
        case watching(folders: Int)
        /// Watching is not (or no longer) possible; periodic runs from now on.
        case fallback(reason: String)
        /// A run started because of changes (or the periodic fallback).
        case runStarted
        /// Progress of the current run.
        case progress(IndexProgress)
        /// A run finished (completed or stopped), with its totals.
        case runFinished(IndexProgress)
        /// A run could not be done; the watcher tries again later.
        case runFailed(IndexError)
        /// The kernel dropped change events (its queue overflowed); the next run is a full
        /// incremental pass that finds them. Reported once.
        case eventsOverflowed
        /// The root went away (`reason`: "was moved away or renamed", "was deleted", "was
        /// unmounted", "was replaced by another folder", "is no longer there").
        /// No run happens until it is back, so nothing is removed from the index meanwhile;
        /// `waitsForMount` when it was a mount point, and only a mount there brings it back.
        case rootGone(reason: String, waitsForMount: Bool)
        /// The root is back: a run catches up, and watching starts again.
        case rootReturned
    }

    public let root: String
    let store: LibraryStore
    let settings: IndexSettings
    let places: LazyPlaceTable
    let timing: Timing
    private let stopFlag = StopFlag()

    /// A watcher whose runs name places from `places` (loaded when first needed).
    public init(
        root: String, store: LibraryStore, settings: IndexSettings = .default, places: LazyPlaceTable,
        timing: Timing = Timing()
    ) throws(IndexError) {
        try settings.validate()
        self.root = try Indexer.resolveRoot(root)
        self.store = store
        self.settings = settings
        self.places = places
        self.timing = timing
    }

    /// A watcher with a table already loaded, or none.
    public convenience init(
        root: String, store: LibraryStore, settings: IndexSettings = .default, places: PlaceTable? = nil,
        timing: Timing = Timing()
    ) throws(IndexError) {
        try self.init(root: root, store: store, settings: settings, places: LazyPlaceTable(places), timing: timing)
    }

    /// Starts watching: a first run catches up with changes made while nobody watched, then every
    /// settled batch of changes gets a run. Stops when the consumer stops iterating.
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        let stop = stopFlag
        continuation.onTermination = { _ in stop.set() }
        start(onEvent: { continuation.yield($0) }, onFinish: { continuation.finish() })
        return stream
    }

    /// Starts watching on a thread of its own and calls `onEvent` there for every event, then
    /// `onFinish` once `stop()` has taken effect. For callers without an async context (and tests
    /// that must not depend on the cooperative thread pool being free).
    public func start(onEvent: @escaping @Sendable (Event) -> Void, onFinish: @escaping @Sendable () -> Void = {}) {
        let stop = stopFlag
        let thread = Thread { [self] in
            var loop = WatchLoop(watcher: self, stop: stop, emit: onEvent)
            loop.run()
            onFinish()
        }
        thread.name = "shoebox.watch"
        thread.start()
    }
}

extension LibraryWatcher {
    /// Stops watching: a run in progress commits what it read, then the event stream ends.
    /// Safe to call from any thread.
    public func stop() {
        stopFlag.set()
    }
}

/// Set once, read from the watch thread.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}
