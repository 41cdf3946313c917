import Foundation
import Hummingbird
import Synchronization

/// The Map page's files from outside the repository, read from disk when asked for: the country
/// outlines `scripts/map-data` sets up once, and Leaflet from Debian's `libjs-leaflet`.
enum MapFiles {
    /// The outlines' file name, beside the places table.
    static let outlinesName = "countries.geojson"

    /// Where the outlines are looked for, in order: `$SHOEBOX_MAP_OUTLINES` alone when it is set;
    /// otherwise `countries.geojson` beside the executable, then `../share/shoebox/` from the
    /// executable's folder (`scripts/install`), then `${XDG_DATA_HOME:-$HOME/.local/share}/shoebox/`
    /// (`scripts/map-data`): the places table's rules.
    static func outlinePaths(environment: [String: String], executableDirectory: String?) -> [String] {
        if let explicit = environment["SHOEBOX_MAP_OUTLINES"], !explicit.isEmpty { return [explicit] }
        var paths: [String] = []
        if let executableDirectory {
            paths.append(executableDirectory + "/" + outlinesName)
            paths.append(URL(fileURLWithPath: executableDirectory, isDirectory: true).deletingLastPathComponent()
                .appendingPathComponent("share/shoebox/" + outlinesName).path)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            paths.append(data + "/shoebox/" + outlinesName)
        } else if let home = environment["HOME"], !home.isEmpty {
            paths.append(home + "/.local/share/shoebox/" + outlinesName)
        }
        return paths
    }

    /// The paths looked at for this process.
    static let lookedAt = outlinePaths(
        environment: ProcessInfo.processInfo.environment,
        executableDirectory: Bundle.main.executableURL?.deletingLastPathComponent().path)

    /// Where Debian's `libjs-leaflet` puts Leaflet, or `$SHOEBOX_LEAFLET_DIR`.
    static let leafletDirectory: String = {
        if let folder = ProcessInfo.processInfo.environment["SHOEBOX_LEAFLET_DIR"], !folder.isEmpty { return folder }
        return "/usr/share/javascript/leaflet"
    }()

    /// Leaflet's files the viewer may ask for, by their path under `/leaflet/`.
    static let leafletFiles: [String: String] = [
        "leaflet.esm.js": "text/javascript; charset=utf-8",
        "leaflet.esm.min.js": "text/javascript; charset=utf-8",
        "leaflet.css": "text/css; charset=utf-8",
        "images/layers.png": "image/png",
        "images/layers-2x.png": "image/png",
        "images/marker-icon.png": "image/png",
        "images/marker-icon-2x.png": "image/png",
        "images/marker-shadow.png": "image/png",
    ]

    /// A file read from disk, kept with its gzip copy while its size and time stay the same.
    struct Loaded: Sendable {
        let path: String
        let size: Int
        let modified: Double
        let plain: ByteBuffer
        let gzipped: ByteBuffer?

        var etag: String { "\"\(String(size, radix: 36))-\(String(Int(modified * 1000), radix: 36))\"" }
    }

    private static let kept = Mutex<[String: Loaded]>([:])

    /// The file at `path`, or nil when it cannot be read.
    static func load(_ path: String) -> Loaded? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= 16 * 1024 * 1024,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        if let hit = kept.withLock({ $0[path] }), hit.size == size, hit.modified == modified { return hit }
        guard let bytes = FileManager.default.contents(atPath: path) else { return nil }
        let gzipped = bytes.withUnsafeBytes { Gzip.compress($0) }.map { ByteBuffer(bytes: $0) }
        let loaded = Loaded(path: path, size: size, modified: modified, plain: ByteBuffer(bytes: bytes), gzipped: gzipped)
        kept.withLock { $0[path] = loaded }
        return loaded
    }

    /// `file` as an answer: gzip when accepted, a strong tag, 304 when it matches.
    static func response(_ file: Loaded, contentType: String, to request: Request, maxAge: Int) -> Response {
        var headers: HTTPFields = [
            .contentType: contentType, .eTag: file.etag, .cacheControl: "private, max-age=\(maxAge)", .vary: "Accept-Encoding",
        ]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag }) {
            return Response(status: .notModified, headers: headers)
        }
        if let gzipped = file.gzipped, Gzip.isAccepted(by: request.headers[.acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.plain))
    }
}
