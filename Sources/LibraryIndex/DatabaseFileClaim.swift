#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Marks a database file as open by a `LibraryStore` of this process, for as long as the store lives.
///
/// SQLite's locks are POSIX (`fcntl`) locks, which belong to the process and the file, not to a
/// descriptor: closing *any* descriptor of the file, even one opened only to read its header,
/// drops every lock the process's connections hold on it (SQLite's "How To Corrupt An SQLite
/// Database File", 2.2). Another process closing its last connection then believes it is alone,
/// checkpoints and deletes the `-wal` under the live connection. So the file is read outside
/// SQLite only while no claim on it exists; later opens in the same process check it through
/// SQLite, or not at all (the first open checked this very file).
final class DatabaseFileClaim: Sendable {
    /// A file by device and inode, so that two spellings of one path are one file.
    struct FileID: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Claims per file of this process.
    private static let claims = Mutex<[FileID: Int]>([:])

    let file: FileID

    /// Claims the existing file at `path`. When no claim on it exists yet, runs `firstOpen` (which
    /// may read the file outside SQLite) before the claim is taken, with other claims of the
    /// process waiting; returns `nil` when there is no file at `path`.
    static func claim(path: String, firstOpen: () throws(IndexError) -> Void) throws(IndexError) -> DatabaseFileClaim? {
        guard let file = fileID(path) else { return nil }
        return try claims.withLock { counts throws(IndexError) -> DatabaseFileClaim in
            if counts[file, default: 0] == 0 { try firstOpen() }
            counts[file, default: 0] += 1
            return DatabaseFileClaim(file: file)
        }
    }

    /// Claims the file at `path` that a connection of this process has just created.
    static func claimCreated(path: String) -> DatabaseFileClaim? {
        guard let file = fileID(path) else { return nil }
        claims.withLock { $0[file, default: 0] += 1 }
        return DatabaseFileClaim(file: file)
    }

    private init(file: FileID) {
        self.file = file
    }

    deinit {
        Self.claims.withLock { counts in
            let left = counts[file, default: 1] - 1
            counts[file] = left > 0 ? left : nil
        }
    }

    /// The file's identity from `stat` (which opens no descriptor), or `nil` if there is none.
    static func fileID(_ path: String) -> FileID? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileID(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }
}
