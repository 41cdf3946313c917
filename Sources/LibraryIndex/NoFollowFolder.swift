import CFileCalls
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder held open by a descriptor, under which paths are opened one component at a time
/// (`openat` with `O_NOFOLLOW`) so that no symbolic link is ever followed below it.
///
/// A path under the root that meets a link — a library folder swapped for a link to `/etc`, a
/// link placed in an extras folder — fails with `Failure.isLink` instead of leaving the root.
/// The root's own path is followed as given: it is the folder the user named. Everything done
/// through a `NoFollowFolder` (open, create, rename, unlink) happens by name in a folder
/// descriptor, so a component swapped after it was opened cannot redirect it either.
public final class NoFollowFolder: Sendable {
    /// An `O_PATH` descriptor on Linux: enough to open, create, rename and unlink entries, and
    /// needs no permission to list the folder.
    public let descriptor: Int32

    /// Why a path could not be opened, with the component it stopped at.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The path up to the component that failed, as text.
        public var path: String
        /// The `errno` of the failed call.
        public var code: Int32

        /// Whether the component is a symbolic link (or not a folder where one was needed).
        public var isLink: Bool { code == ELOOP || code == ENOTDIR }
        public var isMissing: Bool { code == ENOENT }

        public var description: String {
            isLink ? "\(path) is a symbolic link or not a folder (links are not followed)" : "cannot open \(path): \(Errno(code))"
        }
    }

    /// Opens the folder at `path` (links in `path` itself are followed).
    public init(path: String) throws(Failure) {
        let fd = FileSystem.withCPath(Array(path.utf8)) { shoebox_open_folder_at(AT_FDCWD, $0) }
        // O_NOFOLLOW refuses a final link; the root's own path may end in one.
        let opened = fd >= 0 ? fd : FileSystem.openFolder(Array(path.utf8))
        guard opened >= 0 else { throw Failure(path: path, code: errno) }
        descriptor = opened
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The folder at `relative` under this one; with `creating`, missing folders are made (0755,
    /// less the umask). Empty components and `.` are skipped; `..` is refused.
    public func folder(_ relative: some Collection<UInt8>, creating: Bool = false) throws(Failure) -> NoFollowFolder {
        var current = self
        var walked: [UInt8] = []
        for component in Array(relative).split(separator: 0x2F) where !component.elementsEqual([0x2E]) {
            if !walked.isEmpty { walked.append(0x2F) }
            walked += component
            guard !component.elementsEqual([0x2E, 0x2E]) else { throw Failure(path: RelativePath.text(walked), code: EINVAL) }
            var fd = FileSystem.withCPath(component) { shoebox_open_folder_at(current.descriptor, $0) }
            if fd < 0 && errno == ENOENT && creating {
                guard FileSystem.withCPath(component, { mkdirat(current.descriptor, $0, 0o755) }) == 0 || errno == EEXIST else {
                    throw Failure(path: RelativePath.text(walked), code: errno)
                }
                fd = FileSystem.withCPath(component) { shoebox_open_folder_at(current.descriptor, $0) }
            }
            guard fd >= 0 else { throw Failure(path: RelativePath.text(walked), code: errno) }
            current = NoFollowFolder(descriptor: fd)
        }
        return current
    }

    /// The folder holding `path` and the file's name in it (see `folder(_:creating:)`).
    public func parent(of path: RelativePath, creating: Bool = false) throws(Failure) -> (folder: NoFollowFolder, name: [UInt8]) {
        let name = Array(path.nameBytes)
        guard !name.isEmpty, name != [0x2E], name != [0x2E, 0x2E] else { throw Failure(path: path.string, code: EINVAL) }
        return (try folder(path.folderBytes, creating: creating), name)
    }

    /// Opens the entry `name` of this folder with `flags` (plus `O_NOFOLLOW | O_CLOEXEC`) and, for
    /// a file it creates, `mode`: a descriptor, or the failure (`isLink` for a symbolic link).
    public func open(_ name: [UInt8], flags: Int32, mode: UInt32 = 0o644) -> Result<Int32, Failure> {
        let fd = FileSystem.withCPath(name) { openat(descriptor, $0, flags | O_NOFOLLOW | O_CLOEXEC, mode) }
        return fd >= 0 ? .success(fd) : .failure(Failure(path: RelativePath.text(name), code: errno))
    }

    /// Opens the entry `name` for reading, without blocking on a FIFO (see `open(_:flags:mode:)`).
    public func openForReading(_ name: [UInt8]) -> Result<Int32, Failure> {
        open(name, flags: O_RDONLY | O_NONBLOCK)
    }

    /// `fstatat` of the entry `name`, not following a link; nil when there is none.
    func status(_ name: [UInt8]) -> stat? {
        var st = stat()
        return FileSystem.withCPath(name) { fstatat(descriptor, $0, &st, AT_SYMLINK_NOFOLLOW) } == 0 ? st : nil
    }

    /// Device and inode of the entry `name` (not following a link), or nil when there is none.
    public func identity(of name: [UInt8]) -> (device: UInt64, inode: UInt64)? {
        status(name).map { (UInt64($0.st_dev), UInt64($0.st_ino)) }
    }

    /// Removes the entry `name` (a file, or an empty folder with `folder`); the `errno` on failure.
    @discardableResult
    public func remove(_ name: [UInt8], folder: Bool = false) -> Int32 {
        FileSystem.withCPath(name) { unlinkat(descriptor, $0, folder ? AT_REMOVEDIR : 0) } == 0 ? 0 : errno
    }

    /// Flushes the folder's entries (names created, renamed or removed) to the disk.
    public func sync() {
        // An O_PATH descriptor cannot be flushed: a readable one is opened for it.
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// The folder's absolute path as the kernel resolves it now (`/proc/self/fd`), or nil.
    public var resolvedPath: String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(descriptor)", $0.baseAddress!, $0.count - 1) }
        }
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : nil
    }

    /// Device and inode of the folder itself.
    public var identity: (device: UInt64, inode: UInt64)? {
        var st = stat()
        return fstat(descriptor, &st) == 0 ? (UInt64(st.st_dev), UInt64(st.st_ino)) : nil
    }
}
