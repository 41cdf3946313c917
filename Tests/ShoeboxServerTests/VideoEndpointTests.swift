import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import PhotoLibrary
import PhotoFixtures
import ShoeboxServer
import Spawn
import Testing
import Thumbnails

/// `GET /api/photos/{id}/video` and `/video/status` (issue 25, part 2) on videos made at test time
/// by `scripts/make-test-videos`: a browser-playable MP4 is served as it is, with Range; AVI,
/// Matroska, MPEG-TS and HEVC are transcoded into H.264/AAC MP4.
@Suite(.enabled(if: VideoTool().problem == nil, "ffmpeg and ffprobe are not installed"), .serialized)
struct VideoEndpointTests {
    /// One library for every test here (made once: videos, photos, index).
    static let shared = Task { try await makeFixture() }

    static func fixture() async throws -> ServerFixture { try await shared.value }

    /// A library of the sample videos (and the usual generated photos); `options` go to the script
    /// (`--hostile`: its two hostile videos instead).
    static func makeFixture(options: [String] = []) async throws -> ServerFixture {
        let fixture = try await ServerFixture(count: 3)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/make-test-videos")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script.path, fixture.root + "/videos"] + options
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "make-test-videos failed")
        try await fixture.index()
        return fixture
    }

    static func id(_ fixture: ServerFixture, _ name: String) throws -> Int64 {
        try #require(try fixture.rows().first { $0.path == "videos/" + name }, "\(name) is not in the library").id
    }

    /// Polls the status route until it is no longer preparing; returns the last JSON.
    static func ready(_ client: some TestClientProtocol, _ id: Int64) async throws -> [String: Any] {
        var percents: [Int] = []
        for _ in 0..<600 {
            let response = try await client.execute(uri: "/api/photos/\(id)/video/status", method: .get)
            let body = try #require(try response.json() as? [String: Any])
            guard body["state"] as? String == "preparing" else { return body }
            percents.append(body["percent"] as? Int ?? -1)
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("still preparing after 60 s: \(percents.suffix(5))")
        return [:]
    }

    /// ffprobe's (format name, video codec, pixel format, audio codec) of `bytes`.
    static func probe(_ bytes: [UInt8]) throws -> (String, String, String, String?) {
        let folder = try TemporaryDirectory()
        let url = try folder.write("v.bin", bytes)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: try #require(VideoTool().ffprobe))
        process.arguments = ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let streams = object["streams"] as? [[String: Any]] ?? []
        let video = streams.first { $0["codec_type"] as? String == "video" }
        let audio = streams.first { $0["codec_type"] as? String == "audio" }
        return ((object["format"] as? [String: Any])?["format_name"] as? String ?? "",
                video?["codec_name"] as? String ?? "", video?["pix_fmt"] as? String ?? "", audio?["codec_name"] as? String)
    }

    @Test("A browser-playable H.264 MP4 is served as it is, with Range")
    func playableOriginal() async throws {
        let fixture = try await Self.fixture()
        let id = try Self.id(fixture, "h264.mp4")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.root + "/videos/h264.mp4")))
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        try await app.test(.router) { client in
            let status = try await Self.ready(client, id)
            #expect(status["state"] as? String == "ready")
            #expect(status["source"] as? String == "original")
            let whole = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(whole.status == .ok)
            #expect(whole.bytes == original)
            #expect(whole.headers[.contentType] == "video/mp4")
            let part = try await client.execute(uri: "/api/photos/\(id)/video", method: .get, headers: [.range: "bytes=100-199"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-199/\(original.count)")
            #expect(part.bytes == Array(original[100...199]))
        }
    }

    @Test("AVI, Matroska, MPEG-TS, M2TS and HEVC are transcoded to H.264/AAC MP4, served with Range",
          arguments: ["mjpeg.avi", "mpeg4.mkv", "mpeg2.ts", "h264.m2ts", "hevc.mp4"])
    func transcoded(name: String) async throws {
        let fixture = try await Self.fixture()
        let id = try Self.id(fixture, name)
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(first.status == .accepted || first.status == .ok)
            let status = try await Self.ready(client, id)
            #expect(status["state"] as? String == "ready", "\(status)")
            #expect(status["source"] as? String == "transcode")
            let whole = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "video/mp4")
            let (format, video, pixels, audio) = try Self.probe(whole.bytes)
            #expect(format.contains("mp4"))
            #expect(video == "h264")
            #expect(pixels == "yuv420p")
            if name != "mpeg4.mkv" && name != "hevc.mp4" { #expect(audio == "aac") }
            // +faststart: the movie box comes before the media data.
            let moov = whole.bytes.indices.first { whole.bytes[$0...].starts(with: Array("moov".utf8)) } ?? .max
            let mdat = whole.bytes.indices.first { whole.bytes[$0...].starts(with: Array("mdat".utf8)) } ?? .max
            #expect(moov < mdat)
            let part = try await client.execute(uri: "/api/photos/\(id)/video", method: .get, headers: [.range: "bytes=0-9"])
            #expect(part.status == .partialContent)
            #expect(part.bytes == Array(whole.bytes.prefix(10)))
        }
    }

    @Test("With transcoding off, a video the browser cannot play says why (422)")
    func transcodingOff() async throws {
        let fixture = try await Self.fixture()
        let id = try Self.id(fixture, "mjpeg.avi")
        var settings = fixture.settings()
        settings.configuration.video.transcode = false
        settings.cacheDirectory = fixture.tree.path + "/cache-without-transcodes"
        let app = try ShoeboxServer.makeApplication(settings: settings)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(response.status.code == 422)
            let body = try #require(try response.json() as? [String: Any])
            #expect(body["state"] as? String == "failed")
            #expect((body["message"] as? String ?? "").contains("transcoding is off"))
        }
    }

    @Test("A rotated phone clip's poster is portrait")
    func rotatedPoster() async throws {
        let fixture = try await Self.fixture()
        let id = try Self.id(fixture, "rotated.mp4")
        let response = try await get(try ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/photos/\(id)/thumbnail")
        #expect(response.status == .ok)
        #expect(response.headers[.shoeboxPlaceholderTest] == nil)
        let bytes = response.bytes
        // SOF0 of ffmpeg's baseline JPEG: height then width.
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        let height = Int(bytes[sof + 5]) << 8 | Int(bytes[sof + 6])
        let width = Int(bytes[sof + 7]) << 8 | Int(bytes[sof + 8])
        #expect(width == 320 && height > width, "\(width)×\(height)")
    }
}

extension HTTPField.Name {
    static let shoeboxPlaceholderTest = HTTPField.Name("X-Shoebox-Placeholder")!
}
