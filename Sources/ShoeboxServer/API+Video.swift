import Foundation
import HTTPTypes
import Hummingbird
import LibraryIndex
import Logging
import PhotoLibrary
import Thumbnails

/// `GET /api/photos/{id}/video` and `…/video/status`: playback of a video in the browser.
///
/// `/video` answers the original when Chromium plays it as it is, else the H.264/AAC MP4 made
/// from it (Range on both); while that transcode runs it answers 202 with the status JSON, and
/// 422 with the reason when there can be none. `/video/status` answers
/// `{"state":"ready","source":"original"|"transcode"}`, `{"state":"preparing","percent":N}` or
/// `{"state":"failed","reason":…,"message":…}`, and starts the transcode too.
public struct VideoAPI: Sendable {
    let state: LibraryState
    let playback: VideoPlayback
    let logger: Logger
    /// Videos whose failure was logged already.
    private let loggedFailures = LoggedOnce()

    init(state: LibraryState, playback: VideoPlayback, logger: Logger) {
        self.state = state
        self.playback = playback
        self.logger = logger
    }

    /// The routes for `settings`, its cache under `cacheDirectory`/videos; logs once when
    /// ffmpeg is missing.
    static func make(state: LibraryState, settings: VideoSettings, cacheDirectory: String, logger: Logger) -> VideoAPI {
        let tool = VideoTool(memoryLimit: settings.memoryMegabytes << 20, threads: ProcessInfo.processInfo.activeProcessorCount)
        let playback = VideoPlayback(
            directory: cacheDirectory + "/videos", tool: tool, transcode: settings.transcode, maxHeight: settings.maxHeight,
            cacheBytes: Int64(settings.cacheMegabytes) * 1_000_000, timeLimit: settings.transcodeSeconds > 0 ? .seconds(settings.transcodeSeconds) : nil)
        if let problem = playback.tool.problem {
            logger.warning("Videos get placeholders and no playback: \(problem).")
        }
        return VideoAPI(state: state, playback: playback, logger: logger)
    }

    func register(on router: Router<BasicRequestContext>) {
        let api = router.group("api")
        api.get("photos/:id/video") { request, context in try await video(request, context) }
        api.head("photos/:id/video") { request, context in try await video(request, context) }
        api.get("photos/:id/video/status") { _, context in try await status(context) }
        api.head("photos/:id/video/status") { _, context in try await status(context) }
    }

    private struct Status: Encodable {
        var state: String
        var source: String?
        var percent: Int?
        var reason: String?
        var message: String?
    }

    private func answer(_ context: BasicRequestContext) async throws -> (VideoPlayback.Answer, OpenedFile) {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else {
            throw APIError.badRequest("A photo id is a positive whole number.")
        }
        let loaded = state.loaded
        let path = try loaded.path(ofPhoto: id, in: state.library)
        guard let root = loaded.root, let file = OpenedFile(root: root, relative: path) else {
            throw APIError(.notFound, code: "fileUnavailable", "The file of photo \(id) is not under the library's folder any more.")
        }
        let source = ThumbnailSource(id: id, path: file.procPath, fileSize: file.size, modified: file.modified)
        let playback = self.playback
        // ffprobe runs here the first time: off the cooperative threads.
        var answer = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: playback.answer(for: source, keepAlive: file))
            }
        }
        if case .failed(let reason, let message) = answer {
            // Name the file as the library does, not by the descriptor ffmpeg was given.
            // (A remembered failure names the descriptor of the request that met it.)
            let named = message.replacing(#/(file:)?/proc/(self|[0-9]+)/fd/[0-9]+/#, with: path.string)
            answer = .failed(reason: reason, message: named)
            if loggedFailures.first(id) {
                logger.warning("Video \(id) (\(path.string)) cannot be played: \(named)")
            }
        }
        return (answer, file)
    }

    private func status(_ context: BasicRequestContext) async throws -> Response {
        let (answer, _) = try await answer(context)
        return try json(Self.status(answer), status: .ok)
    }

    private static func status(_ answer: VideoPlayback.Answer) -> Status {
        switch answer {
        case .original: Status(state: "ready", source: "original")
        case .transcoded: Status(state: "ready", source: "transcode")
        case .preparing(let percent): Status(state: "preparing", percent: percent)
        case .failed(let reason, let message): Status(state: "failed", reason: reason, message: message)
        }
    }

    private func json(_ status: Status, status code: HTTPResponse.Status) throws -> Response {
        let data = try ContractJSON.encode(status, compact: true)
        return Response(
            status: code, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private func video(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (answer, original) = try await answer(context)
        switch answer {
        case .original(let contentType):
            return try serve(original, contentType: contentType, request)
        case .transcoded(let path):
            // Held open until the answer is sent; the cache does not evict it meanwhile.
            guard let file = playback.openTranscode(path) else {
                throw APIError(.notFound, code: "fileUnavailable", "The transcoded video went away; ask again.")
            }
            return try serve(file, contentType: "video/mp4", request)
        case .preparing:
            return try json(Self.status(answer), status: .accepted)
        case .failed:
            return try json(Self.status(answer), status: HTTPResponse.Status(code: 422, reasonPhrase: "Unprocessable Content"))
        }
    }

    private func serve(_ file: some ReadableFile, contentType: String, _ request: Request) throws -> Response {
        try file.response(to: request, headers: [.contentType: contentType, .acceptRanges: "bytes", .cacheControl: "private, max-age=60"])
    }
}

/// A transcode from the video cache, open until its answer is sent.
extension VideoPlayback.OpenTranscode: ReadableFile {}
