import Foundation
import PhotoFixtures
import Testing
import Thumbnails
#if canImport(Glibc)
import Glibc
#endif

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

    /// The file at `path` held open, as the server holds a photo it serves, described by `fstat`
    /// of that descriptor under its `/proc/self/fd` path.
    static func opened(_ path: String, id: Int64) throws -> (descriptor: Int32, source: ThumbnailSource) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        var status = stat()
        try #require(fstat(descriptor, &status) == 0)
        let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        return (descriptor, ThumbnailSource(id: id, path: "/proc/self/fd/\(descriptor)", fileSize: Int64(status.st_size), modified: modified))
    }

    /// Issue 30: the transcode finished under the key of the version it started from (its size
    /// and modification time), which no request names once the video has changed, and took room
    /// until swept. An ffmpeg that changes the video as it starts (appending a byte, or renaming
    /// another file over it) shows the transcode is dropped; the video as it is now transcodes.
    @Test("A video changed during its transcode leaves no transcode under its old key", arguments: [false, true])
    func changedDuringTranscode(replaced: Bool) async throws {
        let folder = try TemporaryDirectory()
        let sample = try Array(Data(contentsOf: URL(fileURLWithPath: try VideoSamples.path(Self.clip))))
        let video = try folder.write("clip.mkv", sample).path
        let other = try folder.write("other.mkv", sample + [0]).path
        let ffmpeg = try #require(VideoSamples.tool.ffmpeg)
        let marker = folder.path + "/changed"
        let change = replaced ? "mv '\(other)' '\(video)'" : "printf x >> '\(video)'"
        let script = try folder.writeScript(
            "ffmpeg", "#!/bin/sh\nif [ ! -e '\(marker)' ]; then : > '\(marker)'; \(change); fi\nexec '\(ffmpeg)' \"$@\"\n")
        let tool = VideoTool(ffmpeg: script.path, ffprobe: VideoSamples.tool.ffprobe, prlimit: VideoSamples.tool.prlimit, threads: 2)
        let directory = folder.path + "/videos"
        let playback = VideoPlayback(directory: directory, tool: tool)

        let before = try Self.opened(video, id: 1)
        defer { close(before.descriptor) }
        let answer = await playback.finishedAnswer(for: before.source, poll: .milliseconds(20))
        guard case .failed(let reason, let message) = answer else {
            Issue.record("kept: \(answer)")
            return
        }
        #expect(reason == "missing")
        #expect(message.contains("changed while it was transcoded"), "\(message)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(left.isEmpty, "\(left)")

        let now = try Self.opened(video, id: 1)
        defer { close(now.descriptor) }
        let fresh = await playback.finishedAnswer(for: now.source, poll: .milliseconds(20))
        guard case .transcoded(let path) = fresh else {
            Issue.record("the video as it is now: \(fresh)")
            return
        }
        #expect(Self.exists(path))
    }
}

