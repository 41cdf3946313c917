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
    /// `path` as a NUL-terminated C string, for the duration of `body`.
    static func withCPath<R>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
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

    /// Opens a regular file for reading without following a final symlink or blocking on a FIFO.
    static func openForReading(_ path: [UInt8]) -> Result<Int32, Errno> {
        let fd = withCPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        return fd >= 0 ? .success(fd) : .failure(Errno(errno))
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
