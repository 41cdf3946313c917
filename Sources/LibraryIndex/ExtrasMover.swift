public import Duplicates
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves the extra copies of duplicate groups out of the library tree, and back, losing nothing.
///
/// Every path is opened from the root's (or the extras folder's) descriptor one component at a
/// time, never following a link (`NoFollowFolder`). Each file's manifest entry is synced before
/// the file moves (`MoveJournal`), so a kill at any moment leaves a manifest that restores every
/// moved file. A file moves by `renameat2` without replacing; across file systems it is copied
/// with its time, owner and mode, synced and checked against its SHA-256 before the original
/// goes (`FileMove`). Paths are file-system bytes throughout, so names that are not UTF-8 move
/// like any other.
public struct ExtrasMover: Sendable {
    /// The library's root folder.
    public var root: String

    public init(root: String) {
        self.root = root
    }

    /// One file of a manifest.
    public struct Entry: Sendable, Hashable, Codable {
        /// The path relative to the root (and to the folder the extras went to), as text.
        public var path: String
        /// The exact bytes of a path that is not UTF-8, base64.
        public var pathBytes: String?
        public var size: Int64
        /// Lowercase hexadecimal.
        public var sha256: String
        /// The kept file of its group, relative to the root.
        public var keptPath: String

        public init(path: RelativePath, size: Int64, sha256: SHA256Value, keptPath: RelativePath) {
            self.path = path.string
            pathBytes = path.isValidUTF8 ? nil : Data(path.bytes).base64EncodedString()
            self.size = size
            self.sha256 = sha256.hex
            self.keptPath = keptPath.string
        }

        /// The relative path's bytes.
        public var relative: RelativePath {
            if let pathBytes, let data = Data(base64Encoded: pathBytes) { return RelativePath(bytes: Array(data)) }
            return RelativePath(path)
        }
    }

    /// A file the mover left where it was, and why.
    public struct Skipped: Sendable, Hashable {
        public var path: RelativePath
        public var reason: String
    }

    /// A file to move: its relative path, the version its hashes were made from, and its group's kept file.
    public struct Extra: Sendable, Hashable {
        public var path: RelativePath
        public var fileSize: Int64
        public var modified: Int64
        public var keptPath: RelativePath

        public init(path: RelativePath, fileSize: Int64, modified: Int64, keptPath: RelativePath) {
            self.path = path
            self.fileSize = fileSize
            self.modified = modified
            self.keptPath = keptPath
        }
    }

    /// What happened to one file.
    enum Outcome {
        case moved(Entry)
        /// Already where a restore would put it (or never moved): nothing to do.
        case inPlace(Entry)
        case skipped(String)
    }

    /// Moves `extras` into `destination` (a folder outside the library tree, created if missing)
    /// under the same relative paths, journaling each in the manifest there first; returns the
    /// manifest's path (nil when nothing moved: no manifest is left), what moved and what did
    /// not. A file whose size or modification time is not the indexed one has changed since it
    /// was hashed, and stays.
    ///
    /// Throws when the destination is refused, or when the manifest cannot be written: then the
    /// run stops, and the files moved so far are listed in the manifest.
    public func moveExtras(_ extras: [Extra], to destination: String) throws(MoveError) -> (manifest: String?, moved: [Entry], skipped: [Skipped]) {
        let library = try openRoot()
        let (folder, folderPath) = try ExtrasFolder.open(destination, root: root, library: library)
        let journal = try MoveJournal(in: folder, folderPath: folderPath, root: root)
        var moved: [Entry] = []
        var skipped: [Skipped] = []
        var journaled = 0
        var stopped: MoveError?
        for (index, extra) in extras.enumerated() {
            MoveTestHooks.pause()
            do {
                switch try move(extra, number: index + 1, from: library, to: folder, folderPath: folderPath, journal: journal, journaled: &journaled) {
                case .moved(let entry): moved.append(entry)
                case .inPlace: break
                case .skipped(let reason): skipped.append(Skipped(path: extra.path, reason: reason))
                }
            } catch {
                stopped = error
                break
            }
        }
        // The manifest lists the moved files only: entries of files that stayed are taken out.
        if moved.isEmpty {
            journal.discard()
        } else if moved.count < journaled {
            try? journal.rewrite(MoveManifest(root: root, files: moved))
        }
        if let stopped {
            let outcome = moved.isEmpty
                ? "Nothing moved."
                : "Stopped after moving \(moved.count) files, all listed in \(journal.shown): `shoebox duplicates --restore \(journal.shown)` puts them back."
            throw MoveError(path: stopped.path, "\(stopped.message) \(outcome)")
        }
        return (moved.isEmpty ? nil : journal.shown, moved, skipped)
    }

    /// Journals and moves one file; throws only when the journal cannot be written.
    private func move(
        _ extra: Extra, number: Int, from library: NoFollowFolder, to folder: NoFollowFolder, folderPath: String, journal: MoveJournal, journaled: inout Int
    ) throws(MoveError) -> Outcome {
        guard Self.isInside(extra.path) else { return .skipped("its path leaves the library folder") }
        let source: (folder: NoFollowFolder, name: [UInt8])
        do { source = try library.parent(of: extra.path) } catch { return .skipped(error.isMissing ? "it is not there any more" : "\(error)") }
        let descriptor: Int32
        switch source.folder.openForReading(source.name) {
        case .success(let fd): descriptor = fd
        case .failure(let failure): return .skipped(failure.isMissing ? "it is not there any more" : failure.isLink ? "it is a symbolic link now (not followed)" : "\(failure)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, FileSystem.isRegularFile(status) else { return .skipped("it is no longer a regular file") }
        guard FileStamp(status).size == extra.fileSize, FileStamp(status).modified == extra.modified else {
            return .skipped("it changed since it was hashed (run `shoebox index`, then `shoebox duplicates` again)")
        }
        let digest: (digest: SHA256Value, size: Int64)
        do { digest = try FileDigest.sha256(ofDescriptor: descriptor, shown: extra.path.string) } catch { return .skipped("\(error)") }
        guard digest.size == extra.fileSize else { return .skipped("it changed while it was read") }
        let entry = Entry(path: extra.path, size: digest.size, sha256: digest.digest, keptPath: extra.keptPath)
        try journal.append(entry)
        journaled += 1
        MoveTestHooks.reached("journaled", file: number)
        let target: NoFollowFolder
        do { target = try folder.parent(of: extra.path, creating: true).folder } catch { return .skipped("in \(folderPath): \(error)") }
        let move = FileMove(
            from: source.folder, to: target, name: source.name, source: descriptor, status: status, digest: digest.digest,
            shown: folderPath + "/" + extra.path.string, reached: { MoveTestHooks.reached($0, file: number) })
        do { try move.run() } catch { return .skipped(error.message) }
        return .moved(entry)
    }

    /// The library's root, held open.
    func openRoot() throws(MoveError) -> NoFollowFolder {
        do { return try NoFollowFolder(path: root) } catch { throw MoveError(path: root, "Cannot open the library folder \(root): \(error).") }
    }

    /// Whether a relative path stays inside its folder (no `..`, not absolute, no NUL byte).
    static func isInside(_ path: RelativePath) -> Bool {
        !path.bytes.isEmpty && path.bytes.first != 0x2F && !path.bytes.contains(0)
            && !path.bytes.split(separator: 0x2F).contains { $0.elementsEqual([0x2E, 0x2E]) }
    }
}
