/// The photo a thumbnail is made from, as the index knows it.
///
/// `fileSize` and `modified` are part of the cache key: when either changes, the cached
/// thumbnail is stale and is made again.
public struct ThumbnailSource: Sendable, Hashable {
    /// The photo's id in the library.
    public var id: Int64
    /// The absolute path of the file.
    public var path: String
    /// The file's size in bytes.
    public var fileSize: Int64
    /// The file's modification time, in nanoseconds since 1970.
    public var modified: Int64

    public init(id: Int64, path: String, fileSize: Int64, modified: Int64) {
        self.id = id
        self.path = path
        self.fileSize = fileSize
        self.modified = modified
    }
}
