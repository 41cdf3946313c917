import Foundation
import Hummingbird
import Logging

/// The web viewer (plain HTML, CSS and ES modules): built into the executable, or served from
/// `$SHOEBOX_VIEWER_DIR` while working on its files.
enum Viewer {
    /// The folder named by `$SHOEBOX_VIEWER_DIR` when it holds an `index.html`, e.g.
    /// `Sources/ShoeboxServer/Viewer`, so edits show on reload without a rebuild.
    static let overrideDirectory: String? = {
        guard let folder = ProcessInfo.processInfo.environment["SHOEBOX_VIEWER_DIR"], !folder.isEmpty else { return nil }
        return URL(fileURLWithPath: folder).standardizedFileURL.path
    }()

    static func register(on router: Router<BasicRequestContext>, logger: Logger) {
        guard let directory = overrideDirectory else {
            router.middlewares.add(EmbeddedViewerMiddleware())
            return
        }
        guard FileManager.default.fileExists(atPath: directory + "/index.html") else {
            logger.warning("SHOEBOX_VIEWER_DIR is \(directory), which has no index.html; serving the viewer built into the executable.")
            router.middlewares.add(EmbeddedViewerMiddleware())
            return
        }
        logger.info("Serving the viewer's files from \(directory) (SHOEBOX_VIEWER_DIR).")
        router.middlewares.add(FileMiddleware(directory, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
    }
}
