public import Foundation

/// Asks the kernel who holds `fcntl` locks on a file, for the tests that check SQLite keeps its
/// shared lock on a database while other stores open and close beside it (on Linux, closing any
/// descriptor of a file drops all of the process's POSIX locks on it).
///
/// The probe is an open file description lock query (`F_OFD_GETLK`): such locks conflict with
/// POSIX locks even of the same process, so it sees this process's own SQLite locks as well as
/// another's. Nothing here reads `/proc/locks`, whose process numbers depend on the namespace
/// `/proc` was mounted from and whose lines can be skipped while other processes lock and unlock.
///
/// Keep the probe open until the last check: closing it, like closing any descriptor of the
/// file, drops this process's POSIX locks on it.
public final class LockProbe {
    public let path: String
    private let descriptor: Int32

    /// `F_OFD_GETLK` from `<linux/fcntl.h>`, which Glibc's module does not export.
    private static let ofdGetLock: Int32 = 36

    public init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    deinit { close(descriptor) }

    /// The process holding a lock on the file that a write lock on the whole file would conflict
    /// with (SQLite's shared lock is one), as the kernel reports it; `nil` when there is none.
    public func holder() throws -> pid_t? {
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, Self.ofdGetLock, &probe) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return probe.l_type == Int16(F_UNLCK) ? nil : probe.l_pid
    }

    /// What `pid` holds open of the file and its locks there, from `/proc/PID/fdinfo` where the
    /// kernel shows them: for the message of a failed check.
    public func diagnostics(pid: pid_t) -> String {
        var target = stat()
        _ = stat(path, &target)
        let folder = "/proc/\(pid)/fdinfo"
        let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        let described = descriptors.compactMap { descriptor -> String? in
            guard let info = try? String(contentsOfFile: folder + "/" + descriptor, encoding: .utf8) else { return nil }
            let lines = info.split(separator: "\n")
            guard lines.contains("ino:\t\(target.st_ino)") else { return nil }
            let locks = lines.filter { $0.hasPrefix("lock:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
            return "fd \(descriptor): " + (locks.isEmpty ? "no locks" : locks.joined(separator: "; "))
        }
        let holder = (try? holder()).map { $0.map { "pid \($0)" } ?? "nobody" } ?? "unknown"
        return "the lock is held by \(holder); inode \(target.st_ino); descriptors of pid \(pid) on it: "
            + (described.isEmpty ? "none" : described.joined(separator: " | "))
    }
}
