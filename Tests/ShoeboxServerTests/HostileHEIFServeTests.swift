import Foundation
import LibraryIndex
import PhotoFixtures
import Spawn
import Synchronization
import Testing

/// Whether ffmpeg is on `PATH` (the HEIF fallback, where the trap was, runs only with it).
private var ffmpegInstalled: Bool {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
    return folders.contains { FileManager.default.isExecutableFile(atPath: $0 + "/ffmpeg") }
}

/// Issue 30, part 7: one crafted HEIF must never take the server down. A HEIF whose `ispe` (or a
/// grid's 32-bit output size) declares 4,000,000,000 × 4,000,000,000 pixels killed `shoebox serve`
/// at its first thumbnail (an overflow trap), and `shoebox thumbnails` with it (exit 132); a grid
/// whose 255 tiles all name one 2 MiB extent made the server gather ~510 MiB per rendition.
/// Here the real executables run on such a library.
@Suite(
    "shoebox serve and thumbnails: hostile HEIF sizes",
    .enabled(if: ffmpegInstalled, "ffmpeg is not installed (the HEIF fallback runs only with it)"),
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
struct HostileHEIFServeTests {
    static let vps: [UInt8] = [0x40, 0x01, 0x0C, 0x01]
    static let sps: [UInt8] = [0x42, 0x01, 0x01, 0x01, 0x60, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0x5D, 0xA0]
    static let pps: [UInt8] = [0x44, 0x01, 0xC1, 0x72]
    static func slice(_ marker: UInt8, padding: Int = 2) -> [UInt8] { [0x26, 0x01, 0x80 | marker] + [UInt8](repeating: 0x5A, count: padding) }
    static func annexB(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [0, 0, 0, 1] + $0 } }
    static let hevc = PhotoFixtures.HEIFCodec.hevc(chromaFormat: 1, bitDepth: 8)

    /// The hostile photos by name, and a normal one.
    static func library() -> [(name: String, bytes: [UInt8])] {
        let side = 4_000_000_000
        return [
            ("huge-ispe.heic", PhotoFixtures.codedHEIF(stream: annexB([vps, sps, pps, slice(1)]), codec: hevc, width: side, height: side)),
            ("huge-grid.heic", PhotoFixtures.codedHEIF(
                stream: annexB([vps, sps, pps, slice(1), slice(2)]), codec: hevc, columns: 2, width: side, height: side)),
            ("amplifying.heic", PhotoFixtures.codedHEIF(
                stream: annexB([vps, sps, pps, slice(0, padding: 2 << 20)]), codec: hevc, columns: 15,
                width: 15 * 512, height: 17 * 512, reusedTiles: 255)),
            ("normal.jpg", PhotoFixtures.jpeg(width: 800, height: 600)),
        ]
    }

    /// A library of `library()` indexed by `shoebox index`; its database and photo ids by name.
    static func indexed(_ tree: TemporaryDirectory) throws -> (database: String, ids: [String: Int64]) {
        for photo in library() { try tree.write("photos/" + photo.name, photo.bytes) }
        let database = tree.path + "/index.sqlite"
        let status = try run(["index", tree.path + "/photos", "--db", database], cache: tree.path + "/cache")
        try #require(status == 0)
        var ids: [String: Int64] = [:]
        try LibraryStore(path: database, mode: .readOnly).forEachPhoto { ids[$0.path.string] = $0.id }
        try #require(ids.count == library().count, "\(ids)")
        return (database, ids)
    }

    /// Runs `shoebox` to its end with `XDG_CACHE_HOME` at `cache`; its exit status.
    static func run(_ arguments: [String], cache: String) throws -> Int32 {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: shoeboxExecutable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The status and `X-Shoebox-Placeholder` header of a GET, by curl; status 0 when nothing answered.
    static func get(port: Int, _ path: String) -> (status: Int, placeholder: String?) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-o", "/dev/null", "-D", "-", "--max-time", "60", "http://127.0.0.1:\(port)\(path)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return (0, nil) }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(whereSeparator: \.isNewline)
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        let placeholder = lines.first { $0.lowercased().hasPrefix("x-shoebox-placeholder:") }
            .map { $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) }
        return (status, placeholder)
    }

    /// The peak resident memory of process `pid` (`VmHWM`), in bytes.
    static func peakMemory(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).dropLast(3))
        else { return nil }
        return kilobytes * 1024
    }

    @Test("The server answers too-large and damaged placeholders for the hostile HEIFs at every size, stays up within bounded memory, and serves a normal photo")
    func serverStaysUp() throws {
        let tree = try TemporaryDirectory()
        let (database, ids) = try Self.indexed(tree)
        let (server, port) = try LiveLibraryTests.startServer(
            database: database, log: tree.path + "/serve.log", watch: false, environment: ["XDG_CACHE_HOME": tree.path + "/cache"])
        defer { server.terminate(); server.waitUntilExit() }

        let sizes = ["tiny", "thumbnail", "preview"]
        // The amplifying grid's renditions asked at once, beside the normal photo's.
        let asked = ["amplifying.heic", "normal.jpg"].flatMap { name in sizes.map { (name, $0) } }
        let answers = Mutex([String: (status: Int, placeholder: String?)]())
        DispatchQueue.concurrentPerform(iterations: asked.count) { index in
            let (name, size) = asked[index]
            let answer = Self.get(port: port, "/api/photos/\(ids[name]!)/thumbnail?size=\(size)")
            answers.withLock { $0["\(name) \(size)"] = answer }
        }
        for size in sizes {
            let hostile = answers.withLock { $0["amplifying.heic \(size)"] }
            #expect(hostile?.status == 200 && hostile?.placeholder == "damaged", "amplifying \(size): \(String(describing: hostile))")
            let normal = answers.withLock { $0["normal.jpg \(size)"] }
            #expect(normal?.status == 200 && normal?.placeholder == nil, "normal \(size): \(String(describing: normal))")
        }
        for name in ["huge-ispe.heic", "huge-grid.heic"] {
            for size in sizes {
                let answer = Self.get(port: port, "/api/photos/\(ids[name]!)/thumbnail?size=\(size)")
                #expect(answer.status == 200 && answer.placeholder == "too-large", "\(name) \(size): \(answer)")
            }
        }
        #expect(server.isRunning, "\((try? String(contentsOfFile: tree.path + "/serve.log", encoding: .utf8)) ?? "")")
        #expect(Self.get(port: port, "/api/photos/\(ids["normal.jpg"]!)/thumbnail?size=tiny").placeholder == nil)
        // Gathering the grid's tiles took ~510 MiB per rendition; refused from its boxes, none.
        let peak = try #require(Self.peakMemory(server.processIdentifier))
        #expect(peak < 400 << 20, "the server's peak resident memory was \(peak >> 20) MiB")
    }

    @Test("shoebox thumbnails ends normally on a library of hostile HEIFs")
    func thumbnailsCommandEnds() throws {
        let tree = try TemporaryDirectory()
        let (database, _) = try Self.indexed(tree)
        let status = try Self.run(["thumbnails", "--db", database], cache: tree.path + "/cache")
        #expect(status == 0)
    }
}
