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
            throw IndexError(.databaseNotWritable, "Cannot create \(lockPath) (\(Errno(errno))): the database folder must be writable.", subject: databasePath)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw IndexError(.indexInProgress, "Another index run is already writing to \(databasePath).", subject: databasePath)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
