public import Foundation
import Synchronization

/// Thumbnails and previews of photos, made with libvips and kept in a disk cache.
///
/// An entry is keyed by photo id, size, file size and modification time, so a changed file is
/// made again and its old entry removed. A photo that cannot be decoded gets a placeholder,
/// and that failure is remembered under the same key: it is not decoded again until the file
/// changes. Safe to call from many threads at once; two threads asking for the same missing
/// entry may both make it, and the second rename simply replaces the first file.
///
/// With a `memoryBudget`, the most recently served images are also kept in memory, so a hot
/// thumbnail is sent without reading its file again.
public final class ThumbnailCache: Sendable {
    /// The folder holding the entries.
    public let directory: String
    /// Photos whose header declares more pixels than this are refused unread.
    public let maxPixels: Int64

    /// Bytes of images kept in memory at most; 0 keeps none.
    public let memoryBudget: Int

    private let counters = Mutex(ThumbnailStatistics())
    private let memory: Mutex<RecentlyUsed<CacheEntry, Thumbnail>>

    /// The pixel limit unless told otherwise: 16383 × 16383, about 268 megapixels.
    public static let defaultMaxPixels: Int64 = 16383 * 16383

    /// A cache in `directory`, created on first write.
    ///
    /// - Parameter memoryBudget: bytes of recently served images to keep in memory as well
    ///   (placeholders are never kept there).
    public init(directory: String, maxPixels: Int64 = ThumbnailCache.defaultMaxPixels, memoryBudget: Int = 0) {
        self.directory = directory
        self.maxPixels = maxPixels
        self.memoryBudget = max(0, memoryBudget)
        memory = Mutex(RecentlyUsed(budget: memoryBudget))
    }

    /// `$XDG_CACHE_HOME/shoebox/thumbnails`, else `$HOME/.cache/shoebox/thumbnails`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cacheHome = environment["XDG_CACHE_HOME"], cacheHome.hasPrefix("/") {
            return cacheHome + "/shoebox/thumbnails"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/shoebox/thumbnails"
    }

    /// Why no photo can be decoded in this process (libvips is missing or did not start), or nil
    /// when libvips is ready. The first call loads libvips.
    public static var decoderProblem: String? { Vips.startFailure }

    /// What this cache has done since it was made.
    public var statistics: ThumbnailStatistics {
        counters.withLock { $0 }
    }

    /// The rendition of `source` at `size`, from the cache or made now; never throws.
    ///
    /// A photo that cannot be made comes back as a placeholder with its `error`. Failures of
    /// the image itself (undecodable, too large) are remembered; a missing or unreadable file
    /// is tried again next time. A file whose image data stops early shows what it has, the
    /// rest grey, as libvips decodes it by default.
    public func image(for source: ThumbnailSource, size: ThumbnailSize) -> Thumbnail {
        let entry = CacheEntry(source, size: size)
        if let image = memorized(entry) { return image }
        guard source.path.hasPrefix("/") else {
            count(\.failed)
            let error = ThumbnailError(.invalidSource, path: source.path, "The photo's path \(source.path) is not absolute.")
            return placeholder(entry, error)
        }
        let bucket = directory + "/" + entry.bucket
        if let bytes = Self.readImage(atPath: bucket + "/" + entry.imageFileName) {
            count(\.hits)
            return memorize(Thumbnail(bytes: bytes, contentType: Self.contentType, etag: entry.etag, isPlaceholder: false, error: nil), entry)
        }
        if let error = Self.readFailure(atPath: bucket + "/" + entry.failureFileName, source: source) {
            count(\.rememberedFailures)
            return placeholder(entry, error)
        }

        switch Renderer.render(path: source.path, size: size, maxPixels: maxPixels) {
        case .success(let bytes):
            count(\.generated)
            let stored = store(bytes, as: entry.imageFileName, in: bucket)
            removeSiblings(of: entry, keeping: entry.imageFileName, in: bucket)
            return memorize(Thumbnail(bytes: bytes, contentType: Self.contentType, etag: entry.etag, isPlaceholder: false, error: stored), entry)
        case .failure(let error):
            count(\.failed)
            if error.code == .undecodable || error.code == .tooLarge {
                let record = Array((error.code.rawValue + "\n" + error.message).utf8)
                _ = store(record, as: entry.failureFileName, in: bucket)
                removeSiblings(of: entry, keeping: entry.failureFileName, in: bucket)
            }
            return placeholder(entry, error)
        }
    }

    /// The image of `source` at `size` if it is kept in memory; never reads a file.
    ///
    /// For a caller that must not block (an event loop): on nil, ask `image(for:size:)` elsewhere.
    /// - Complexity: O(1).
    public func imageInMemory(for source: ThumbnailSource, size: ThumbnailSize) -> Thumbnail? {
        memorized(CacheEntry(source, size: size))
    }

    /// The `ETag` the real image of `source` at `size` has (a placeholder's differs), worked out
    /// without reading anything: a client that holds it holds these very bytes, so its
    /// `If-None-Match` can be answered 304 at once.
    public func imageETag(for source: ThumbnailSource, size: ThumbnailSize) -> String {
        CacheEntry(source, size: size).etag
    }

    static let contentType = "image/jpeg"

    private func memorized(_ entry: CacheEntry) -> Thumbnail? {
        guard memoryBudget > 0, let image = memory.withLock({ $0.value(for: entry) }) else { return nil }
        count(\.memoryHits)
        return image
    }

    /// Keeps a real image in memory (without the disk error it may carry: from memory it is
    /// served whether or not its file could be written) and returns it as it came.
    private func memorize(_ image: Thumbnail, _ entry: CacheEntry) -> Thumbnail {
        if memoryBudget > 0 {
            var kept = image
            kept.error = nil
            memory.withLock { $0.insert(kept, for: entry, cost: kept.bytes.count) }
        }
        return image
    }

    private func placeholder(_ entry: CacheEntry, _ error: ThumbnailError) -> Thumbnail {
        let image = Renderer.placeholder(entry.size)
        return Thumbnail(bytes: image.bytes, contentType: image.contentType, etag: entry.placeholderETag, isPlaceholder: true, error: error)
    }

    private func count(_ counter: WritableKeyPath<ThumbnailStatistics, Int>) {
        counters.withLock { $0[keyPath: counter] += 1 }
    }
}
