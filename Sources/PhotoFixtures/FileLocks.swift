public import Foundation

/// Who holds SQLite's POSIX (`fcntl`) locks on a database file, for the tests that check a
/// connection keeps them while other stores open and close beside it.
///
/// Neither check reads `/proc/locks`: that table lists every lock on the machine, names processes
/// by their numbers in the namespace `/proc` was mounted from, and can skip lines while other
/// processes lock and unlock during the read (a parallel test run does so constantly).
public enum FileLocks {
    /// The `lock:` lines of this process's POSIX locks on the file at `path`, as the kernel lists
    /// them in `/proc/self/fdinfo` for each descriptor of that file. Reading them opens no
    /// descriptor of the file itself (closing one would drop those very locks).
    public static func ownPOSIXLocks(onFileAt path: String) -> [String] {
        var target = stat()
        guard stat(path, &target) == 0 else { return [] }
        let folder = "/proc/self/fdinfo"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var locks: Set<String> = []
        for descriptor in descriptors {
            guard let info = try? String(contentsOfFile: folder + "/" + descriptor, encoding: .utf8) else { continue }
            let lines = info.split(separator: "\n")
            guard lines.contains("ino:\t\(target.st_ino)") else { continue }
            for line in lines where line.hasPrefix("lock:") && line.contains("POSIX") {
                locks.insert(String(line.dropFirst("lock:".count)).trimmingCharacters(in: .whitespaces))
            }
        }
        return locks.sorted()
    }

    /// The process that holds a lock on the file at `path` which a write lock on the whole file
    /// would conflict with, as `fcntl(F_GETLK)` answers from this process; `nil` when there is
    /// none. Locks of this process itself never conflict, so ask about other processes only.
    public static func otherHolder(ofFileAt path: String) throws -> (pid: pid_t, exclusive: Bool)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 0
        probe.l_len = 0
        guard fcntl(descriptor, F_GETLK, &probe) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return probe.l_type == Int16(F_UNLCK) ? nil : (probe.l_pid, probe.l_type == Int16(F_WRLCK))
    }

    /// What `pid` holds open of the file at `path` and the locks on it, from `/proc/PID/fdinfo`:
    /// for the message of a failed check.
    public static func diagnostics(pid: pid_t, onFileAt path: String) -> String {
        var target = stat()
        _ = stat(path, &target)
        let folder = "/proc/\(pid)/fdinfo"
        let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }
        let described = descriptors.compactMap { descriptor -> String? in
            guard let info = try? String(contentsOfFile: folder + "/" + descriptor, encoding: .utf8),
                  info.split(separator: "\n").contains("ino:\t\(target.st_ino)") else { return nil }
            let locks = info.split(separator: "\n").filter { $0.hasPrefix("lock:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) }
            return "fd \(descriptor): " + (locks.isEmpty ? "no locks" : locks.joined(separator: "; "))
        }
        return "inode \(target.st_ino); descriptors of pid \(pid) on it: " + (described.isEmpty ? "none" : described.joined(separator: " | "))
    }
}
