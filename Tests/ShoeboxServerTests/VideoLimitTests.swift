import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import PhotoLibrary
import PhotoFixtures
import ShoeboxServer
import Testing
import Thumbnails

/// ffmpeg's limits hold under the server: a transcode past `video.transcodeSeconds` is killed, one
/// that needs more than `video.memoryMegabytes` fails; either answers 422 with its reason, and
/// the server goes on answering.
@Suite(.enabled(if: VideoTool().problem == nil, "ffmpeg and ffprobe are not installed"), .serialized)
struct VideoLimitTests {
    /// A library of the two hostile videos of `scripts/make-test-videos --hostile`.
    static let shared = Task { try await VideoEndpointTests.makeFixture(options: ["--hostile"]) }

    /// Asks for `name`'s video until it is no longer preparing; checks the 422 and that the server
    /// still answers; returns the failure's reason and message.
    static func failure(_ name: String, configure: (inout VideoSettings) -> Void) async throws -> (reason: String, message: String) {
        let fixture = try await shared.value
        let id = try VideoEndpointTests.id(fixture, name)
        var settings = fixture.settings()
        configure(&settings.configuration.video)
        settings.cacheDirectory = fixture.tree.path + "/cache-" + UUID().uuidString
        let app = try ShoeboxServer.makeApplication(settings: settings)
        let failure = try await app.test(.router) { client in
            let first = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(first.status == .accepted, "a transcode starts")
            let status = try await VideoEndpointTests.ready(client, id)
            #expect(status["state"] as? String == "failed", "\(status)")
            let response = try await client.execute(uri: "/api/photos/\(id)/video", method: .get)
            #expect(response.status.code == 422)
            let body = try #require(try response.json() as? [String: Any])
            // The server goes on: the library and a photo's thumbnail still answer.
            #expect(try await client.execute(uri: "/api/library", method: .get).status == .ok)
            let photo = try #require(try fixture.rows().first { !$0.path.hasPrefix("videos/") })
            #expect(try await client.execute(uri: "/api/photos/\(photo.id)/thumbnail", method: .get).status == .ok)
            return (body["reason"] as? String ?? "", body["message"] as? String ?? "")
        }
        // No transcode, whole or half-written, is left behind.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: settings.cacheDirectory + "/videos")) ?? []
        #expect(left.isEmpty, "\(left)")
        return failure
    }

    @Test("A transcode past video.transcodeSeconds is stopped: 422 with reason timeout")
    func slowTranscodeIsStopped() async throws {
        // Timed from the first request: making the fixture is not part of it (under a loaded
        // parallel run that alone took over a minute).
        _ = try await Self.shared.value
        let started = ContinuousClock.now
        let (reason, message) = try await Self.failure("slow.mkv") { $0.transcodeSeconds = 1 }
        #expect(reason == "timeout")
        #expect(message.contains("longer than the limit of 1.0 seconds"), "\(message)")
        #expect(message.contains("videos/slow.mkv"), "named by its path in the library: \(message)")
        // The reason says it was killed (run to its end, it would be ready); this says the kill
        // came well before the end of a transcode of two minutes of 1080p on a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("A frame that needs more memory than video.memoryMegabytes fails: 422 with reason too-large naming the limit")
    func hugeFrameHitsTheMemoryLimit() async throws {
        let (reason, message) = try await Self.failure("huge.avi") { $0.memoryMegabytes = 512 }
        #expect(reason == "too-large")
        #expect(message.contains("more memory than its limit of 512 MiB"), "\(message)")
        #expect(message.contains("videos/huge.avi"), "\(message)")
    }
}
