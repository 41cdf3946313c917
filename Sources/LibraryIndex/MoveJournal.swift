#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The manifest of a move, written as the move goes: its header when it is created, then each
/// file's entry, synced to the disk before that file moves (see `MoveManifest`).
final class MoveJournal {
    let folder: NoFollowFolder
    let name: [UInt8]
    /// The manifest's path, as shown to the user.
    let shown: String
    private let descriptor: Int32
    /// Bytes written and synced so far.
    private var length: off_t

    /// Creates `shoebox-moved-N.json` in `folder` (whose path is `folderPath`), with the lowest
    /// free N, and syncs its header and its name.
    init(in folder: NoFollowFolder, folderPath: String, root: String) throws(MoveError) {
        var number = 1
        var opened: (fd: Int32, name: [UInt8])?
        while opened == nil {
            let name = Array("shoebox-moved-\(number).json".utf8)
            switch folder.open(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644) {
            case .success(let fd): opened = (fd, name)
            case .failure(let failure) where failure.code == EEXIST: number += 1
            case .failure(let failure): throw MoveError(path: folderPath, posix: "Cannot create the manifest in", code: failure.code)
            }
        }
        self.folder = folder
        name = opened!.name
        shown = folderPath + "/" + String(decoding: name, as: UTF8.self)
        descriptor = opened!.fd
        length = 0
        do {
            try appendLine(MoveManifest.headerLine(root: root))
        } catch {
            discard()
            throw error
        }
        folder.sync()
    }

    deinit { close(descriptor) }

    /// Appends `entry` and syncs it; on failure (a full disk) the manifest is cut back to what
    /// it held, so it still reads.
    func append(_ entry: ExtrasMover.Entry) throws(MoveError) {
        try appendLine(MoveManifest.line(entry))
    }

    private func appendLine(_ bytes: [UInt8]) throws(MoveError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + written, bytes.count - written, length + off_t(written)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return try cutBack(bytes.count, "Cannot write the manifest") }
            written += n
        }
        guard fdatasync(descriptor) == 0 else { return try cutBack(bytes.count, "Cannot flush the manifest") }
        length += off_t(bytes.count)
    }

    private func cutBack(_ count: Int, _ action: String) throws(MoveError) {
        let error = MoveError(path: shown, posix: action)
        _ = ftruncate(descriptor, length)
        _ = fdatasync(descriptor)
        throw error
    }

    /// Replaces the manifest by one listing only `moved` (the files that did move), through a
    /// temporary file renamed over it: a kill leaves one or the other, both complete.
    func rewrite(_ manifest: MoveManifest) throws(MoveError) {
        let temporary = Array(".".utf8) + name + Array(".partial".utf8)
        folder.remove(temporary)
        let fd: Int32
        switch folder.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: 0o644) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw MoveError(path: shown, posix: "Cannot rewrite the manifest", code: failure.code)
        }
        defer { close(fd) }
        let bytes = manifest.encoded()
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = MoveError(path: shown, posix: "Cannot rewrite the manifest")
                folder.remove(temporary)
                throw error
            }
            written += n
        }
        let renamed = fsync(fd) == 0 && FileSystem.withCPath(temporary, { from in FileSystem.withCPath(name) { renameat(folder.descriptor, from, folder.descriptor, $0) } }) == 0
        guard renamed else {
            let error = MoveError(path: shown, posix: "Cannot rewrite the manifest")
            folder.remove(temporary)
            throw error
        }
        folder.sync()
    }

    /// Removes the manifest (nothing moved).
    func discard() {
        folder.remove(name)
        folder.sync()
    }
}
