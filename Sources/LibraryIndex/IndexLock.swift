#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock that keeps two index runs off one database. Released by the kernel
/// when the process ends, however it ends.
struct IndexLock: ~Copyable {
    private let descriptor: Int32

    /// Takes the lock beside the database at `databasePath`, or throws if another run holds it.
    init(databasePath: String) throws(IndexError) {
        let lockPath = databasePath + "-lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw IndexError(.databaseNotWritable, "Cannot create \(lockPath) (\(Errno(errno))); the database folder must be writable, or choose another place with --db FILE.")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw IndexError(.indexInProgress, "Another `shoebox index` is already writing to \(databasePath); wait for it to finish (or stop it with Ctrl-C), then run again.")
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
