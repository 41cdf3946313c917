import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ThumbnailCache {
    /// The bytes of a cached image, or nil when it is missing or not a whole JPEG (a file cut
    /// short by a crash after its rename is made again rather than served).
    static func readImage(atPath path: String) -> [UInt8]? {
        guard let bytes = readFile(atPath: path), bytes.count >= 4,
              bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
        else { return nil }
        return bytes
    }

    /// A remembered failure: its code on the first line, its message after.
    static func readFailure(atPath path: String, source: ThumbnailSource) -> ThumbnailError? {
        guard let bytes = readFile(atPath: path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let code = ThumbnailError.Code(rawValue: parts.first.map(String.init) ?? "undecodable")
        return ThumbnailError(code, path: source.path, parts.count > 1 ? String(parts[1]) : "The photo could not be decoded earlier.")
    }

    /// The whole file, or nil when it cannot be opened.
    static func readFile(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    /// Writes `bytes` as `name` in `folder` atomically: a temporary file in the same folder,
    /// then a rename, so a reader sees the whole file or none.
    ///
    /// Returns the error instead of throwing: a cache that cannot be written still serves.
    func store(_ bytes: [UInt8], as name: String, in folder: String) -> ThumbnailError? {
        let temporary = folder + "/" + CacheEntry.temporaryPrefix + UUID().uuidString
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { return notWritable(folder) }
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, $0.count - done) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = notWritable(folder)
                close(descriptor)
                unlink(temporary)
                return error
            }
            done += written
        }
        close(descriptor)
        guard rename(temporary, folder + "/" + name) == 0 else {
            let error = notWritable(folder)
            unlink(temporary)
            return error
        }
        return nil
    }

    /// Removes the other entries of the same photo and size: they belong to an older version
    /// of the file.
    func removeSiblings(of entry: CacheEntry, keeping name: String, in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for other in names where other != name {
            guard let parsed = CacheEntry(fileName: other), parsed.id == entry.id, parsed.size == entry.size else { continue }
            unlink(folder + "/" + other)
        }
    }

    private func notWritable(_ folder: String) -> ThumbnailError {
        ThumbnailError(.cacheNotWritable, path: folder, "Cannot write the thumbnail cache in \(folder): \(String(cString: strerror(errno))).")
    }
}
