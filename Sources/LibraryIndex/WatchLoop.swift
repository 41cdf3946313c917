import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The watch thread's state: the inotify descriptor and its watches, the files still being
/// written, the debounce clock, and whether the root is here at all.
struct WatchLoop {
    let watcher: LibraryWatcher
    let stop: StopFlag
    let emit: (LibraryWatcher.Event) -> Void
    private let rootPath: [UInt8]
    /// The index's own files when it lies inside the root: every write changes them, so an event
    /// about them is no change to the library (else each run's own writes would start the next).
    private let databaseFiles: Set<RelativePath>
    private var timing: LibraryWatcher.Timing { watcher.timing }

    private var inotify: Int32 = -1
    private var folders: [Int32: RelativePath] = [:]
    private var rootWatch: Int32?
    /// Set once watching proved impossible; from then on, periodic runs (said once).
    private var fallbackReason: String?
    /// The folder the root was when watching (re)started; nil while it is away.
    private var here: RootFolder?
    private var away: Away?
    private var nextRootCheck = ContinuousClock.now
    private var firstChange: ContinuousClock.Instant?
    private var lastChange: ContinuousClock.Instant?
    /// Files opened for writing and not closed yet: left out of runs until they are complete.
    private var writing: [RelativePath: Writing] = [:]
    private var lastRun = ContinuousClock.now
    /// After a failed run (another process holds the index, a full disk), not before this.
    private var retryAt: ContinuousClock.Instant?
    private var reportedOverflow = false

    /// Which folder the root is, so that another folder put in its place is noticed.
    private struct RootFolder {
        var device: UInt64
        var inode: UInt64
        /// Something is mounted on the root: when it is unmounted, the empty folder beneath is
        /// not the library.
        var isMountPoint: Bool
    }

    /// The root went away: when to look for it next.
    private struct Away {
        var delay: Duration
        var nextCheck: ContinuousClock.Instant
        var waitsForMount: Bool
    }

    private struct Writing {
        /// The last event about the file.
        var last: ContinuousClock.Instant
        /// Whether it was written to: then its writer's close (`IN_CLOSE_WRITE`) is sure to come.
        var written: Bool
    }

    init(watcher: LibraryWatcher, stop: StopFlag, emit: @escaping (LibraryWatcher.Event) -> Void) {
        self.watcher = watcher
        self.stop = stop
        self.emit = emit
        rootPath = Array(watcher.root.utf8)
        databaseFiles = watcher.store.ownFiles(inside: watcher.root)
    }

    mutating func run() {
        defer { closeInotify() }
        startWatching()
        index()  // catch up with what changed while nobody watched

        while !stop.isSet {
            if away != nil {
                waitForRoot()
                continue
            }
            checkRootWhenDue()
            if away != nil { continue }
            if inotify < 0 {
                if ContinuousClock.now - lastRun >= timing.fallbackInterval { index() }
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            readEvents(waitingMilliseconds: 100)
            guard away == nil else { continue }
            releaseFilesLeftAlone()
            if isDue() { index() }
        }
    }

    // MARK: The root

    /// Notes which folder the root is, then watches it and every folder in it (unless watching
    /// has proved impossible before).
    private mutating func startWatching() {
        guard let status = rootStatus() else {
            goAway("is no longer there")
            return
        }
        here = RootFolder(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), isMountPoint: isMountPoint(status))
        nextRootCheck = .now + timing.rootCheckInterval
        guard fallbackReason == nil else { return }
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if inotify < 0 {
            fallBack("inotify is not available (\(Errno(errno)))")
            return
        }
        watchTree(from: RelativePath(bytes: []))
        guard fallbackReason == nil else { return }
        if rootWatch == nil {
            goAway("is no longer there")
        } else {
            emit(.watching(folders: folders.count))
        }
    }

    /// The root's status when it is a folder, following a symbolic link.
    private func rootStatus() -> stat? {
        guard case .success(let status) = FileSystem.status(rootPath), FileSystem.isDirectory(status) else { return nil }
        return status
    }

