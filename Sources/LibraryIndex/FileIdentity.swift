#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file by device and inode, so that two names of one file (a hard link, `..` in a path) are one.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` from `stat`, which opens no descriptor (a descriptor of
    /// the database, once closed, would drop SQLite's locks); `nil` if there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
