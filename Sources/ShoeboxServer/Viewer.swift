import Foundation
import Hummingbird
import Logging

/// The web viewer's files (plain HTML, CSS and ES modules), served from the resource folder that
/// the build puts beside the executable, or from `$SHOEBOX_VIEWER_DIR` while working on them.
enum Viewer {
    /// `Shoebox_ShoeboxServer.resources/Viewer` beside the executable, or `nil` when it is missing
    /// (an executable copied somewhere without its resources).
    static let directory: String? = {
        // For working on the viewer: serve the files being edited, e.g. Sources/ShoeboxServer/Viewer.
        if let folder = ProcessInfo.processInfo.environment["SHOEBOX_VIEWER_DIR"], !folder.isEmpty,
           FileManager.default.fileExists(atPath: folder + "/index.html") {
            return URL(fileURLWithPath: folder).standardizedFileURL.path
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent()]
        if let main = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() { candidates.append(main) }
        candidates.append(URL(fileURLWithPath: Bundle.main.bundlePath))
        for folder in candidates {
            let viewer = folder.appendingPathComponent("Shoebox_ShoeboxServer.resources/Viewer").path
            if FileManager.default.fileExists(atPath: viewer + "/index.html") { return viewer }
        }
        return nil
    }()

    static func register(on router: Router<BasicRequestContext>, logger: Logger) {
        if let directory {
            router.middlewares.add(FileMiddleware(directory, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
        } else {
            logger.warning("The viewer's files were not found beside the executable; the API works, the viewer does not. Copy the Shoebox_ShoeboxServer.resources folder next to the shoebox executable.")
            router.on("/", method: .head) { _, _ in Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"]) }
            router.get("/") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string:
                    "Shoebox is running; the viewer's files were not found beside the executable (copy the Shoebox_ShoeboxServer.resources folder next to it). The API is under /api.\n")))
            }
        }
    }
}
