import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps an index in step with its folder while it runs: one inotify watch per folder (new folders
/// are watched as they appear), and an incremental run once changes settle, so a camera import of
/// 500 files is one run, not 500. When watches run out (`max_user_watches`) or the kernel's event
/// queue overflows, it says so once and falls back to periodic incremental runs: never a silent miss.
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
        /// A file still open for writing holds the run back at most this long after its last change.
        public var openFileGrace: Duration
        /// Between runs when watching is not possible.
        public var fallbackInterval: Duration
        /// The most folders watched before falling back, as if `max_user_watches` were reached
        /// (`nil`: the kernel's own limit). Lets tests exhaust the watches.
        public var watchLimit: Int?

        public init(
            quiet: Duration = .milliseconds(400), maximumDelay: Duration = .seconds(3),
            openFileGrace: Duration = .seconds(10), fallbackInterval: Duration = .seconds(30), watchLimit: Int? = nil
        ) {
            self.quiet = quiet
            self.maximumDelay = maximumDelay
            self.openFileGrace = openFileGrace
            self.fallbackInterval = fallbackInterval
            self.watchLimit = watchLimit
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
    }

    public let root: String
    let store: LibraryStore
    let settings: IndexSettings
    let timing: Timing
    private let stopFlag = StopFlag()

    public init(root: String, store: LibraryStore, settings: IndexSettings = .default, timing: Timing = Timing()) throws(IndexError) {
        try settings.validate()
        self.root = try Indexer.resolveRoot(root)
        self.store = store
        self.settings = settings
        self.timing = timing
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

/// The watch thread's state: the inotify descriptor, its watches, and the debounce clock.
private struct WatchLoop {
    let watcher: LibraryWatcher
    let stop: StopFlag
    let emit: (LibraryWatcher.Event) -> Void

    private var inotify: Int32 = -1
    private var folders: [Int32: RelativePath] = [:]
    private var fallbackReason: String?
    private var firstChange: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?
    /// Files created or modified and not yet closed after writing, by watch and name.
    private var openForWriting: Set<String> = []
    private var lastRun = ContinuousClock.now
    /// After a failed run (another process holds the index, a full disk), not before this.
    private var retryAt: ContinuousClock.Instant?
    private var reportedOverflow = false

    init(watcher: LibraryWatcher, stop: StopFlag, emit: @escaping (LibraryWatcher.Event) -> Void) {
        self.watcher = watcher
        self.stop = stop
        self.emit = emit
    }

    mutating func run() {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotify < 0 {
            fallBack("inotify is not available (\(Errno(errno)))")
        } else {
            watchTree(from: RelativePath(bytes: []))
            if fallbackReason == nil { emit(.watching(folders: folders.count)) }
        }
        defer { if inotify >= 0 { close(inotify) } }
        index()  // catch up with what changed while nobody watched

        while !stop.isSet {
            if fallbackReason != nil {
                if ContinuousClock.now - lastRun >= watcher.timing.fallbackInterval { index() }
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            readEvents(waitingMilliseconds: 100)
            if isDue() { index() }
        }
    }

    // MARK: Watches

    private mutating func watchTree(from start: RelativePath) {
        let walker = DirectoryWalker(root: Array(watcher.root.utf8), settings: watcher.settings)
        var entered: [RelativePath] = []
        let stop = self.stop
        _ = walker.walk(from: start, shouldStop: { stop.isSet }, wantsStamp: { _ in false }, entered: { entered.append($0) }, found: { _ in })
        for folder in entered { addWatch(folder) }
    }

    private mutating func addWatch(_ folder: RelativePath) {
        guard fallbackReason == nil else { return }
        if let limit = watcher.timing.watchLimit, folders.count >= limit {
            fallBack("the folder limit for watching (\(limit)) was reached")
            return
        }
        let path = Array(watcher.root.utf8) + (folder.bytes.isEmpty ? [] : [UInt8(ascii: "/")] + folder.bytes)
        let mask = UInt32(IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW)
        let wd = FileSystem.withCPath(path) { inotify_add_watch(inotify, $0, mask) }
        if wd >= 0 {
            folders[wd] = folder
        } else if errno == ENOSPC {
            fallBack("the system's inotify watches are used up (raise fs.inotify.max_user_watches)")
        }
    }

    private mutating func fallBack(_ reason: String) {
        guard fallbackReason == nil else { return }
        fallbackReason = reason
        if inotify >= 0 {
            close(inotify)
            inotify = -1
        }
        folders.removeAll()
        emit(.fallback(reason: "\(reason): checking for changes every \(watcher.timing.fallbackInterval) instead"))
    }

    // MARK: Events

    private mutating func readEvents(waitingMilliseconds timeout: Int32) {
        var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress!, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            var newFolders: [RelativePath] = []
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = Array(buffer[nameStart..<(nameStart + length)].prefix { $0 != 0 })
                offset = nameStart + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: the next run is a full incremental pass, which finds them.
                    if !reportedOverflow { emit(.eventsOverflowed) }
                    reportedOverflow = true
                    changed()
                    continue
                }
                guard let folder = folders[wd] else { continue }
                if mask & UInt32(IN_IGNORED) != 0 || mask & UInt32(IN_DELETE_SELF) != 0 {
                    folders[wd] = nil
                    changed()
                    continue
                }
                if watcher.settings.skipHidden && nameBytes.first == UInt8(ascii: ".") { continue }
                let key = "\(wd)/" + String(decoding: nameBytes, as: UTF8.self)
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { newFolders.append(folder.appending(nameBytes)) }
                } else if mask & UInt32(IN_CREATE | IN_MODIFY) != 0 {
                    openForWriting.insert(key)
                } else if mask & UInt32(IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM) != 0 {
                    openForWriting.remove(key)
                }
                changed()
            }
            // Folders that appeared (a copied tree): watch them and everything already in them.
            for folder in newFolders { watchTree(from: folder) }
        }
    }

    private mutating func changed() {
        let now = ContinuousClock.now
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// Whether the changes have settled: quiet for a moment, and no file still being written
    /// (unless it has been quiet for the grace period, or the changes began too long ago).
    private func isDue() -> Bool {
        guard let firstChange, let lastChange else { return false }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt { return false }
        let quiet = now - lastChange
        if !openForWriting.isEmpty && quiet < watcher.timing.openFileGrace { return false }
        return quiet >= watcher.timing.quiet || now - firstChange >= watcher.timing.maximumDelay + (openForWriting.isEmpty ? .zero : watcher.timing.openFileGrace)
    }

    // MARK: Runs

    private mutating func index() {
        firstChange = nil
        lastChange = nil
        openForWriting.removeAll()
        lastRun = .now
        emit(.runStarted)
        let job = IndexJob(root: watcher.root, store: watcher.store, settings: watcher.settings, prune: false)
        let stop = self.stop
        let stopper = Thread {
            while !job.control.isStopRequested {
                if stop.isSet { job.control.requestStop() }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        var last = IndexProgress()
        do {
            stopper.start()
            try job.execute { progress in
                last = progress
                emit(.progress(progress))
            }
            emit(.runFinished(last))
            retryAt = nil
        } catch {
            emit(.runFailed(error))
            // Another process holds the lock (or the disk is full): try again in a while.
            changed()
            retryAt = .now + .seconds(error.code == .indexInProgress ? 1 : 10)
        }
        job.control.requestStop()  // ends the stopper thread
        lastRun = .now
    }
}
