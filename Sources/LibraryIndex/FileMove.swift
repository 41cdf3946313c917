import Duplicates
import CFileCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves one file by name from one folder to another, both held open as `NoFollowFolder`s: a
/// `renameat2` that never replaces; across file systems a copy that keeps the file's time, owner
/// and mode, is synced and checked against the SHA-256 before it gets its name and the original
/// goes. A kill at any moment leaves the file whole in one place or both.
struct FileMove {
    let from: NoFollowFolder
    let to: NoFollowFolder
    let name: [UInt8]
    /// The source file, open, and its status then: the file whose SHA-256 is `digest`.
    let source: Int32
    let status: stat
    let digest: SHA256Value
    /// The target's path, for messages.
    let shown: String
    /// Called after the file got its new name, before the old one goes ("moved" for a rename or
    /// a link, "copied" for a copy); tests kill the process there.
    var reached: (String) -> Void = { _ in }
    /// False takes the way of file systems without `renameat2` (a link, then an unlink), for tests.
    var renames = true

    func run() throws(MoveError) {
        guard renames else { return try linkThenUnlink() }
        let renamed = withNames { shoebox_rename_noreplace(from.descriptor, $0, to.descriptor, $1) }
        if renamed == 0 {
            reached("moved")
            return try checkMoved()
        }
        switch errno {
        case EEXIST, ENOTEMPTY: throw exists()
        case EXDEV: try copy()
        case EINVAL, ENOSYS, EOPNOTSUPP: try linkThenUnlink()
        default: throw MoveError(path: shown, posix: "Cannot move a file to")
        }
    }

    private func exists() -> MoveError {
        MoveError(path: shown, "\(shown) exists already; it was not replaced.")
    }

    /// Whether the entry `name` in `folder` is the file that was opened.
    private func isSource(in folder: NoFollowFolder) -> Bool {
        guard let now = folder.status(name) else { return false }
        return now.st_dev == status.st_dev && now.st_ino == status.st_ino
    }

    /// A file swapped in under the name after it was opened was moved instead of it: put it back.
    private func checkMoved() throws(MoveError) {
        guard !isSource(in: to) else { return }
        let back = withNames { shoebox_rename_noreplace(to.descriptor, $1, from.descriptor, $0) }
        throw MoveError(path: shown, back == 0
            ? "it was replaced by another file while it was moved; that file was put back, and nothing moved."
            : "it was replaced by another file while it was moved, and that file is now at \(shown).")
    }

    /// For file systems without `renameat2`: a hard link, then the original's name removed; the
    /// link is removed again when the original's cannot be (a read-only folder), so no second
    /// name is left behind.
    private func linkThenUnlink() throws(MoveError) {
        guard withNames({ linkat(from.descriptor, $0, to.descriptor, $1, 0) }) == 0 else {
            switch errno {
            case EEXIST: throw exists()
            case EXDEV, EPERM, EMLINK: return try copy()
            default: throw MoveError(path: shown, posix: "Cannot move a file to")
            }
        }
        guard isSource(in: to) else {
            to.remove(name)
            throw MoveError(path: shown, "it was replaced by another file while it was moved; nothing moved.")
        }
        reached("moved")
        try removeOriginal()
    }

    /// Removes the original once the target holds the file; if it cannot be removed, removes the
    /// target instead, so the file stays where it was and only there.
    private func removeOriginal() throws(MoveError) {
        let code = isSource(in: from) ? from.remove(name) : ENOENT
        guard code != 0 else { return }
        let undone = to.remove(name) == 0
        let reason = String(cString: strerror(code))
        throw MoveError(path: shown, undone
            ? "the original could not be removed (\(reason)), so it stays and its copy at \(shown) was removed."
            : "the original could not be removed (\(reason)), and neither could its copy at \(shown): the file is in both places.")
    }

    /// Copies the file into an unnamed file in the target folder, with the original's mode,
    /// owner and times, syncs and checks it, then names it and removes the original.
    private func copy() throws(MoveError) {
        var named = false
        var output = shoebox_open_unnamed(to.descriptor, status.st_mode & 0o777)
        if output < 0 {
            // No unnamed files on this file system: the copy is made under its name, and removed on failure.
            switch to.open(name, flags: O_RDWR | O_CREAT | O_EXCL, mode: status.st_mode & 0o777) {
            case .success(let fd): output = fd
            case .failure(let failure) where failure.code == EEXIST: throw exists()
            case .failure(let failure): throw MoveError(path: shown, posix: "Cannot create", code: failure.code)
            }
            named = true
        }
        defer { close(output) }
        do throws(MoveError) {
            try copyBytes(into: output)
            try keepAttributes(output)
            guard (try? FileDigest.sha256(ofDescriptor: output, shown: shown))?.digest == digest else {
                throw MoveError(path: shown, "The copy at \(shown) does not match its original; the original was kept.")
            }
            if !named {
                guard nameUnnamed(output) else {
                    throw errno == EEXIST ? exists() : MoveError(path: shown, posix: "Cannot name the copy")
                }
                named = true
            }
        } catch {
            if named { to.remove(name) }
            throw error
        }
        to.sync()
        reached("copied")
        try removeOriginal()
    }

    private func nameUnnamed(_ output: Int32) -> Bool {
        FileSystem.withCPath(name) { shoebox_name_unnamed(output, to.descriptor, $0) } == 0
    }

    private func copyBytes(into output: Int32) throws(MoveError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw MoveError(path: shown, posix: "Cannot read the original of") }
            if count == 0 { break }
            var written = 0
            while written < count {
                let n = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw MoveError(path: shown, posix: "Cannot write") }
                written += n
            }
            offset += off_t(count)
        }
    }

    /// The original's owner (when this user may set it), mode and times, then a sync: the next
    /// index sees the file it knew, not a new one to read again.
    private func keepAttributes(_ output: Int32) throws(MoveError) {
        _ = fchown(output, status.st_uid, status.st_gid)
        _ = fchmod(output, status.st_mode & 0o7777)
        #if canImport(Darwin)
        let times = [status.st_atimespec, status.st_mtimespec]
        #else
        let times = [status.st_atim, status.st_mtim]
        #endif
        guard times.withUnsafeBufferPointer({ futimens(output, $0.baseAddress) }) == 0 else { throw MoveError(path: shown, posix: "Cannot set the time of") }
        guard fsync(output) == 0 else { throw MoveError(path: shown, posix: "Cannot flush") }
    }

    /// Calls `body` with `name` as a C string twice (the source's and the target's name are one).
    private func withNames(_ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32) -> Int32 {
        FileSystem.withCPath(name) { body($0, $0) }
    }
}
