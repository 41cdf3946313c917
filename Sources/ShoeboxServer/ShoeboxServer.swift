import GalleryLayout
public import Hummingbird
import HTTPTypes
import Foundation
import LibraryIndex
import Places
public import Logging
public import PhotoLibrary
import PhotoMetadata
import ServiceLifecycle
import Synchronization
import Thumbnails
import Timeline
import ZoomMapping

/// `shoebox serve`: the JSON API under `/api` and the web viewer at `/`.
///
/// Photos are addressed by their row id only; no request parameter ever becomes a path.
public enum ShoeboxServer {
    /// Serves until the process is told to stop (SIGTERM; Ctrl-C ends the process).
    public static func run(settings: ServerSettings, onReady: @escaping @Sendable (Int) async -> Void) async throws {
        try await makeApplication(settings: settings, onReady: onReady).runService()
    }

    /// The application for `settings`, ready to run (`runService()`) or to test.
    ///
    /// - Parameter onReady: called once the server listens, with the port it got (useful with port 0).
    public static func makeApplication(
        settings: ServerSettings, logger: Logger? = nil, onReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(LibraryError) -> some ApplicationProtocol {
        try settings.validate()
        let logger = logger ?? {
            var logger = Logger(label: "shoebox")
            logger.logLevel = Logger.Level(rawValue: settings.configuration.server.logLevel) ?? .info
            return logger
        }()
        let library = try PhotoLibrary(databasePath: settings.databasePath, configuration: settings.configuration)
        let state = try LibraryState(library: library)
        let limits = settings.configuration.server
        let router = Router()
        router.middlewares.add(MethodMiddleware())
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(HostMiddleware(boundHost: settings.host, names: limits.hostNames))
        if let token = settings.token, !token.isEmpty { router.middlewares.add(TokenMiddleware(token: token)) }
        let thumbnails = ThumbnailCache(directory: settings.cacheDirectory + "/thumbnails", memoryBudget: API.thumbnailMemory)
        let events = EventHub()
        API(state: state, thumbnails: thumbnails, events: events, logger: logger, readOnly: settings.readOnly).register(on: router)
        VideoAPI.make(state: state, settings: settings.configuration.video, cacheDirectory: settings.cacheDirectory, logger: logger).register(on: router)
        // Loaded when a correction names a place or a photo with a position needs one; a missing table is logged then, once.
        let places = LazyPlaceTable.installed { logger.notice("\($0.message)") }
        AdjustAPI(state: state, events: events, logger: logger, databasePath: settings.databasePath, readOnly: settings.readOnly, places: places)
            .register(on: router)
        Viewer.register(on: router, logger: logger)
        var services: [any Service] = [LibraryRefresher(state: state, events: events, interval: settings.refreshInterval, logger: logger)]
        if let timing = settings.watch {
            guard let root = try library.root() else {
                throw LibraryError(.invalidRequest, "The library has no folder yet: index one first (shoebox index FOLDER), then serve it with --watch.")
            }
            do {
                let store = try LibraryStore(path: settings.databasePath, mode: .readWrite)
                // Like `shoebox index`, each run ends by persisting the sections for `sections` and `zoom`.
                store.persistTimeline(with: SectionTablePersister(settings: settings.configuration.sections))
                // Checked here, so a folder that cannot be watched stops the server at start.
                let watcher = try LibraryWatcher(
                    root: root, store: store, settings: settings.configuration.index, places: places, timing: timing)
                services.append(WatchService(
                    root: watcher.root, store: store, settings: settings.configuration.index, places: places, timing: timing,
                    state: state, events: events, logger: logger))
            } catch {
                throw LibraryError(error)
            }
        }
        let descriptors = FileDescriptorLimit.raise()
        if let descriptors, descriptors.raised {
            logger.debug("Raised the open-file limit to \(descriptors.soft).")
        }
        let connections = ConnectionCounter(limit: FileDescriptorLimit.connectionCap(limits.maxConnections, soft: descriptors?.soft))
        return Application(
            router: router,
            server: .guardedHTTP1(limits: limits, connections: connections),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "Shoebox"),
            services: services,
            onServerRunning: { channel in
                let limit = descriptors?.soft
                try? await channel.eventLoop.submit {
                    // Ahead of NIO's own back-off, which does not stop a read in which every accept failed.
                    try channel.pipeline.syncOperations.addHandler(AcceptPauseHandler(logger: logger, limit: limit), position: .first)
                }.get()
                await onReady(channel.localAddress?.port ?? settings.port)
            },
            logger: logger
        )
    }
}

