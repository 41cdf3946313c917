import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing
import Thumbnails

/// A QuickTime movie from before `ftyp` (issue 30, part 4): an ffmpeg-made `.mov` rewritten with
/// a large `free` atom first, then `moov`, then `mdat`, its chunk offsets moved to match. ffprobe
/// reads it; Shoebox must read it as a video, sniff it for ffmpeg, and make its poster and
/// transcode.
@Suite(.enabled(if: VideoSamples.available, "ffmpeg and ffprobe are not installed"))
struct LegacyQuickTimeVideoTests {
    /// The MPEG-4 sample (320×240, 2 s, no sound: not playable in a browser, so transcoded) as an
    /// old QuickTime movie in `folder`.
    static func oldMovie(in folder: TemporaryDirectory) throws -> String {
        let sample = try VideoSamples.path("mpeg4.mkv")
        let modern = folder.path + "/modern.mov"
        let remux = VideoSamples.tool.run(.ffmpeg, ["-i", "file:" + sample, "-c", "copy", "-f", "mov", "-y", "file:" + modern],
                                          path: sample, timeLimit: .seconds(20))
        if case .failure(let error) = remux { Issue.record("remux: \(error.message)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: modern)))
        let old = try #require(PhotoFixtures.legacyQuickTime(
            bytes, leading: [.init("free", size: 600_000), .init("wide", size: 8)]))
        #expect(old.firstRange(of: Array("ftyp".utf8)) == nil)
        return try folder.write("old.mov", old).path
    }

    @Test("ffprobe reads the old movie; Shoebox reads it as a 320×240, 2 s video and sniffs it as mov")
    func readAndSniffed() throws {
        let folder = try TemporaryDirectory()
        let path = try Self.oldMovie(in: folder)
        let probe = VideoSamples.tool.run(.ffprobe, ["-print_format", "json", "-show_streams", "-show_format", "file:" + path],
                                          path: path, timeLimit: .seconds(20))
        let output = try probe.get().stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240)
        let durationText = try #require((json["format"] as? [String: Any])?["duration"] as? String)
        let probedDuration = try #require(Double(durationText))
        #expect(abs(probedDuration - 2) < 0.1)

        let metadata = try MetadataReader().read(atPath: path)
        #expect(metadata.mediaType == .video)
        #expect(metadata.format == .mov)
        #expect(metadata.displaySize == PixelSize(width: 320, height: 240))
        #expect(abs((metadata.duration ?? 0) - probedDuration) < 0.1)
        #expect(VideoContainer.sniff(path: path) == .mov)
    }

    @Test("The old movie gets a real poster and a transcode")
    func posterAndTranscode() async throws {
        let folder = try TemporaryDirectory()
        let path = try Self.oldMovie(in: folder)
        let scratch = try Scratch()
        let image = await scratch.cache.image(for: try Scratch.source(path: path, id: 31), size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        #expect(jpegSize(image.bytes).map { [$0.width, $0.height] } == [427, 320])

        let playback = VideoPlayback(directory: folder.path + "/videos", tool: VideoTool(threads: 2))
        let answer = await playback.finishedAnswer(for: try Scratch.source(path: path, id: 31), poll: .milliseconds(20))
        guard case .transcoded(let transcode) = answer else {
            Issue.record("\(answer)")
            return
        }
        let transcoded = try MetadataReader().read(atPath: transcode)
        #expect(transcoded.displaySize == PixelSize(width: 320, height: 240))
    }
}
