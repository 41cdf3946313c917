#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    private let skipFolders: Set<[UInt8]>
    private let skipFiles: Set<[UInt8]>

    init(root: [UInt8], settings: IndexSettings, excluding excluded: Set<RelativePath> = []) {
        self.root = root
        self.settings = settings
        self.excluded = excluded
        skipFolders = Set(settings.skipFolders.map { Array($0.utf8) })
        skipFiles = Set(settings.skipFiles.map { Array($0.utf8) })
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
        var failures: [Failure] = []
        var pending: [RelativePath] = [start]
        while let directory = pending.popLast() {
            if shouldStop() { break }
            let absolute = directory.bytes.isEmpty ? root : root + [UInt8(ascii: "/")] + directory.bytes
            guard let handle = FileSystem.withCPath(absolute, { opendir($0) }) else {
                failures.append(Failure(path: directory, error: Errno(errno)))
                continue
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
                let name = Self.name(of: entry)
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                if settings.skipHidden && name.first == 0x2E { continue }

                // Symbolic links, devices and the like are never reported.
                var st: stat?
                var kind = trustsEntryTypes ? Int(entry.pointee.d_type) : Int(DT_UNKNOWN)
                if kind == Int(DT_UNKNOWN) {
                    guard let status = Self.status(of: name, in: descriptor) else { continue }  // vanished since readdir
                    st = status
                    kind = FileSystem.isDirectory(status) ? Int(DT_DIR) : FileSystem.isRegularFile(status) ? Int(DT_REG) : Int(DT_UNKNOWN)
                }
                if kind == Int(DT_DIR) {
                    if !skipFolders.contains(name) { subdirectories.append(directory.appending(name)) }
                } else if kind == Int(DT_REG) {
                    let path = directory.appending(name)
                    guard !skipFiles.contains(name) && !excluded.contains(path) else { continue }
                    var stamp: FileStamp?
                    if wantsStamp(path) {
                        guard let status = st ?? Self.status(of: name, in: descriptor), FileSystem.isRegularFile(status) else { continue }
                        stamp = FileStamp(status)
                    }
                    found(Entry(path: path, stamp: stamp))
                }
            }
            // Reversed so that popping visits subfolders in directory order.
            pending.append(contentsOf: subdirectories.reversed())
        }
        return failures
    }

    /// `fstatat` of an entry of the open folder, without following a symbolic link.
    private static func status(of name: [UInt8], in descriptor: Int32) -> stat? {
        var st = stat()
        let rc = FileSystem.withCPath(name) { fstatat(descriptor, $0, &st, AT_SYMLINK_NOFOLLOW) }
        return rc == 0 ? st : nil
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let length = bytes.firstIndex(of: 0) ?? bytes.count
            return Array(bytes[..<length])
        }
    }
}