/// The `/api` routes.
struct API: Sendable {
    let state: LibraryState
    let thumbnails: ThumbnailCache
    let events: EventHub
    let logger: Logger
    /// Whether corrections are refused (`serve --read-only`): `/api/library` says so to the viewer.
    let readOnly: Bool
    /// Photos whose placeholder reason was logged already.
    private let loggedFailures = LoggedOnce()

    /// Bytes of recently served thumbnails kept in memory: about 1,500 at 320 px.
    static let thumbnailMemory = 32 * 1024 * 1024

    init(state: LibraryState, thumbnails: ThumbnailCache, events: EventHub, logger: Logger, readOnly: Bool = false) {
        self.readOnly = readOnly
        self.state = state
        self.thumbnails = thumbnails
        self.events = events
        self.logger = logger
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api")
        /// A GET route that answers HEAD too (`MethodMiddleware` drops the body).
        func get(
            _ group: RouterGroup<BasicRequestContext>, _ path: RouterPath,
            _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response
        ) {
            group.get(path, use: handler)
            group.head(path, use: handler)
        }
        get(api, "library") { _, _ in try library() }
        get(api, "sections") { request, _ in try sections(request) }
        get(api, "sections/:level/:index") { request, context in try section(request, context) }
        get(api, "layout") { request, _ in try layout(request) }
        get(api, "zoom") { request, _ in try zoom(request) }
        get(api, "photos/:id") { _, context in try photo(context) }
        get(api, "photos/:id/position") { request, context in try position(request, context) }
        get(api, "photos/:id/stack") { _, context in try stack(context) }
        get(api, "search") { request, _ in try search(request) }
        get(api, "places") { request, _ in try places(request) }
        get(api, "map") { request, _ in try map(request) }
        get(api, "map/outlines") { request, _ in try mapOutlines(request) }
        get(api, "map/bounds") { request, _ in try mapBounds(request) }
        let leafletFiles = router.group("leaflet")
        get(leafletFiles, ":file") { request, context in try leaflet(request, path: context.parameters.get("file") ?? "") }
        get(leafletFiles, "images/:file") { request, context in
            try leaflet(request, path: "images/" + (context.parameters.get("file") ?? ""))
        }
        get(api, "duplicates") { request, _ in try duplicates(request) }
        get(api, "photos/:id/original") { request, context in try original(request, context) }
        get(api, "photos/:id/thumbnail") { request, context in try await thumbnail(request, context) }
        get(api, "events") { _, _ in events.response() }
    }

    // MARK: Routes

    private func library() throws -> Response {
        let loaded = state.loaded
        let snapshot = loaded.snapshot
        struct Body: Encodable {
            var root: String?
            var photos: Int
            var videos: Int
            var errors: Int
            var lastIndexed: String?
            var sections: [String: Int]
            var readOnly: Bool
        }
        let body = Body(
            root: loaded.root, photos: loaded.statistics.photos, videos: loaded.statistics.videos, errors: loaded.statistics.errors,
            lastIndexed: loaded.statistics.lastIndexed,
            sections: ["coarse": snapshot.timeline.sectionCount(.coarse), "fine": snapshot.timeline.sectionCount(.fine)],
            readOnly: readOnly)
        return try json(ContractJSON.encode(body, compact: true))
    }

    private func photo(_ context: BasicRequestContext) throws -> Response {
        let id = try photoID(context)
        return try json(ContractJSON.encode(PhotoDetailJSON(try state.library.photo(id: id), id: id), compact: true))
    }

    private func original(_ request: Request, _ context: BasicRequestContext) throws -> Response {
        let id = try photoID(context)
        let row = try state.library.photo(id: id)
        guard let root = state.loaded.root, let file = OpenedFile(root: root, relative: row.path) else {
            throw APIError(.notFound, code: "fileUnavailable", "The file of photo \(id) is not under the library's folder any more.")
        }
        let download = Query(request).raw("download") == "1"
        let headers: HTTPFields = [
            .contentType: Self.contentType(row.format), .acceptRanges: "bytes",
            .cacheControl: "private, max-age=60",
            .contentDisposition: ContentDisposition.value(fileName: row.path.string.split(separator: "/").last.map(String.init) ?? "", attachment: download),
        ]
        return try file.response(to: request, headers: headers)
    }

