public import Foundation
import Dispatch
import Synchronization

/// Thumbnails and previews of photos, made with libvips and kept in a disk cache.
///
/// An entry is keyed by photo id, size, file size and modification time, so a changed file is
/// made again and its old entry removed. A photo that cannot be decoded gets a placeholder,
/// and that failure is remembered under the same key: it is not decoded again until the file
/// changes. Safe to call from many threads at once.
///
/// Every decode goes through the cache's `RenderPool`, so no more run at once than it allows,
/// whichever method asked. The async `image(for:size:)` also makes one render per (photo, size)
/// at a time: requests for an entry already being made wait for that render's result.
///
/// With a `memoryBudget`, the most recently served images are also kept in memory, so a hot
/// thumbnail is sent without reading its file again.
public final class ThumbnailCache: Sendable {
    /// The folder holding the entries.
    public let directory: String
    /// The pixel and time limits of each render.
    public let limits: RenderLimits
    /// Photos whose header declares more pixels than this are refused unread.
    public var maxPixels: Int64 { limits.maxPixels }
    /// Bounds the renders running at once.
    public let pool: RenderPool

    /// Bytes of images kept in memory at most; 0 keeps none.
    public let memoryBudget: Int
    /// Runs ffmpeg for the posters of videos.
    public let videoTool: VideoTool

    private let counters = Mutex(ThumbnailStatistics())
    private let memory: Mutex<RecentlyUsed<CacheEntry, Thumbnail>>
    /// The renders under way for the async callers, by entry.
    private let flights = Mutex<[CacheEntry: Task<Thumbnail, Never>]>([:])

    /// The pixel limit unless told otherwise (see `RenderLimits.defaultMaxPixels`).
    public static let defaultMaxPixels: Int64 = RenderLimits.defaultMaxPixels

    /// A cache in `directory`, created on first write.
    ///
    /// - Parameter memoryBudget: bytes of recently served images to keep in memory as well
    ///   (placeholders are never kept there).
    public convenience init(directory: String, maxPixels: Int64 = ThumbnailCache.defaultMaxPixels, memoryBudget: Int = 0) {
        self.init(directory: directory, limits: RenderLimits(maxPixels: maxPixels), memoryBudget: memoryBudget)
    }

