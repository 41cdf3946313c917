#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Size and modification time of a file, as the crawler compares them between runs.
struct FileStamp: Sendable, Hashable {
    var size: Int64
    /// Nanoseconds since 1970.
    var modified: Int64

    init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }

    init(_ st: stat) {
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        #else
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        #endif
    }
}

/// Thin wrappers over the POSIX calls the crawler needs, taking paths as bytes.
enum FileSystem {
    /// `path` as a NUL-terminated C string, for the duration of `body`: copied once, onto the
    /// stack when it is short (a reader opens every file of a run through here).
    static func withCPath<R>(_ path: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) -> R) -> R {
        let count = path.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<count]).copyBytes(from: path)
            buffer[count] = 0
            return body(buffer.baseAddress!)
        }
    }

    /// `stat` of a path, following symbolic links, or the `errno` that refused it.
    static func status(_ path: [UInt8]) -> Result<stat, Errno> {
        var st = stat()
        let rc = withCPath(path) { stat($0, &st) }
        return rc == 0 ? .success(st) : .failure(Errno(errno))
    }

    /// `lstat` of a path (a final symbolic link is not followed), or `nil`.
    static func linkStatus(_ path: [UInt8]) -> stat? {
        var st = stat()
        return withCPath(path) { lstat($0, &st) } == 0 ? st : nil
    }

    /// Opens a regular file for reading without following a final symlink or blocking on a FIFO;
    /// a relative `path` is looked up in the folder open at `folder` (by default the working one).
    static func openForReading(_ path: some Collection<UInt8>, inFolder folder: Int32 = AT_FDCWD) -> Result<Int32, Errno> {
        let fd = withCPath(path) { openat(folder, $0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        return fd >= 0 ? .success(fd) : .failure(Errno(errno))
    }

    /// A descriptor of the folder at `path` to open files in, or -1. On Linux it only names the
    /// folder (`O_PATH`): that needs no permission to list the folder, only to pass through it,
    /// as opening a file by its path does.
    static func openFolder(_ path: some Collection<UInt8>) -> Int32 {
        #if os(Linux)
        let pathOnly: Int32 = 0o10_000_000  // O_PATH, which Swift's Glibc module leaves out (a GNU extension)
        let flags = pathOnly | O_DIRECTORY | O_CLOEXEC
        #else
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        #endif
        return withCPath(path) { open($0, flags) }
    }

    static func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }
    static func isRegularFile(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
}

/// A POSIX error number with its message.
struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    var rawValue: Int32

    init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    var description: String { String(cString: strerror(rawValue)) }
}

/// Opens the files of a run one after another, through a descriptor of the folder they are in:
/// `openat` looks up the file's name alone rather than walking the whole path from `/` again.
/// Opening was about a seventh of a reader's samples in a warm first index of 10,000 files, and
/// looking up the path about half of that.
///
/// A reader keeps one, for the folder of its last file: the walk hands files over a folder at a
/// time, so most files are opened in the folder of the one before. A folder that cannot be
/// opened is not kept; its file is opened by its whole path, with that path's error.
///
/// A descriptor follows its folder when the folder is renamed, so it serves at most
/// `filesPerDescriptor` files before the folder is looked up by its path again: a folder renamed
/// or replaced during a run is seen soon, as a file's path would see it.
struct FolderOpener: ~Copyable {
    static let filesPerDescriptor = 64

    /// The root's bytes followed by `/`.
    private let rootPrefix: [UInt8]
    /// The folder `descriptor` is open at, relative to the root (empty for the root).
    private var folder: ArraySlice<UInt8> = []
    private var descriptor: Int32 = -1
    /// Files opened through `descriptor` so far.
    private var served = 0

    init(rootPrefix: [UInt8]) {
        self.rootPrefix = rootPrefix
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Opens the file at `path` (relative to the root) as `FileSystem.openForReading` does.
    mutating func open(_ path: RelativePath) -> Result<Int32, Errno> {
        let folder = path.folderBytes
        if descriptor < 0 || served == Self.filesPerDescriptor || !folder.elementsEqual(self.folder) {
            if descriptor >= 0 { close(descriptor) }
            self.folder = folder
            served = 0
            descriptor = FileSystem.openFolder(rootPrefix + folder)
            guard descriptor >= 0 else { return FileSystem.openForReading(rootPrefix + path.bytes) }
        }
        served += 1
        return FileSystem.openForReading(path.nameBytes, inFolder: descriptor)
    }
}
