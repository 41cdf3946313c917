public import Corrections
import Foundation
import PhotoMetadata
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a set of sidecars all or nothing, never through a symbolic link.
///
/// 1. Every folder is opened component by component without following links, and checked
///    writable; every file is checked to hold what it held when planned. Any failure: nothing written.
/// 2. Each new text goes to a temporary file beside its sidecar (`.NAME.shoebox-BATCH.tmp`, hidden
///    from the index), several threads creating them at once; then the file systems are synced
///    once (`syncfs`), which makes them all durable in one flush rather than one per file.
/// 3. The temporary files are renamed over their sidecars (or the sidecars removed), and the folders
///    synced. A failure here puts back what was already renamed, then removes the temporary files.
struct SidecarWriter {
    struct Change {
        /// Relative to the root, as file-system bytes.
        var sidecar: [UInt8]
        /// What must be there now (`nil`: no file), checked just before writing.
        var expected: [UInt8]?
        /// What to leave there (`nil`: remove the file).
        var target: [UInt8]?
    }

    let folders: NoFollowFolders
    let batch: Int64
    /// Stops after this many renames as if the process had been killed (tests of the journal).
    var abandonAfter: Int?

    /// The temporary name of `name` for `batch`.
    static func temporaryName(_ name: [UInt8], batch: Int64) -> [UInt8] {
        [UInt8(ascii: ".")] + name + Array(".shoebox-\(batch).tmp".utf8)
    }

    /// Writes `changes` (see the type's summary).
    ///
    /// - Throws: `AdjustError`: `notWritable` naming a read-only folder, `changedSince` for a file
    ///   changed since it was read, `notAFile` for a link, `vanished`, `failed`; nothing is left
    ///   changed and no temporary file is left behind.
    func apply(_ changes: [Change]) throws(AdjustError) {
        typealias Target = (change: Change, folder: Int32, name: [UInt8], shown: String)
        var targets: [Target] = []
        var checkedFolders = Set<Int32>()
        for change in changes {
            let path = RelativePath(bytes: change.sidecar)
            let (folderPath, name) = path.folderAndName
            let folder = try folders.folder(folderPath.bytes)
            if checkedFolders.insert(folder).inserted, faccessat(folder, ".", W_OK, AT_EACCESS) != 0 {
                let shown = folderPath.bytes.isEmpty ? folders.root : folderPath.string
                throw AdjustError(.notWritable, subject: shown, "The folder \(shown) is read-only (\(Errno(errno))): nothing was written. Make it writable, or leave its photos out.")
            }
            let current = try folders.read(name, in: folder, shown: path.string, limit: SidecarReader.maximumSize * 4)
            guard current == change.expected else {
                throw AdjustError(.changedSince, subject: path.string, "The sidecar \(path.string) changed while Shoebox was writing: nothing was written. Try again.")
            }
            targets.append((change, folder, name, path.string))
        }

        // 2. Temporary files.
        let written = try Self.writeTemporaries(targets.map { ($0.change.target, $0.folder, Self.temporaryName($0.name, batch: batch), $0.shown) })
        func removeTemporaries() {
            for index in written {
                _ = FileSystem.withCPath(Self.temporaryName(targets[index].name, batch: batch)) { unlinkat(targets[index].folder, $0, 0) }
            }
        }
        Self.flush(Array(checkedFolders))

        // 3. Renames, put back on failure.
        for (index, target) in targets.enumerated() {
            if let abandonAfter, index == abandonAfter { return }
            let failure: Int32?
            if target.change.target != nil {
                let temporary = Self.temporaryName(target.name, batch: batch)
                failure = FileSystem.withCPath(temporary) { from in
                    FileSystem.withCPath(target.name) { to in renameat(target.folder, from, target.folder, to) }
                } == 0 ? nil : errno
            } else {
                let rc = FileSystem.withCPath(target.name) { unlinkat(target.folder, $0, 0) }
                failure = rc == 0 || errno == ENOENT ? nil : errno
            }
            if let failure {
                for earlier in targets[..<index] {
                    try? putBack(earlier.change.expected, name: earlier.name, in: earlier.folder, shown: earlier.shown)
                }
                removeTemporaries()
                let code: AdjustError.Code = failure == ENOENT ? .vanished : failure == EACCES || failure == EROFS || failure == EPERM ? .notWritable : .failed
                throw AdjustError(code, subject: target.shown, "Writing \(target.shown) failed (\(Errno(failure))): everything written before it was put back.")
            }
        }
        for folder in checkedFolders { fsync(folder) }
    }