    /// A cache in `directory` whose renders keep to `limits`, run in `pool` (by default one render
    /// per core, with a pixel budget of one photo at the limit).
    public init(directory: String, limits: RenderLimits, memoryBudget: Int = 0, pool: RenderPool? = nil, videoTool: VideoTool = VideoTool()) {
        self.directory = directory
        self.videoTool = videoTool
        self.limits = limits
        self.pool = pool ?? RenderPool(pixelBudget: limits.maxPixels)
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
    /// when libvips is ready. The first call loads libvips; a process that starts threads should
    /// make it first, since libvips's start-up writes to the environment (VIPSHOME) and a thread
    /// reading the environment meanwhile (starting ffmpeg) can read freed memory.
    public static var decoderProblem: String? { Vips.startFailure }

    /// What this cache has done since it was made.
    public var statistics: ThumbnailStatistics {
        counters.withLock { $0 }
    }

    /// The rendition of `source` at `size`, from the cache or made now; never throws.
    ///
    /// A photo that cannot be made comes back as a placeholder with its `error`. Failures of
    /// the image itself (undecodable, too large, too slow) are remembered; a missing or
    /// unreadable file is tried again next time. A file whose image data stops early shows what
    /// it has, the rest grey, as libvips decodes it by default. Blocks the calling thread while
    /// it waits for the pool; it does not join renders under way for the async callers.
    public func image(for source: ThumbnailSource, size: ThumbnailSize) -> Thumbnail {
        let entry = CacheEntry(source, size: size)
        if let image = memorized(entry) { return image }
        switch prepare(entry, source, maxPixels: limits.maxPixels) {
        case .done(let image):
            return image
        case .render(let header, let otherwise):
            return pool.runBlocking(pixels: header.pixels) { render(entry, source, header, otherwise: otherwise) }
        case .poster(let container):
            return pool.runBlocking(pixels: 0) { poster(entry, source, container) }
        case .preview(let plan):
            return pool.runBlocking(pixels: plan.pixels) { renderPreview(entry, source, plan) }
        case .heightFromDNL:
            return pool.runBlocking(pixels: limits.maxPixels) { renderDNL(entry, source, maxPixels: limits.maxPixels) }
        case .heif(let failure):
            return pool.runBlocking(pixels: 0) { renderHEIF(entry, source, failure, maxPixels: limits.maxPixels) }
        case .libRaw(let preview, let otherwise):
            return pool.runBlocking(pixels: limits.maxPixels / 4) {
                renderLibRaw(entry, source, preview: preview, otherwise: otherwise, maxPixels: limits.maxPixels)
            }
        }
    }

    /// The rendition of `source` at `size`, from the cache or made now, without blocking the
    /// caller's thread; never throws.
    ///
    /// As the blocking `image(for:size:)`, and: while one entry is being made, every other request
    /// for it waits for that result rather than decoding the photo again.
    /// - Parameter maxPixels: a pixel limit for this request instead of the cache's own.
    public func image(for source: ThumbnailSource, size: ThumbnailSize, maxPixels: Int64? = nil) async -> Thumbnail {
        let entry = CacheEntry(source, size: size)
        if let image = memorized(entry) { return image }
        let limit = maxPixels.map { max(1, $0) } ?? limits.maxPixels
        let (flight, joined) = flights.withLock { table -> (Task<Thumbnail, Never>, Bool) in
            if let flight = table[entry] { return (flight, true) }
            // Unstructured: the render goes on for the others when the first asker goes away.
            // The entry leaves the table under this same lock, so after this insertion.
            let flight = Task { [self] in
                let image = await make(entry, source, maxPixels: limit)
                flights.withLock { _ = $0.removeValue(forKey: entry) }
                return image
            }
            table[entry] = flight
            return (flight, false)
        }
        if joined { count(\.joined) }
        return await flight.value
    }

    /// One entry's cache look-up, then its render, each off Swift's cooperative threads.
    private func make(_ entry: CacheEntry, _ source: ThumbnailSource, maxPixels: Int64) async -> Thumbnail {
        let step = await withCheckedContinuation { (continuation: CheckedContinuation<Step, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: self.prepare(entry, source, maxPixels: maxPixels))
            }
        }
        switch step {
        case .done(let image):
            return image
        case .render(let header, let otherwise):
            return await pool.run(pixels: header.pixels) { self.render(entry, source, header, otherwise: otherwise) }
        case .poster(let container):
            return await pool.run(pixels: 0) { self.poster(entry, source, container) }
        case .preview(let plan):
            return await pool.run(pixels: plan.pixels) { self.renderPreview(entry, source, plan) }
        case .heightFromDNL:
            return await pool.run(pixels: maxPixels) { self.renderDNL(entry, source, maxPixels: maxPixels) }
        case .heif(let failure):
            // ffmpeg decodes in its own process: none of this one's memory.
            return await pool.run(pixels: 0) { self.renderHEIF(entry, source, failure, maxPixels: maxPixels) }
        case .libRaw(let preview, let otherwise):
            // LibRaw decodes in its own process; libvips here holds its TIFF, most often a half-size one.
            return await pool.run(pixels: maxPixels / 4) {
                self.renderLibRaw(entry, source, preview: preview, otherwise: otherwise, maxPixels: maxPixels)
            }
        }
    }