    /// A JPEG rendition, made once and then served from the disk cache; a placeholder (with its
    /// reason logged once) for a file libvips cannot decode, never an error loop.
    ///
    /// A hit costs no query and no read: the photo's path is remembered, the image's tag follows
    /// from the file's size and time (one `open` and `fstat`, which also keep the symlink check),
    /// and hot images are kept in memory. Only the rest goes to the cache's render pool.
    private func thumbnail(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try photoID(context)
        let sizeName = Query(request).raw("size") ?? ThumbnailSize.thumbnail.rawValue
        guard let size = ThumbnailSize(rawValue: sizeName) else {
            let names = ThumbnailSize.allCases.map(\.rawValue).joined(separator: ", ")
            throw APIError.badRequest("size must be one of \(names) (got \(sizeName)).")
        }
        let loaded = state.loaded
        let path = try loaded.path(ofPhoto: id, in: state.library)
        guard let root = loaded.root, let file = OpenedFile(root: root, relative: path) else {
            throw APIError(.notFound, code: "fileUnavailable", "The file of photo \(id) is not under the library's folder any more.")
        }
        let source = ThumbnailSource(id: id, path: file.procPath, fileSize: file.size, modified: file.modified)
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let cache = thumbnails
        if let ifNoneMatch {
            let etag = cache.imageETag(for: source, size: size)
            if Thumbnail.tag(etag, matches: ifNoneMatch) {
                return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.thumbnailCacheControl])
            }
        }
        // One render per (photo, size) at a time, in the cache's pool; the file stays open until then.
        let maxPixels = state.library.configuration.thumbnails.maxPixels
        let image = await cache.image(for: source, size: size, maxPixels: maxPixels)
        withExtendedLifetime(file) {}
        var headers: HTTPFields = [.eTag: image.etag, .cacheControl: Self.thumbnailCacheControl]
        if image.isPlaceholder, let error = image.error {
            headers[.shoeboxPlaceholder] = error.code.placeholderReason
            if loggedFailures.first(id) {
                // One line per file, by its path in the library (the render saw only a descriptor's path).
                let message = PlaceholderReason.text(error.message, openedAs: source.path, path: path.string)
                logger.warning("Photo \(id) (\(path.string)) gets a placeholder (\(error.code.placeholderReason)): \(message)")
            }
        }
        if let ifNoneMatch, image.matches(ifNoneMatch: ifNoneMatch) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = image.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    private static let thumbnailCacheControl = "private, max-age=86400"

    // MARK: Helpers

    func photoID(_ context: BasicRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else {
            throw APIError.badRequest("A photo id is a positive whole number.")
        }
        return id
    }

    func json(_ data: Data) -> Response {
        json(ByteBuffer(bytes: data))
    }

    func json(_ buffer: ByteBuffer) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: buffer))
    }

    /// A cached answer, gzip-compressed when the request's `Accept-Encoding` allows it.
    func json(_ answer: CachedAnswer, for request: Request) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache", .vary: "Accept-Encoding"]
        if let gzipped = answer.gzipped, Gzip.isAccepted(by: request.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: answer.plain))
    }

    static func contentType(_ format: ImageFormat?) -> String {
        switch format {
        case .jpeg: "image/jpeg"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .png: "image/png"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .dng: "image/x-adobe-dng"
        case .cr2: "image/x-canon-cr2"
        case .cr3: "image/x-canon-cr3"
        case .crw: "image/x-canon-crw"
        case .nef: "image/x-nikon-nef"
        case .arw: "image/x-sony-arw"
        case .orf: "image/x-olympus-orf"
        case .rw2: "image/x-panasonic-rw2"
        case .pef: "image/x-pentax-pef"
        case .raf: "image/x-fuji-raf"
        case .mrw: "image/x-minolta-mrw"
        case .x3f: "image/x-sigma-x3f"
        case .iiq, .srw: "image/x-dcraw"
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .m4v: "video/x-m4v"
        case .threeGP: "video/3gpp"
        case .avi: "video/x-msvideo"
        case .mkv: "video/x-matroska"
        case .webm: "video/webm"
        case .mpegTS, .m2ts: "video/mp2t"
        case nil: "application/octet-stream"
        }
    }
}

/// Ids seen before, so a failure is logged once, not on every request.
final class LoggedOnce: Sendable {
    private let seen = Mutex<Set<Int64>>([])

    /// Whether `id` is new (and remembers it).
    func first(_ id: Int64) -> Bool { seen.withLock { $0.insert(id).inserted } }
}

extension HTTPField.Name {
    /// Set on a placeholder thumbnail: why the photo could not be shown.
    static let shoeboxPlaceholder = HTTPField.Name("X-Shoebox-Placeholder")!
}