    /// Writes each file that has bytes to its temporary name, several at a time: creating a file
    /// costs the file system more than filling it (an ext4 folder's inode allocation, a network
    /// share's round trip), and those costs overlap. The indices written, ascending; on a failure,
    /// the first failure (in order) after every temporary file written is removed.
    private static func writeTemporaries(_ files: [(bytes: [UInt8]?, folder: Int32, name: [UInt8], shown: String)]) throws(AdjustError) -> [Int] {
        let indices = files.indices.filter { files[$0].bytes != nil }
        let workers = max(1, min(indices.count / 64, ProcessInfo.processInfo.activeProcessorCount * 2, 16))
        let outcomes = Mutex([AdjustError?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: indices.count, by: workers).map({ indices[$0] }) {
                let file = files[index]
                do throws(AdjustError) {
                    try writeFile(file.bytes!, named: file.name, in: file.folder, shown: file.shown)
                } catch {
                    outcomes.withLock { $0[index] = error }
                }
            }
        }
        let failures = outcomes.withLock { $0 }
        guard let failure = indices.lazy.compactMap({ failures[$0] }).first else { return indices }
        for index in indices where failures[index] == nil {
            _ = FileSystem.withCPath(files[index].name) { unlinkat(files[index].folder, $0, 0) }
        }
        throw failure
    }

    /// Puts `bytes` back at `name` (removes it for `nil`), through a temporary file.
    private func putBack(_ bytes: [UInt8]?, name: [UInt8], in folder: Int32, shown: String) throws(AdjustError) {
        guard let bytes else {
            _ = FileSystem.withCPath(name) { unlinkat(folder, $0, 0) }
            return
        }
        let temporary = Self.temporaryName(name, batch: batch) + Array(".back".utf8)
        try Self.writeFile(bytes, named: temporary, in: folder, shown: shown)
        fsync(folder)
        _ = FileSystem.withCPath(temporary) { from in FileSystem.withCPath(name) { to in renameat(folder, from, folder, to) } }
    }

    /// Creates `name` in `folder` (replacing a leftover temporary file, never following a link)
    /// with `bytes`.
    static func writeFile(_ bytes: [UInt8], named name: [UInt8], in folder: Int32, shown: String) throws(AdjustError) {
        _ = FileSystem.withCPath(name) { unlinkat(folder, $0, 0) }
        let fd = FileSystem.withCPath(name) { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            let error = errno
            let code: AdjustError.Code = error == EACCES || error == EROFS || error == EPERM ? .notWritable : error == ENOENT ? .vanished : .failed
            throw AdjustError(code, subject: shown, "Cannot write beside \(shown) (\(Errno(error))): nothing was written.")
        }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = errno
                close(fd)
                _ = FileSystem.withCPath(name) { unlinkat(folder, $0, 0) }
                throw AdjustError(.failed, subject: shown, "Cannot write beside \(shown) (\(Errno(error))): nothing was written.")
            }
            offset += count
        }
        close(fd)
    }

    /// glibc's `syncfs`, which Swift's Glibc module leaves out (a GNU extension).
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = dlsym(nil, "syncfs").map {
        unsafeBitCast($0, to: (@convention(c) (Int32) -> Int32).self)
    }

    /// Makes everything written durable: one `syncfs` per file system of `folders` (one flush for
    /// thousands of files), else `fsync` of each folder.
    static func flush(_ folders: [Int32]) {
        var devices = Set<UInt64>()
        for folder in folders {
            var status = stat()
            guard fstat(folder, &status) == 0, devices.insert(UInt64(status.st_dev)).inserted else { continue }
            if let syncfs = Self.syncfs, syncfs(folder) == 0 { continue }
            sync()
        }
    }
}
