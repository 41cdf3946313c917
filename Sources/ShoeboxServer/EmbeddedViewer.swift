import Foundation
import HTTPTypes
import Hummingbird

/// The web viewer's files, built into the executable by the EmbedViewer plugin
/// (`base64Files`, generated from the `Viewer` folder at build time).
enum EmbeddedViewer {
    /// One file, ready to send: its bytes plain and gzip-compressed (compressed once, at first use).
    struct File: Sendable {
        let contentType: String
        let plain: ByteBuffer
        let gzipped: ByteBuffer?
        /// A strong tag from the bytes, so a reload after an upgrade fetches the new file.
        let etag: String
    }

    /// The files by URL path (`/` is `index.html`), decoded on first use.
    static let files: [String: File] = {
        var files: [String: File] = [:]
        for (path, base64) in base64Files {
            guard let bytes = Data(base64Encoded: base64) else { continue }
            let gzipped = bytes.withUnsafeBytes { Gzip.compress($0, level: 9) }.map { ByteBuffer(bytes: $0) }
            files["/" + path] = File(
                contentType: contentType(of: path), plain: ByteBuffer(bytes: bytes), gzipped: gzipped,
                etag: "\"\(String(fnv1a(bytes), radix: 36))\"")
        }
        files["/"] = files["/index.html"]
        return files
    }()

    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// FNV-1a, 64 bits: a tag for a file that changes with it (not a defence against anyone).
    private static func fnv1a(_ bytes: Data) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// Serves `EmbeddedViewer.files` for GET and HEAD; every other request goes on to the routes.
struct EmbeddedViewerMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let file = EmbeddedViewer.files[request.uri.path] else {
            return try await next(request, context)
        }
        var headers: HTTPFields = [.eTag: file.etag, .cacheControl: "no-cache", .vary: "Accept-Encoding"]
        if let ifNoneMatch = request.headers[.ifNoneMatch],
           ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        var body = file.plain
        if let gzipped = file.gzipped, Gzip.isAccepted(by: request.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            body = gzipped
        }
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: .ok, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body))
    }
}
