/// The name of one rendition of one photo in the cache, and of the files that hold it.
///
/// An entry is `BUCKET/ID_SIZE_FILESIZE_MODIFIED_vVERSION.jpg` (the image) or `….failed` (a
/// remembered failure: its code and message). `BUCKET` is `id / 1000`, so a folder holds at
/// most 2,000 entries of current photos. Temporary files start with `.tmp-`.
struct CacheEntry: Hashable, Sendable {
    /// Bumped when the encoding changes, so every name and ETag changes with it.
    static let formatVersion = 1
    static let imageExtension = ".jpg"
    static let failureExtension = ".failed"
    static let temporaryPrefix = ".tmp-"

    var id: Int64
    var size: ThumbnailSize
    var fileSize: Int64
    var modified: Int64
    var version = CacheEntry.formatVersion

    init(_ source: ThumbnailSource, size: ThumbnailSize) {
        id = source.id
        self.size = size
        fileSize = source.fileSize
        modified = source.modified
    }

    /// Parses an image or failure file name; nil for anything else (temporary files included).
    init?(fileName: String) {
        let stem: Substring
        if fileName.hasSuffix(Self.imageExtension) {
            stem = fileName.dropLast(Self.imageExtension.count)
        } else if fileName.hasSuffix(Self.failureExtension) {
            stem = fileName.dropLast(Self.failureExtension.count)
        } else {
            return nil
        }
        let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 5, let id = Int64(parts[0]), let size = ThumbnailSize(rawValue: String(parts[1])),
              let fileSize = Int64(parts[2]), let modified = Int64(parts[3]),
              parts[4].first == "v", let version = Int(parts[4].dropFirst())
        else { return nil }
        self.id = id
        self.size = size
        self.fileSize = fileSize
        self.modified = modified
        self.version = version
    }

    var name: String { "\(id)_\(size.rawValue)_\(fileSize)_\(modified)_v\(version)" }
    var bucket: String { String(id / 1000) }
    var imageFileName: String { name + Self.imageExtension }
    var failureFileName: String { name + Self.failureExtension }
    var etag: String { "\"\(name)\"" }
    var placeholderETag: String { "\"\(name)_placeholder\"" }
}