    /// Whether `status`, the root's, is of another file system than the folder above it.
    private func isMountPoint(_ status: stat) -> Bool {
        guard case .success(let parent) = FileSystem.status(rootPath + Array("/..".utf8)) else { return false }
        return parent.st_dev != status.st_dev
    }

    /// Whether the root is still the folder watching started on; if not, the watcher goes away.
    @discardableResult
    private mutating func checkRoot() -> Bool {
        guard let status = rootStatus() else {
            goAway("is no longer there")
            return false
        }
        guard let here else { return true }
        if here.isMountPoint && !isMountPoint(status) {
            goAway("was unmounted")
            return false
        }
        if UInt64(status.st_dev) != here.device || UInt64(status.st_ino) != here.inode {
            goAway("was replaced by another folder")
            return false
        }
        return true
    }

    private mutating func checkRootWhenDue() {
        let now = ContinuousClock.now
        guard now >= nextRootCheck else { return }
        nextRootCheck = now + timing.rootCheckInterval
        checkRoot()
    }

    /// Stops watching and running until the root is back: a run now would find nothing there and
    /// take every photo for gone.
    private mutating func goAway(_ reason: String) {
        let waitsForMount = here?.isMountPoint ?? false
        closeInotify()
        here = nil
        writing.removeAll()
        firstChange = nil
        lastChange = nil
        retryAt = nil
        away = Away(delay: timing.rootCheckInitial, nextCheck: .now + timing.rootCheckInitial, waitsForMount: waitsForMount)
        emit(.rootGone(reason: reason, waitsForMount: waitsForMount))
    }

    /// Looks for the root when it is time, waiting longer after each look that does not find it;
    /// once it is back, watches it again and catches up.
    private mutating func waitForRoot() {
        guard var away else { return }
        let now = ContinuousClock.now
        guard now >= away.nextCheck else {
            Thread.sleep(forTimeInterval: min(0.1, (away.nextCheck - now).inSeconds))
            return
        }
        if let status = rootStatus(), !away.waitsForMount || isMountPoint(status) {
            self.away = nil
            emit(.rootReturned)
            startWatching()
            // The catch-up run waits, like any change, until the folder is quiet: a root restored
            // by a copy is back as soon as the copy has made it, long before the copy is done.
            changed()
            lastRun = .now
        } else {
            away.delay = min(away.delay * 2, timing.rootCheckMaximum)
            away.nextCheck = now + away.delay
            self.away = away
        }
    }

    // MARK: Watches

    private mutating func watchTree(from start: RelativePath) {
        let walker = DirectoryWalker(root: rootPath, settings: watcher.settings)
        var entered: [RelativePath] = []
        let stop = self.stop
        _ = walker.walk(from: start, shouldStop: { stop.isSet }, wantsStamp: { _ in false }, entered: { entered.append($0) }, found: { _ in })
        for folder in entered { addWatch(folder) }
    }

    private mutating func addWatch(_ folder: RelativePath) {
        guard fallbackReason == nil, inotify >= 0 else { return }
        if let limit = timing.watchLimit, folders.count >= limit {
            fallBack("the folder limit for watching (\(limit)) was reached")
            return
        }
        let path = folder.bytes.isEmpty ? rootPath : rootPath + [UInt8(ascii: "/")] + folder.bytes
        let mask = UInt32(
            IN_CREATE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
                | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW)
        let wd = FileSystem.withCPath(path) { inotify_add_watch(inotify, $0, mask) }
        if wd >= 0 {
            folders[wd] = folder
            if folder.bytes.isEmpty { rootWatch = wd }
        } else if errno == ENOSPC || errno == ENOMEM {
            fallBack("the system's inotify watches are used up (raise fs.inotify.max_user_watches)")
        }
    }

