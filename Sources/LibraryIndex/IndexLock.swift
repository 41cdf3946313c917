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
    ///
    /// The lock is an `flock` on its own file (`DATABASE-lock`), never a lock on the database:
    /// `flock` locks belong to the open file, so closing other descriptors cannot drop them, and
    /// the database file itself is opened only by SQLite (see `LibraryStore.checkIsShoeboxDatabase`).
    init(databasePath: String) throws(IndexError) {
        try self.init(databasePath: databasePath, waitingUpTo: .zero)
    }

    /// Takes the lock, waiting up to `patience` for another run to release it (used while a
    /// database is created or migrated, which takes a moment).
    init(databasePath: String, waitingUpTo patience: Duration) throws(IndexError) {
        let lockPath = databasePath + "-lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw IndexError(.databaseNotWritable, "Cannot create \(lockPath) (\(Errno(errno))): the database folder must be writable.", subject: databasePath)
        }
        let end = ContinuousClock.now + patience
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < end else {
                close(fd)
                throw IndexError(.indexInProgress, "Another index run is already writing to \(databasePath).", subject: databasePath)
            }
            usleep(20_000)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