    /// What is left to do for an entry after the cheap steps.
    private enum Step: Sendable {
        /// Served from disk, a remembered failure, or refused from its header.
        case done(Thumbnail)
        /// To be decoded; the header says how large it is. `otherwise` is the failure to keep
        /// when it cannot be (a raw tried with libvips for want of a preview).
        case render(Renderer.Header, otherwise: ThumbnailError? = nil)
        /// A video, whose poster ffmpeg makes.
        case poster(VideoContainer)
        /// To be made from a JPEG embedded in the file (a raw's preview).
        case preview(EmbeddedPreview.Plan)
        /// A JPEG whose height comes after its first scan (`DNLJPEG`); its size is known only
        /// once the file is read.
        case heightFromDNL
        /// A HEIF libvips cannot read (`failure`), for ffmpeg to decode (`HEIFFallback`).
        case heif(ThumbnailError)
        /// A raw for LibRaw to decode whole (`LibRawDecode`): its preview is too small for the
        /// size (then shown if LibRaw fails), or it has none and libvips reads no picture in it
        /// (then `otherwise` is the failure kept if LibRaw fails).
        case libRaw(preview: EmbeddedPreview.Plan?, otherwise: ThumbnailError?)
    }

    /// The entry from disk, its remembered failure, or the header check; everything but decoding.
    private func prepare(_ entry: CacheEntry, _ source: ThumbnailSource, maxPixels: Int64) -> Step {
        guard source.path.hasPrefix("/") else {
            count(\.failed)
            let error = ThumbnailError(.invalidSource, path: source.path, "The photo's path \(source.path) is not absolute.")
            return .done(placeholder(entry, error))
        }
        let bucket = directory + "/" + entry.bucket
        if let bytes = Self.readImage(atPath: bucket + "/" + entry.imageFileName) {
            count(\.hits)
            return .done(memorize(Thumbnail(bytes: bytes, contentType: Self.contentType, etag: entry.etag, isPlaceholder: false, error: nil), entry))
        }
        let video = VideoContainer.sniff(path: source.path)
        // (A video's failure remembered from before posters, when libvips was tried, is not kept.)
        if let error = Self.readFailure(atPath: bucket + "/" + entry.failureFileName, source: source),
           video == nil || !error.message.hasPrefix("libvips") {
            count(\.rememberedFailures)
            return .done(placeholder(entry, error))
        }
        if let video { return .poster(video) }
        if let step = embeddedStep(entry, source, maxPixels: maxPixels) { return step }
        switch Renderer.inspect(path: source.path) {
        case .failure(let error):
            if error.code == .undecodable, DNLJPEG.declaresNoHeight(path: source.path) { return .heightFromDNL }
            // A HEIF libheif refuses, perhaps for ffmpeg to decode.
            if error.code == .undecodable, HEIFFallback.applies(path: source.path) {
                // Refused from its boxes alone (too large, tiles sharing bytes) without a turn in the pool.
                if let refusal = HEIFFallback.refusal(path: source.path, maxPixels: maxPixels) { return .done(finish(entry, .failure(refusal))) }
                if videoTool.ffmpeg != nil { return .heif(error) }
            }
            // No picture of its own, but perhaps an EXIF thumbnail, as ExifTool shows.
            if error.code == .undecodable, let plan = EmbeddedPreview.standIn(path: source.path), plan.pixels <= maxPixels {
                return .preview(plan)
            }
            return .done(finish(entry, .failure(error)))
        case .success(let header):
            if let error = header.refusal(path: source.path, maxPixels: maxPixels) {
                return .done(finish(entry, .failure(error)))
            }
            // A HEIF whose size libheif reads may still be a grid of tiles sharing one extent,
            // which libheif would decode tile after tile in the pool (and ffmpeg after it).
            if HEIFFallback.applies(path: source.path), let refusal = HEIFFallback.refusal(path: source.path, maxPixels: maxPixels) {
                return .done(finish(entry, .failure(refusal)))
            }
            return .render(header)
        }
    }