    private mutating func fallBack(_ reason: String) {
        guard fallbackReason == nil else { return }
        fallbackReason = reason
        closeInotify()
        emit(.fallback(reason: "\(reason): checking for changes every \(timing.fallbackInterval) instead"))
    }

    private mutating func closeInotify() {
        if inotify >= 0 { close(inotify) }
        inotify = -1
        folders.removeAll()
        rootWatch = nil
    }

    // MARK: Events

    private mutating func readEvents(waitingMilliseconds timeout: Int32) {
        var poller = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while inotify >= 0 {
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
                    // Events were lost, closes among them: the next run is a full incremental pass.
                    if !reportedOverflow { emit(.eventsOverflowed) }
                    reportedOverflow = true
                    writing.removeAll()
                    changed()
                    continue
                }
                if wd == rootWatch, let reason = Self.rootLoss(mask) {
                    goAway(reason)  // closes the descriptor: the rest of the buffer is moot
                    return
                }
                guard let folder = folders[wd] else { continue }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_UNMOUNT) != 0 {
                    if mask & UInt32(IN_IGNORED) != 0 { folders[wd] = nil }
                    changed()
                    continue
                }
                if mask & UInt32(IN_MOVE_SELF) != 0 { continue }  // its parent reports the move
                if watcher.settings.skipHidden && nameBytes.first == UInt8(ascii: ".") { continue }
                let path = folder.appending(nameBytes)
                if !databaseFiles.isEmpty && databaseFiles.contains(path) { continue }
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { newFolders.append(path) }
                    changed()
                } else if mask & UInt32(IN_CREATE) != 0 {
                    writing[path] = Writing(last: .now, written: false)
                } else if mask & UInt32(IN_MODIFY) != 0 {
                    writing[path] = Writing(last: .now, written: true)
                } else {
                    // Closed after writing, moved in or out, deleted, touched: complete or gone.
                    writing[path] = nil
                    changed()
                }
            }
            // Folders that appeared (a copied tree): watch them and everything already in them.
            for folder in newFolders { watchTree(from: folder) }
        }
    }

    /// Why an event on the root's own watch means the root is gone, if it does.
    private static func rootLoss(_ mask: UInt32) -> String? {
        if mask & UInt32(IN_UNMOUNT) != 0 { return "was unmounted" }
        if mask & UInt32(IN_DELETE_SELF) != 0 { return "was deleted" }
        if mask & UInt32(IN_MOVE_SELF) != 0 { return "was moved away or renamed" }
        if mask & UInt32(IN_IGNORED) != 0 { return "can no longer be watched" }
        return nil
    }

    private mutating func changed() {
        let now = ContinuousClock.now
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    /// Files created and then left alone for the grace period without being written to (a hard
    /// link, whose creator never closes it) are read, unless they are still empty.
    private mutating func releaseFilesLeftAlone() {
        guard !writing.isEmpty else { return }
        let now = ContinuousClock.now
        for (path, file) in writing where !file.written && now - file.last >= timing.openFileGrace {
            if case .success(let status) = FileSystem.status(rootPath + [UInt8(ascii: "/")] + path.bytes), status.st_size == 0 {
                writing[path]?.last = now
            } else {
                writing[path] = nil
                changed()
            }
        }
    }

    /// Whether the changes have settled: quiet for a moment, or begun too long ago. Files still
    /// being written do not hold a run back: the run leaves them out.
    private func isDue() -> Bool {
        guard let firstChange, let lastChange else { return false }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt { return false }
        return now - lastChange >= timing.quiet || now - firstChange >= timing.maximumDelay
    }

    // MARK: Runs

    private mutating func index() {
        // Never a run without the root: it would take every photo for gone.
        guard away == nil, checkRoot() else { return }
        firstChange = nil
        lastChange = nil
        lastRun = .now
        emit(.runStarted)
        let job = IndexJob(root: watcher.root, store: watcher.store, settings: watcher.settings, places: watcher.places, prune: false, deferring: Set(writing.keys))
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

extension Duration {
    /// In seconds, for `Thread.sleep`.
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
