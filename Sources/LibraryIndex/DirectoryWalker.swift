import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread of a parallel walk reports to (`DirectoryWalker.walkFiles(visitors:)`): each
/// visitor is called from one thread only, a folder at a time.
protocol FolderVisitor: AnyObject, Sendable {
    func entered(_ folder: RelativePath)
    func found(_ file: borrowing DirectoryWalker.FoundFile)
    func left(_ folder: RelativePath)
}

/// The folders a parallel walk has yet to list, shared by its threads: a thread that finds none
/// waits while others are still listing (they may add subfolders); the walk is over when no folder
/// is left and none is being listed.
private final class PendingFolders: @unchecked Sendable {  // state guarded by `condition`
    private let condition = NSCondition()
    private var folders: [RelativePath]
    private var listing = 0
    private var stopped = false

    init(_ start: RelativePath) {
        folders = [start]
    }

    /// The next folder to list, or nil once the walk is over or stopped.
    func next() -> RelativePath? {
        condition.lock()
        defer { condition.unlock() }
        while folders.isEmpty && listing > 0 && !stopped { condition.wait() }
        guard !stopped, let folder = folders.popLast() else { return nil }
        listing += 1
        return folder
    }

    /// A folder `next()` gave is listed, with these subfolders (in directory order).
    func listed(adding subfolders: [RelativePath]) {
        condition.lock()
        // Reversed so that popping visits subfolders in directory order.
        folders.append(contentsOf: subfolders.reversed())
        listing -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the walk for every thread, in place of `listed` for the folder the caller took: no
    /// folder is handed out any more.
    func stop() {
        condition.lock()
        stopped = true
        listing -= 1
        condition.broadcast()
        condition.unlock()
    }
}

/// Walks a folder tree depth-first and reports every regular file, with its size and modification
/// time when asked for them.
///
/// Symbolic links are not followed (neither to files nor to folders), so a link loop cannot trap the
/// walk. Hidden names and the names in the settings are skipped. A folder that cannot be opened or
/// listed is reported and its contents are left alone.
struct DirectoryWalker {
    struct Entry: Sendable {
        var path: RelativePath
        /// The file's stamp, or nil when `wantsStamp` declined it (the file was not `stat`ed).
        var stamp: FileStamp?
    }

    /// A folder the walk could not read, with the reason.
    struct Failure: Sendable {
        var path: RelativePath
        var error: Errno
    }

    let root: [UInt8]
    let settings: IndexSettings
    /// Whether to take file types from directory entries. False acts as a file system that
    /// reports none (`DT_UNKNOWN`), so every entry is `stat`ed; tests use it to cover that path.
    var trustsEntryTypes = true
    /// Files never reported, such as the index database when it lies inside the root.
    let excluded: Set<RelativePath>
    /// Few names, compared in place with each entry's borrowed name.
    private let skipFolders: [[UInt8]]
    private let skipFiles: [[UInt8]]

    init(root: [UInt8], settings: IndexSettings, excluding excluded: Set<RelativePath> = []) {
        self.root = root
        self.settings = settings
        self.excluded = excluded
        skipFolders = settings.skipFolders.map { Array($0.utf8) }
        skipFiles = settings.skipFiles.map { Array($0.utf8) }
    }

    /// A file the walk is at, valid only during the `walkFiles` callback: its name is borrowed
    /// from the directory entry, so a file the caller does not keep costs no allocation.
    struct FoundFile: ~Copyable {
        /// The folder, relative to the root; the same value for every file of a folder.
        let folder: RelativePath
        /// The file name's bytes, without a terminating NUL.
        let name: UnsafeBufferPointer<UInt8>
        fileprivate let cName: UnsafePointer<CChar>
        fileprivate let descriptor: Int32
        fileprivate let status: stat?

        var path: RelativePath { folder.appending(Array(name)) }

        /// The file's size and modification time (one `fstatat`, unless the walk already has
        /// them), or nil when it vanished or is no longer a regular file.
        func stamp() -> FileStamp? {
            guard let st = status ?? DirectoryWalker.status(of: cName, in: descriptor), FileSystem.isRegularFile(st) else { return nil }
            return FileStamp(st)
        }
    }

    /// Walks the whole tree, calling `found` for each file; returns the folders that could not be read.
    ///
    /// File types come from the directory entries, so only files for which `wantsStamp` returns
    /// true cost a `stat` (and entries of file systems that do not report types). `shouldStop` is
    /// polled once per folder.
    ///
    /// - Parameters:
    ///   - start: the folder to walk, relative to the root (the root itself by default).
    ///   - entered: called with each folder the walk could open, before its entries.
    func walk(
        from start: RelativePath = RelativePath(bytes: []),
        shouldStop: () -> Bool = { false }, wantsStamp: (RelativePath) -> Bool = { _ in true },
        entered: (RelativePath) -> Void = { _ in },
        found: (Entry) -> Void
    ) -> [Failure] {
        walkFiles(from: start, shouldStop: shouldStop, entered: entered) { file in
            let path = file.path
            var stamp: FileStamp?
            if wantsStamp(path) {
                guard let status = file.stamp() else { return }  // vanished since readdir
                stamp = status
            }
            found(Entry(path: path, stamp: stamp))
        }
    }

