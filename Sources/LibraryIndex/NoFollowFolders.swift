public import Corrections
import PhotoMetadata
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders of a library opened for writing sidecars: each path component opened in its parent
/// with `O_NOFOLLOW`, so a folder that is a symbolic link (or was swapped for one) is refused, and
/// nothing outside the root is ever reached.
final class NoFollowFolders {
    /// The root, absolute and without links.
    let root: String
    private var descriptors: [[UInt8]: Int32] = [:]

    init(root: String) throws(AdjustError) {
        self.root = root
        let fd = FileSystem.withCPath(Array(root.utf8)) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
            throw AdjustError(.vanished, subject: root, "The library folder \(root) cannot be opened (\(Errno(errno))): is it mounted?")
        }
        descriptors[[]] = fd
    }

    deinit {
        for fd in descriptors.values { close(fd) }
    }

    /// A descriptor of the folder at `relative` (empty for the root), opened once.
    func folder(_ relative: [UInt8]) throws(AdjustError) -> Int32 {
        if let fd = descriptors[relative] { return fd }
        let components = relative.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var path: [UInt8] = []
        var parent = descriptors[[]]!
        for component in components {
            let shown = RelativePath.text(path.isEmpty ? Array(component) : path + [UInt8(ascii: "/")] + component)
            guard !component.isEmpty, !component.elementsEqual([0x2E]), !component.elementsEqual([0x2E, 0x2E]) else {
                throw AdjustError(.outsideLibrary, subject: shown, "\(shown) is not a plain folder path inside the library.")
            }
            path += path.isEmpty ? Array(component) : [UInt8(ascii: "/")] + component
            if let fd = descriptors[path] {
                parent = fd
                continue
            }
            let fd = FileSystem.withCPath(component) { openat(parent, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard fd >= 0 else {
                let error = errno
                var status = stat()
                let isLink = FileSystem.withCPath(component) { fstatat(parent, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
                    && (status.st_mode & S_IFMT) == S_IFLNK
                switch error {
                case _ where isLink, ELOOP:
                    throw AdjustError(.notAFile, subject: shown, "The folder \(shown) is a symbolic link: Shoebox never writes through one. Adjust the photos at the folder it points to.")
                case ENOENT:
                    throw AdjustError(.vanished, subject: shown, "The folder \(shown) is gone: nothing was written. Run shoebox index, then try again.")
                case ENOTDIR:
                    throw AdjustError(.notAFile, subject: shown, "\(shown) is not a folder: nothing was written. Run shoebox index, then try again.")
                default:
                    throw AdjustError(.failed, subject: shown, "The folder \(shown) cannot be opened (\(Errno(error))): nothing was written.")
                }
            }
            descriptors[path] = fd
            parent = fd
        }
        return parent
    }

    /// The bytes of the file `name` in `folder`, `nil` when there is none.
    ///
    /// - Throws: `notAFile` for a symbolic link or anything but a regular file, `unusableSidecar`
    ///   for one larger than `limit` bytes (refused before it is read).
    func read(_ name: [UInt8], in folder: Int32, shown: String, limit: Int) throws(AdjustError) -> [UInt8]? {
        var status = stat()
        guard FileSystem.withCPath(name, { fstatat(folder, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            if errno == ENOENT { return nil }
            throw AdjustError(.failed, subject: shown, "The sidecar \(shown) cannot be examined (\(Errno(errno))).")
        }
        guard (status.st_mode & S_IFMT) != S_IFLNK else {
            throw AdjustError(.notAFile, subject: shown, "The sidecar \(shown) is a symbolic link: Shoebox never writes through one. Replace it with the file it points to, then try again.")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw AdjustError(.notAFile, subject: shown, "\(shown) is not a regular file: move it aside, then try again.")
        }
        guard status.st_size <= limit else {
            throw AdjustError(.unusableSidecar, subject: shown, "The sidecar \(shown) is larger than \(limit / 1024 / 1024) MiB, far more than any XMP sidecar: move it aside, then try again.")
        }
        let fd: Int32
        switch FileSystem.openForReading(name, inFolder: folder) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error):
            throw AdjustError(error.rawValue == ELOOP ? .notAFile : .failed, subject: shown, "The sidecar \(shown) cannot be opened (\(error)).")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { readBytes(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw AdjustError(.failed, subject: shown, "The sidecar \(shown) cannot be read (\(Errno(errno))).")
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= limit else {
                throw AdjustError(.unusableSidecar, subject: shown, "The sidecar \(shown) is larger than \(limit / 1024 / 1024) MiB: move it aside, then try again.")
            }
        }
        return bytes
    }

    /// The names in `folder` that end in `.xmp` (any case).
    func xmpNames(in folder: Int32) -> [[UInt8]] {
        let fd = openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let directory = fdopendir(fd) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if SidecarNames.kind(of: name) == .xmp { names.append(name) }
        }
        return names
    }
}

/// `read(2)`, named apart from `NoFollowFolders.read`.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
