import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// The size-capped cache of transcodes (`video.cacheMegabytes`): past the cap the least recently
/// played go first, never the one just made, one being written or one being sent.
@Suite(.enabled(if: VideoSamples.available, "ffmpeg and ffprobe are not installed"), .serialized)
struct TranscodeCacheTests {
    /// The sample transcoded in these tests: no audio, quick to transcode.
    static let clip = "mpeg4.mkv"

    /// The sample as the video with `id` (another id, another transcode of the same bytes).
    static func source(_ id: Int64) throws -> ThumbnailSource {
        try Scratch.source(path: try VideoSamples.path(clip), id: id)
    }

    /// The finished transcode's path for `id`, made (or found) by `playback`.
    static func transcode(_ playback: VideoPlayback, _ id: Int64) async throws -> String {
        let answer = await playback.finishedAnswer(for: try source(id), poll: .milliseconds(20))
        guard case .transcoded(let path) = answer else {
            Issue.record("video \(id): \(answer)")
            throw CancellationError()
        }
        return path
    }

    static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test("Past the cap the least recently played transcode goes; the one just made and one played since stay")
    func leastRecentlyPlayedGoesFirst() async throws {
        let folder = try TemporaryDirectory()
        let directory = folder.path + "/videos"
        let roomy = VideoPlayback(directory: directory, tool: VideoTool(threads: 2))
        let first = try await Self.transcode(roomy, 1)
        let second = try await Self.transcode(roomy, 2)
        let each = max(Self.size(first), Self.size(second))
        try #require(each > 0)
        // Room for two and a half: a third transcode pushes one out.
        let capped = VideoPlayback(directory: directory, tool: VideoTool(threads: 2), cacheBytes: each * 5 / 2)
        try await Task.sleep(for: .milliseconds(20))
        // Playing the first makes the second the least recently played.
        #expect(capped.answer(for: try Self.source(1)) == .transcoded(path: first))
        let third = try await Self.transcode(capped, 3)
        #expect(Self.exists(first))
        #expect(!Self.exists(second))
        #expect(Self.exists(third))
    }

    @Test("A transcode being sent or written is never evicted, even when least recently played; once sent, it can go")
    func sentAndWrittenTranscodesStay() async throws {
        let folder = try TemporaryDirectory()
        let directory = folder.path + "/videos"
        let roomy = VideoPlayback(directory: directory, tool: VideoTool(threads: 2))
        let first = try await Self.transcode(roomy, 1)
        let second = try await Self.transcode(roomy, 2)
        let length = Self.size(first)
        // A transcode being written, as `run` names them.
        let writing = directory + "/.tmp-9_1_1_h1080-0.mp4"
        try #require(FileManager.default.createFile(atPath: writing, contents: Data(count: 4096)))

        // A cap below one transcode: each new one pushes out all it may.
        let tight = VideoPlayback(directory: directory, tool: VideoTool(threads: 2), cacheBytes: 1)
        var sending = try #require(tight.openTranscode(first))
        let third = try await Self.transcode(tight, 3)
        #expect(Self.exists(first), "being sent")
        #expect(!Self.exists(second))
        #expect(Self.exists(third), "just made")
        #expect(Self.exists(writing), "being written")
        #expect(sending.size == length)

        // Sent: the next transcode may push it out.
        sending = try #require(tight.openTranscode(third))
        let fourth = try await Self.transcode(tight, 4)
        #expect(!Self.exists(first))
        #expect(Self.exists(third), "being sent")
        #expect(Self.exists(fourth))
        withExtendedLifetime(sending) {}
    }

    @Test("A transcode removed before it is opened is not sent: the caller asks again")
    func anEvictedTranscodeIsNotOpened() async throws {
        let folder = try TemporaryDirectory()
        let playback = VideoPlayback(directory: folder.path + "/videos", tool: VideoTool(threads: 2))
        let path = try await Self.transcode(playback, 1)
        try FileManager.default.removeItem(atPath: path)
        #expect(playback.openTranscode(path) == nil)
        // Asked again, it is made again.
        #expect(try await Self.transcode(playback, 1) == path)
    }

    @Test("A transcode past its wall-clock limit is stopped and says so")
    func wallClockLimit() async throws {
        let folder = try TemporaryDirectory()
        let playback = VideoPlayback(directory: folder.path + "/videos", tool: VideoTool(threads: 2), timeLimit: .milliseconds(1))
        let answer = await playback.finishedAnswer(for: try Self.source(1), poll: .milliseconds(20))
        guard case .failed(let reason, let message) = answer else {
            Issue.record("not stopped: \(answer)")
            return
        }
        #expect(reason == "timeout")
        #expect(message.contains("longer than the limit"), "\(message)")
        // Nothing half-written is left behind.
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/videos")) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
