#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock that keeps two `--move-extras` or `--restore` runs off one library at once:
/// two runs taking the same files would each leave the other half a move. Released by the kernel
/// when the process ends, however it ends.
public struct MoveLock: ~Copyable {
    private let descriptor: Int32

    /// Takes the lock beside the database at `databasePath` (`DATABASE-moves-lock`, an `flock` as
    /// `IndexLock` takes), or throws at once if another run holds it.
    public init(databasePath: String) throws(MoveError) {
        let lockPath = databasePath + "-moves-lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw MoveError(path: lockPath, posix: "Cannot create the lock file") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw MoveError(
                path: databasePath,
                "Another `shoebox duplicates --move-extras` or `--restore` is running on the library of \(databasePath); wait for it to finish, then run this again.")
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
