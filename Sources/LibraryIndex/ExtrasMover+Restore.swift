import Duplicates
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ExtrasMover {
    /// Puts the files of the manifest at `manifestPath` back under this library's root, from the
    /// folder the manifest lies in, after checking each one's SHA-256; returns what was put back,
    /// what was already in the library (never moved, or put back before), and what was not.
    ///
    /// A manifest of another library (its `root` is not this one) or of an unknown version is
    /// refused. Nothing is followed through a symbolic link, in the extras folder or the library.
    /// A file the library already holds (same bytes at its path: a kill between a copy and the
    /// original's removal) is not copied again; its second copy in the extras folder is removed.
    public func restore(manifestPath: String) throws(MoveError) -> (restored: [Entry], inPlace: [Entry], skipped: [Skipped]) {
        let folderPath = (manifestPath as NSString).deletingLastPathComponent.isEmpty ? "." : (manifestPath as NSString).deletingLastPathComponent
        let extras: NoFollowFolder
        do { extras = try NoFollowFolder(path: folderPath) } catch { throw MoveError(path: manifestPath, "Cannot read the manifest \(manifestPath): \(error).") }
        let manifest = try MoveManifest.parse(try Self.read(Array((manifestPath as NSString).lastPathComponent.utf8), in: extras, shown: manifestPath), shown: manifestPath)
        guard manifest.root == root else {
            throw MoveError(path: manifestPath, "\(manifestPath) lists files moved out of \(manifest.root), not out of this index's library \(root); restore it with the --db of that library.")
        }
        let library = try openRoot()
        if let opened = extras.resolvedPath, let refusal = ExtrasFolder.refusal(opened, roots: [root] + [library.resolvedPath].compactMap { $0 }) {
            throw MoveError(path: manifestPath, "The folder of \(manifestPath) \(refusal).")
        }
        var restored: [Entry] = []
        var inPlace: [Entry] = []
        var skipped: [Skipped] = []
        for (index, entry) in manifest.files.enumerated() {
            MoveTestHooks.pause()
            switch restore(entry, number: index + 1, from: extras, to: library) {
            case .moved(let entry): restored.append(entry)
            case .inPlace(let entry): inPlace.append(entry)
            case .skipped(let reason): skipped.append(Skipped(path: entry.relative, reason: reason))
            }
        }
        return (restored, inPlace, skipped)
    }

    private func restore(_ entry: Entry, number: Int, from extras: NoFollowFolder, to library: NoFollowFolder) -> Outcome {
        let relative = entry.relative
        guard Self.isInside(relative) else { return .skipped("its path leaves the library folder") }
        func elsewhere(_ problem: String) -> Outcome { Self.holds(entry, in: library) ? .inPlace(entry) : .skipped(problem) }
        let source: (folder: NoFollowFolder, name: [UInt8])
        do { source = try extras.parent(of: relative) } catch {
            return error.isMissing ? elsewhere("it is neither in the extras folder nor in the library") : .skipped("in the extras folder, \(error)")
        }
        let descriptor: Int32
        switch source.folder.openForReading(source.name) {
        case .success(let fd): descriptor = fd
        case .failure(let failure) where failure.isMissing: return elsewhere("it is neither in the extras folder nor in the library")
        case .failure(let failure) where failure.isLink: return .skipped("it is a symbolic link in the extras folder (not followed)")
        case .failure(let failure): return .skipped("in the extras folder, \(failure)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, FileSystem.isRegularFile(status) else { return .skipped("it is not a regular file in the extras folder") }
        guard let digest = try? FileDigest.sha256(ofDescriptor: descriptor, shown: relative.string), digest.digest.hex == entry.sha256, digest.size == entry.size else {
            return Self.holds(entry, in: library)
                ? .skipped("the library holds it again; the file at its path in the extras folder is another one, and stays")
                : .skipped("it is not the file that was moved (its SHA-256 differs)")
        }
        let target: NoFollowFolder
        do { target = try library.parent(of: relative, creating: true).folder } catch { return .skipped("in the library, \(error)") }
        if let present = target.status(source.name) {
            // The library has a file at its path: the moved one itself (a link), or its bytes.
            guard present.st_dev == status.st_dev && present.st_ino == status.st_ino || Self.holds(entry, in: library) else {
                return .skipped("another file is at its path in the library; it was not replaced")
            }
            guard let now = source.folder.status(source.name), now.st_dev == status.st_dev, now.st_ino == status.st_ino, source.folder.remove(source.name) == 0 else {
                return .skipped("the library holds it again, but its second copy in the extras folder could not be removed")
            }
            return .moved(entry)
        }
        let move = FileMove(
            from: source.folder, to: target, name: source.name, source: descriptor, status: status, digest: digest.digest,
            shown: root + "/" + relative.string, reached: { MoveTestHooks.reached($0, file: number) })
        do { try move.run() } catch { return .skipped(error.message) }
        return .moved(entry)
    }

    /// Whether the library has `entry`'s bytes at its path.
    private static func holds(_ entry: Entry, in library: NoFollowFolder) -> Bool {
        guard let parent = try? library.parent(of: entry.relative), case .success(let fd) = parent.folder.openForReading(parent.name) else { return false }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, FileSystem.isRegularFile(status), Int64(status.st_size) == entry.size else { return false }
        return (try? FileDigest.sha256(ofDescriptor: fd, shown: entry.path))?.digest.hex == entry.sha256
    }

    /// The bytes of the manifest `name` in `folder`, which must not be a symbolic link.
    private static func read(_ name: [UInt8], in folder: NoFollowFolder, shown: String) throws(MoveError) -> [UInt8] {
        let fd: Int32
        switch folder.openForReading(name) {
        case .success(let opened): fd = opened
        case .failure(let failure) where failure.isLink: throw MoveError(path: shown, "\(shown) is a symbolic link; give the manifest's own path, in the folder the files were moved to.")
        case .failure(let failure): throw MoveError(path: shown, posix: "Cannot read the manifest", code: failure.code)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw MoveError(path: shown, posix: "Cannot read the manifest") }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }
}