    /// Decodes and stores one entry; called inside the pool.
    private func render(_ entry: CacheEntry, _ source: ThumbnailSource, _ header: Renderer.Header, otherwise: ThumbnailError? = nil) -> Thumbnail {
        count(\.renders)
        let result = Renderer.render(path: source.path, header: header, size: entry.size, timeLimit: limits.timeLimit)
        var rescued = JPEGFallback.rescue(result, path: source.path, header: header, size: entry.size, timeLimit: limits.timeLimit)
        if case .failure(let error) = rescued {
            rescued = HEIFFallback.rescue(
                error, tool: videoTool, path: source.path, size: entry.size, maxPixels: limits.maxPixels, timeLimit: limits.timeLimit)
        }
        // A photo no decoder can read shows its EXIF thumbnail, when it has one that decodes.
        if case .failure(let error) = rescued, error.code == .undecodable,
           let plan = EmbeddedPreview.standIn(path: source.path), plan.pixels <= limits.maxPixels,
           case .success(let bytes) = EmbeddedPreview.render(path: source.path, plan: plan, size: entry.size, timeLimit: limits.timeLimit) {
            return finish(entry, .success(bytes))
        }
        if case .failure(let error) = rescued, error.code == .undecodable, let otherwise {
            // A raw with no preview whose TIFF image libvips could not decode: LibRaw's turn.
            if otherwise.code == .noPreview, videoTool.dcrawEmu != nil {
                return finish(entry, libRaw(source, preview: nil, otherwise: otherwise, size: entry.size, maxPixels: limits.maxPixels))
            }
            return finish(entry, .failure(otherwise))
        }
        return finish(entry, rescued)
    }

    /// The step for a rendition made from an embedded JPEG: a raw's preview (in the pool), or a
    /// `tiny` one from an EXIF thumbnail, made at once (a few milliseconds, so the grid's first
    /// paint never waits behind full renders); nil when the photo itself is to be decoded.
    private func embeddedStep(_ entry: CacheEntry, _ source: ThumbnailSource, maxPixels: Int64) -> Step? {
        switch EmbeddedPreview.plan(path: source.path, size: entry.size) {
        case nil:
            return nil
        case .failure(let missing):
            let error = missing.error
            // Sensor data in IFD0 (a DNG's Bayer image), which libvips reads as a grey mosaic:
            // LibRaw decodes it, when it is installed.
            if missing.sensorData, videoTool.dcrawEmu != nil { return .libRaw(preview: nil, otherwise: error) }
            // A raw with no preview may still hold a picture libvips reads in its TIFF structure
            // (a DNG's or an IIQ's RGB image in IFD0).
            if case .success(let header) = Renderer.inspect(path: source.path) {
                if let refusal = header.refusal(path: source.path, maxPixels: maxPixels) { return .done(finish(entry, .failure(refusal))) }
                return .render(header, otherwise: error)
            }
            // No picture libvips reads either: LibRaw decodes the sensor data, when it is installed.
            if videoTool.dcrawEmu != nil { return .libRaw(preview: nil, otherwise: error) }
            return .done(finish(entry, .failure(error)))
        case .success(let plan):
            if plan.pixels > maxPixels {
                return .done(finish(entry, .failure(ThumbnailError(
                    .tooLarge, path: source.path,
                    "The preview in \(source.path) declares \(plan.width)×\(plan.height) pixels, more than the limit of \(maxPixels); it was not decoded."))))
            }
            if entry.size == .tiny && min(plan.width, plan.height) <= 4 * ThumbnailSize.tiny.edge {
                count(\.renders)
                let made = EmbeddedPreview.render(path: source.path, plan: plan, size: entry.size, timeLimit: limits.timeLimit)
                // An EXIF thumbnail that does not decode gives way to the photo itself.
                if case .failure(let error) = made, error.code == .undecodable { return nil }
                return .done(finish(entry, made))
            }
            // A preview smaller than the rendition (some cameras embed only 640 px): LibRaw's
            // picture instead, the preview if LibRaw fails. Never for `tiny`, which must be fast.
            if entry.size != .tiny, videoTool.dcrawEmu != nil, !LibRawDecode.covers(width: plan.width, height: plan.height, size: entry.size) {
                return .libRaw(preview: plan, otherwise: nil)
            }
            return .preview(plan)
        }
    }

