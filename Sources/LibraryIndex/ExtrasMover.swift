public import Duplicates
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves the extra copies of duplicate groups out of the library tree, and back, losing nothing.
///
/// A file moves by `rename(2)`; across file systems it is copied, flushed, read back and compared
/// to its SHA-256 before the original is unlinked. A destination that exists is never replaced.
/// Paths are file-system bytes throughout, so names that are not UTF-8 move like any other.
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

    /// What `--move-extras` writes beside the files it moved, and `--restore` reads.
    public struct Manifest: Sendable, Hashable, Codable {
        public var version = 1
        /// The library root the files came from.
        public var root: String
        public var files: [Entry]

        public init(root: String, files: [Entry]) {
            self.root = root
            self.files = files
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

    /// Moves `extras` into `destination` (a folder outside the root, created if missing) under the
    /// same relative paths, and writes the manifest there; returns the manifest's path, what moved
    /// and what did not. A file whose size or modification time is not the indexed one has changed
    /// since it was hashed, and stays.
    public func moveExtras(_ extras: [Extra], to destination: String) throws(MoveError) -> (manifest: String?, moved: [Entry], skipped: [Skipped]) {
        let destination = try checkedDestination(destination)
        var moved: [Entry] = []
        var undo: [(source: [UInt8], target: [UInt8], digest: SHA256Value)] = []
        var skipped: [Skipped] = []
        for extra in extras {
            let source = Array(root.utf8) + [0x2F] + extra.path.bytes
            let target = Array(destination.utf8) + [0x2F] + extra.path.bytes
            guard let stamp = Self.stamp(source) else {
                skipped.append(Skipped(path: extra.path, reason: "it is not there any more"))
                continue
            }
            guard stamp.size == extra.fileSize, stamp.modified == extra.modified else {
                skipped.append(Skipped(path: extra.path, reason: "it changed since it was hashed (run `shoebox index`, then `shoebox duplicates` again)"))
                continue
            }
            do {
                let digest = try FileDigest.sha256(ofFileAt: source)
                guard digest.size == extra.fileSize else {
                    skipped.append(Skipped(path: extra.path, reason: "it changed while it was read"))
                    continue
                }
                try Self.move(from: source, to: target, digest: digest.digest)
                moved.append(Entry(path: extra.path, size: digest.size, sha256: digest.digest, keptPath: extra.keptPath))
                undo.append((source, target, digest.digest))
            } catch {
                skipped.append(Skipped(path: extra.path, reason: "\(error)"))
            }
        }
        guard !moved.isEmpty else { return (nil, moved, skipped) }
        let manifest: String
        do {
            manifest = try writeManifest(Manifest(root: root, files: moved), in: destination)
        } catch {
            // Without a manifest nothing could undo the move (a full disk, say): put the files back.
            var stranded: [String] = []
            for file in undo.reversed() {
                do { try Self.move(from: file.target, to: file.source, digest: file.digest) } catch { stranded.append("\(error)") }
            }
            let outcome = stranded.isEmpty
                ? "Every file was put back: nothing moved."
                : "These could not be put back and are still in \(destination): \(stranded.joined(separator: " "))"
            throw MoveError(path: error.path, "\(error.message) \(outcome)")
        }
        return (manifest, moved, skipped)
    }

    /// Puts back the files of the manifest at `manifestPath` (which lies in the folder they were
    /// moved to) where they came from, after checking each one's SHA-256; returns what was
    /// restored and what was not.
    public static func restore(manifestPath: String) throws(MoveError) -> (restored: [Entry], skipped: [Skipped]) {
        guard let data = FileManager.default.contents(atPath: manifestPath) else {
            throw MoveError(path: manifestPath, "Cannot read the manifest \(manifestPath).")
        }
        let manifest: Manifest
        do {
            manifest = try JSONDecoder().decode(Manifest.self, from: data)
        } catch {
            throw MoveError(path: manifestPath, "\(manifestPath) is not a manifest written by `shoebox duplicates --move-extras`: \(error).")
        }
        let folder = Array((manifestPath as NSString).deletingLastPathComponent.utf8)
        var restored: [Entry] = []
        var skipped: [Skipped] = []
        for entry in manifest.files {
            let relative = entry.relative
            guard Self.isInside(relative) else {
                skipped.append(Skipped(path: relative, reason: "its path leaves the library folder"))
                continue
            }
            let source = (folder.isEmpty ? Array(".".utf8) : folder) + [0x2F] + relative.bytes
            let target = Array(manifest.root.utf8) + [0x2F] + relative.bytes
            do {
                let digest = try FileDigest.sha256(ofFileAt: source)
                guard digest.digest.hex == entry.sha256, digest.size == entry.size else {
                    skipped.append(Skipped(path: relative, reason: "it is not the file that was moved (its SHA-256 differs)"))
                    continue
                }
                try move(from: source, to: target, digest: digest.digest)
                restored.append(entry)
            } catch {
                skipped.append(Skipped(path: relative, reason: "\(error)"))
            }
        }
        return (restored, skipped)
    }

    /// `destination` made absolute, created if missing, and refused inside the root.
    private func checkedDestination(_ destination: String) throws(MoveError) -> String {
        let absolute = URL(fileURLWithPath: destination.hasPrefix("/") ? destination : FileManager.default.currentDirectoryPath + "/" + destination)
            .standardizedFileURL.path
        let library = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        func refuseInside(_ path: String) throws(MoveError) {
            if path == library || path.hasPrefix(library + "/") || path == root || path.hasPrefix(root + "/") {
                throw MoveError(path: destination, "\(destination) is inside the library folder \(root); the extras must leave the library tree.")
            }
        }
        try refuseInside(absolute)
        do {
            try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: true)
        } catch {
            throw MoveError(path: destination, "Cannot create \(destination): \(error.localizedDescription)")
        }
        let resolved = URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path
        try refuseInside(resolved)
        return resolved
    }

    private func writeManifest(_ manifest: Manifest, in folder: String) throws(MoveError) -> String {
        var number = 1
        while FileManager.default.fileExists(atPath: "\(folder)/shoebox-moved-\(number).json") { number += 1 }
        let path = "\(folder)/shoebox-moved-\(number).json"
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(manifest).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
        } catch {
            // A write cut short (a full disk) leaves an empty or partial file: not a manifest. One
            // that appeared meanwhile (`withoutOverwriting` refused it) is not ours to remove.
            if (error as? CocoaError)?.code != .fileWriteFileExists { try? FileManager.default.removeItem(atPath: path) }
            throw MoveError(path: path, "Cannot write the manifest \(path): \(error.localizedDescription)")
        }
        return path
    }

    /// Whether a relative path stays inside its folder (no `..`, not absolute).
    static func isInside(_ path: RelativePath) -> Bool {
        !path.bytes.isEmpty && path.bytes.first != 0x2F && !path.bytes.split(separator: 0x2F).contains { $0.elementsEqual([0x2E, 0x2E]) }
    }

    /// Moves `source` to `target` (parents created), never replacing a file; across file systems,
    /// copies, checks the copy's digest against `digest`, then unlinks the source.
    static func move(from source: [UInt8], to target: [UInt8], digest: SHA256Value) throws(MoveError) {
        let shown = String(decoding: target, as: UTF8.self)
        if let slash = target.lastIndex(of: 0x2F), slash > 0 {
            let parent = String(decoding: target[..<slash], as: UTF8.self)
            if String(validating: target[..<slash], as: UTF8.self) != nil {
                try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } else {
                try makeDirectories(Array(target[..<slash]))
            }
        }
        if stamp(target) != nil { throw MoveError(path: shown, "\(shown) exists already; it was not replaced.") }
        // link + unlink rather than rename: link fails when the target exists, so nothing is replaced.
        if call(source, target, { link($0, $1!) }) == 0 {
            guard call(source, nil, { a, _ in unlink(a) }) == 0 else { throw MoveError(path: shown, posix: "Cannot remove the original of") }
            return
        }
        guard errno == EXDEV || errno == EPERM || errno == EMLINK else { throw MoveError(path: shown, posix: "Cannot move a file to") }
        try copy(from: source, to: target)
        guard (try? FileDigest.sha256(ofFileAt: target))?.digest == digest else {
            _ = call(target, nil, { a, _ in unlink(a) })
            throw MoveError(path: shown, "The copy at \(shown) does not match its original; the original was kept.")
        }
        guard call(source, nil, { a, _ in unlink(a) }) == 0 else { throw MoveError(path: shown, posix: "Cannot remove the original of") }
    }

    private static func copy(from source: [UInt8], to target: [UInt8]) throws(MoveError) {
        let shown = String(decoding: target, as: UTF8.self)
        let input = call(source, nil) { a, _ in open(a, O_RDONLY | O_CLOEXEC) }
        guard input >= 0 else { throw MoveError(path: shown, posix: "Cannot read the original of") }
        defer { close(input) }
        let output = call(target, nil) { a, _ in open(a, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard output >= 0 else { throw MoveError(path: shown, posix: "Cannot create") }
        defer { close(output) }
        // A full disk or a read error mid-copy: the original stays, and no part-copy is left behind.
        var complete = false
        defer { if !complete { _ = call(target, nil, { a, _ in unlink(a) }) } }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
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
        }
        guard fsync(output) == 0 else { throw MoveError(path: shown, posix: "Cannot flush") }
        complete = true
    }

    private static func makeDirectories(_ path: [UInt8]) throws(MoveError) {
        var prefix: [UInt8] = []
        for component in path.split(separator: 0x2F, omittingEmptySubsequences: false) {
            prefix += component
            if !prefix.isEmpty, stamp(prefix) == nil, call(prefix, nil, { a, _ in mkdir(a, 0o755) }) != 0, errno != EEXIST {
                throw MoveError(path: String(decoding: prefix, as: UTF8.self), posix: "Cannot create the folder")
            }
            prefix.append(0x2F)
        }
    }

    /// Size and modification time (nanoseconds) of the file at `path`, or nil when there is none.
    static func stamp(_ path: [UInt8]) -> (size: Int64, modified: Int64)? {
        var info = stat()
        guard call(path, nil, { a, _ in lstat(a, &info) }) == 0 else { return nil }
        return (FileStamp(info).size, FileStamp(info).modified)
    }

    /// Calls a POSIX function with one or two byte paths as C strings.
    private static func call(_ a: [UInt8], _ b: [UInt8]?, _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>?) -> Int32) -> Int32 {
        (a + [0]).withUnsafeBufferPointer { first in
            first.baseAddress!.withMemoryRebound(to: CChar.self, capacity: first.count) { first in
                guard let b else { return body(first, nil) }
                return (b + [0]).withUnsafeBufferPointer { second in
                    second.baseAddress!.withMemoryRebound(to: CChar.self, capacity: second.count) { body(first, $0) }
                }
            }
        }
    }
}

/// Why a move or restore could not be done, with the path it is about.
public struct MoveError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    init(path: String, posix action: String) {
        self.path = path
        message = "\(action) \(path): \(String(cString: strerror(errno)))."
    }

    public var description: String { message }
}