    /// Walks the whole tree like `walk`, handing each regular file over as a borrowed `FoundFile`,
    /// which `stat`s only when asked for its stamp.
    ///
    /// A folder's files are reported one after the other, between `entered` and `left` with that
    /// folder: when `left` is called, the caller has seen every file of the folder.
    ///
    /// - Parameter left: called with each folder `entered` was called with, after its last entry.
    /// - Complexity: one `opendir` per folder and, for file systems that report entry types, no
    ///   system call per file; no allocation per file either.
    func walkFiles(
        from start: RelativePath = RelativePath(bytes: []),
        shouldStop: () -> Bool = { false },
        entered: (RelativePath) -> Void = { _ in },
        left: (RelativePath) -> Void = { _ in },
        found: (borrowing FoundFile) -> Void
    ) -> [Failure] {
        var failures: [Failure] = []
        var pending: [RelativePath] = [start]
        while let directory = pending.popLast() {
            if shouldStop() { break }
            let subfolders = list(directory, failures: &failures, entered: entered, left: left, found: found)
            // Reversed so that popping visits subfolders in directory order.
            pending.append(contentsOf: subfolders.reversed())
        }
        return failures
    }

    /// Walks the whole tree like `walkFiles`, listing as many folders at once as there are
    /// `visitors`, each visitor on a thread of its own (the calling thread is one of them).
    ///
    /// A folder is listed by one thread, and its files go to that thread's visitor between its
    /// `entered` and `left`; which visitor gets which folder is not fixed. For walks whose cost is
    /// the system calls, a `stat` per file: on two cores, two threads take about half the time.
    func walkFiles<Visitor: FolderVisitor>(
        visitors: [Visitor], from start: RelativePath = RelativePath(bytes: []), shouldStop: @escaping @Sendable () -> Bool
    ) -> [Failure] {
        let pending = PendingFolders(start)
        let failures = Mutex<[Failure]>([])
        let threads = DispatchGroup()
        for (index, visitor) in visitors.enumerated() {
            let work: @Sendable () -> Void = { [self] in
                var found: [Failure] = []
                while let directory = pending.next() {
                    guard !shouldStop() else {
                        pending.stop()
                        break
                    }
                    pending.listed(adding: list(
                        directory, failures: &found, entered: visitor.entered, left: visitor.left, found: { visitor.found($0) }))
                }
                if !found.isEmpty { failures.withLock { $0.append(contentsOf: found) } }
            }
            if index == visitors.count - 1 {
                work()
            } else {
                threads.enter()
                let thread = Thread {
                    work()
                    threads.leave()
                }
                thread.name = "shoebox.walk"
                thread.start()
            }
        }
        threads.wait()
        return failures.withLock { $0 }
    }

    /// Lists one folder: reports its regular files to `found`, between `entered` and `left`, and
    /// returns its subfolders in directory order (none when it cannot be opened: the reason goes
    /// to `failures`).
    private func list(
        _ directory: RelativePath, failures: inout [Failure],
        entered: (RelativePath) -> Void, left: (RelativePath) -> Void, found: (borrowing FoundFile) -> Void
    ) -> [RelativePath] {
        let absolute = directory.bytes.isEmpty ? root : root + [UInt8(ascii: "/")] + directory.bytes
        guard let handle = FileSystem.withCPath(absolute, { opendir($0) }) else {
            failures.append(Failure(path: directory, error: Errno(errno)))
            return []
        }
        defer { closedir(handle) }
        entered(directory)
        let descriptor = dirfd(handle)
        var subdirectories: [RelativePath] = []
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                if errno != 0 { failures.append(Failure(path: directory, error: Errno(errno))) }
                break
            }
            let kindFromEntry = trustsEntryTypes ? Int(entry.pointee.d_type) : Int(DT_UNKNOWN)
            withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { cName in
                    let name = UnsafeBufferPointer(start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
                    if name.count == 1 && name[0] == 0x2E || name.count == 2 && name[0] == 0x2E && name[1] == 0x2E { return }
                    if settings.skipHidden && name.first == 0x2E { return }

                    // Symbolic links, devices and the like are never reported.
                    var st: stat?
                    var kind = kindFromEntry
                    if kind == Int(DT_UNKNOWN) {
                        guard let status = Self.status(of: cName, in: descriptor) else { return }  // vanished since readdir
                        st = status
                        kind = FileSystem.isDirectory(status) ? Int(DT_DIR) : FileSystem.isRegularFile(status) ? Int(DT_REG) : Int(DT_UNKNOWN)
                    }
                    if kind == Int(DT_DIR) {
                        if !skipFolders.contains(where: { $0.elementsEqual(name) }) { subdirectories.append(directory.appending(Array(name))) }
                    } else if kind == Int(DT_REG) {
                        guard !skipFiles.contains(where: { $0.elementsEqual(name) }) else { return }
                        guard excluded.isEmpty || !excluded.contains(directory.appending(Array(name))) else { return }
                        found(FoundFile(folder: directory, name: name, cName: cName, descriptor: descriptor, status: st))
                    }
                }
            }
        }
        left(directory)
        return subdirectories
    }

    /// `fstatat` of an entry of the open folder, without following a symbolic link.
    fileprivate static func status(of name: UnsafePointer<CChar>, in descriptor: Int32) -> stat? {
        var st = stat()
        return fstatat(descriptor, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st : nil
    }
}