    /// Decodes an embedded JPEG and stores the entry.
    private func renderPreview(_ entry: CacheEntry, _ source: ThumbnailSource, _ plan: EmbeddedPreview.Plan) -> Thumbnail {
        count(\.renders)
        return finish(entry, EmbeddedPreview.render(path: source.path, plan: plan, size: entry.size, timeLimit: limits.timeLimit))
    }

    /// Decodes a JPEG whose height is in its DNL segment and stores the entry; called inside the pool.
    private func renderDNL(_ entry: CacheEntry, _ source: ThumbnailSource, maxPixels: Int64) -> Thumbnail {
        count(\.renders)
        return finish(entry, DNLJPEG.render(path: source.path, size: entry.size, maxPixels: maxPixels, timeLimit: limits.timeLimit))
    }

    /// Decodes a HEIF libvips refused (`failure`) with ffmpeg and stores the entry; called inside the pool.
    private func renderHEIF(_ entry: CacheEntry, _ source: ThumbnailSource, _ failure: ThumbnailError, maxPixels: Int64) -> Thumbnail {
        count(\.renders)
        let made = HEIFFallback.rescue(
            failure, tool: videoTool, path: source.path, size: entry.size, maxPixels: maxPixels, timeLimit: limits.timeLimit)
        return finish(entry, made)
    }

    /// Decodes a raw with LibRaw and stores the entry; called inside the pool.
    private func renderLibRaw(
        _ entry: CacheEntry, _ source: ThumbnailSource, preview: EmbeddedPreview.Plan?, otherwise: ThumbnailError?, maxPixels: Int64
    ) -> Thumbnail {
        count(\.renders)
        return finish(entry, libRaw(source, preview: preview, otherwise: otherwise, size: entry.size, maxPixels: maxPixels))
    }

    /// LibRaw's picture of `source` at `size`; when LibRaw fails, `preview` rendered instead, or
    /// for an undecodable raw the failure `otherwise` (its code kept, LibRaw's reason added).
    private func libRaw(
        _ source: ThumbnailSource, preview: EmbeddedPreview.Plan?, otherwise: ThumbnailError?, size: ThumbnailSize, maxPixels: Int64
    ) -> Result<[UInt8], ThumbnailError> {
        let orientation = preview?.orientation ?? EmbeddedPreview.orientation(path: source.path)
        let made = LibRawDecode.render(
            tool: videoTool, path: source.path, orientation: orientation, size: size, maxPixels: maxPixels, timeLimit: limits.timeLimit)
        guard case .failure(let error) = made else { return made }
        if let preview { return EmbeddedPreview.render(path: source.path, plan: preview, size: size, timeLimit: limits.timeLimit) }
        if let otherwise, error.code == .undecodable {
            return .failure(ThumbnailError(otherwise.code, path: source.path, otherwise.message + " " + error.message))
        }
        return made
    }

    /// Makes and stores a video's poster with ffmpeg; called inside the pool.
    private func poster(_ entry: CacheEntry, _ source: ThumbnailSource, _ container: VideoContainer) -> Thumbnail {
        count(\.renders)
        return finish(entry, VideoPoster.render(tool: videoTool, path: source.path, container: container, size: entry.size, timeLimit: limits.timeLimit))
    }

    /// Stores a render's outcome: the image, or the failure when it lies in the photo itself.
    private func finish(_ entry: CacheEntry, _ result: Result<[UInt8], ThumbnailError>) -> Thumbnail {
        let bucket = directory + "/" + entry.bucket
        switch result {
        case .success(let bytes):
            count(\.generated)
            let stored = store(bytes, as: entry.imageFileName, in: bucket)
            removeSiblings(of: entry, keeping: entry.imageFileName, in: bucket)
            return memorize(Thumbnail(bytes: bytes, contentType: Self.contentType, etag: entry.etag, isPlaceholder: false, error: stored), entry)
        case .failure(let error):
            count(\.failed)
            if [.undecodable, .tooLarge, .timedOut, .noPreview].contains(error.code) {
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
