import Foundation
public import LibraryIndex
#if canImport(Glibc)
import Glibc
#endif

/// A photo's file opened for reading, proven to lie under the library's root.
///
/// The file is opened first (without following a final symbolic link), then the path the kernel
/// actually opened is read back from `/proc/self/fd`: a link swapped in anywhere along the path
/// after indexing cannot make the server send a file outside the root.
public final class OpenedFile: Sendable {
    public let descriptor: Int32
    public let size: Int64
    /// Modification time, nanoseconds since 1970.
    public let modified: Int64

    /// Opens `relative` under `root`, or returns `nil` if it is gone, not a regular file, or
    /// resolves outside `root`.
    public init?(root: String, relative: RelativePath) {
        let path = Array(root.utf8) + [UInt8(ascii: "/")] + relative.bytes + [0]
        let fd = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        }
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
              let opened = Self.openedPath(fd), opened.starts(with: Array(root.utf8) + [UInt8(ascii: "/")])
        else {
            close(fd)
            return nil
        }
        descriptor = fd
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    deinit { close(descriptor) }

    /// The path the kernel opened for `fd`, as bytes.
    private static func openedPath(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(fd)", $0.baseAddress!, $0.count - 1) }
        }
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }
}

extension OpenedFile {
    /// A path that names this open file for libraries that take paths (`/proc/self/fd/N`): whatever
    /// happens to the directory entry, it is the file that was checked.
    public var procPath: String { "/proc/self/fd/\(descriptor)" }
}
