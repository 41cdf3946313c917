import Foundation
import PhotoFixtures
import Spawn
import Testing
import Thumbnails

/// Posters of videos made with ffmpeg (issue 25, part 1), and the rules that keep a hostile file
/// from making ffmpeg read anything else.
@Suite(.enabled(if: VideoSamples.available, "ffmpeg and ffprobe are not installed"))
struct VideoPosterTests {
    /// (file, display width, display height) of each sample.
    static let samples: [(String, Int, Int)] = [
        ("h264.mp4", 320, 240), ("mjpeg.avi", 320, 240), ("mpeg4.mkv", 320, 240), ("mpeg2.ts", 320, 240),
        ("h264.m2ts", 320, 240), ("rotated.mp4", 240, 320), ("short.mp4", 320, 240), ("hevc.mp4", 320, 240),
    ]

    @Test("Every sample video gets a real poster of its display shape at both sizes", arguments: samples)
    func posterAtBothSizes(name: String, width: Int, height: Int) throws {
        let path = try VideoSamples.path(name)
        try #require(FileManager.default.fileExists(atPath: path), "\(name) was not made (no encoder?)")
        let scratch = try Scratch()
        let source = try Scratch.source(path: path, id: 7)
        let placeholder = scratch.cache.image(for: ThumbnailSource(id: 99, path: "/nonexistent/x.mp4", fileSize: 1, modified: 1), size: .thumbnail)
        for size in ThumbnailSize.allCases {
            let image = scratch.cache.image(for: source, size: size)
            #expect(!image.isPlaceholder, "\(name) \(size): \(image.error?.message ?? "")")
            #expect(image.contentType == "image/jpeg")
            #expect(image.bytes != placeholder.bytes)
            let found = try #require(jpegSize(image.bytes))
            // A grid size's short side is its edge, a preview fits 1600 (both as ffmpeg scales, so a
            // small video is scaled up like libvips does).
            let scale = Double(size.edge) / Double(size.isShortEdge ? min(width, height) : max(width, height))
            let expected = (Int((Double(width) * scale).rounded()), Int((Double(height) * scale).rounded()))
            #expect(abs(found.width - expected.0) <= 1 && abs(found.height - expected.1) <= 1,
                    "\(name) \(size): \(found) instead of \(expected)")
        }
        // Cached: asked again, nothing is rendered.
        let renders = scratch.cache.statistics.renders
        _ = scratch.cache.image(for: source, size: .thumbnail)
        #expect(scratch.cache.statistics.renders == renders)
    }

    @Test("The poster of a clip over a second long is not its first frame")
    func posterIsASecondIn() throws {
        let path = try VideoSamples.path("h264.mp4")
        let scratch = try Scratch()
        let source = try Scratch.source(path: path, id: 1)
        let poster = scratch.cache.image(for: source, size: .thumbnail).bytes
        let first = try ffmpegFrame(path, seek: nil)
        let second = try ffmpegFrame(path, seek: 1)
        #expect(!poster.isEmpty)
        // testsrc2 moves: frame 0 and frame 25 differ, and the poster matches the later one in size class.
        #expect(first != second)
        #expect(difference(poster, second) < difference(poster, first))
    }

    @Test("A poster takes one ffmpeg run, whether the clip is over a second long or shorter",
          arguments: ["h264.mp4", "short.mp4", "mjpeg.avi", "mpeg2.ts", "mpeg4.mkv"])
    func oneRunPerPoster(name: String) throws {
        let path = try VideoSamples.path(name)
        let counted = try CountedFFmpeg()
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits(), videoTool: counted.tool)
        let image = cache.image(for: try Scratch.source(path: path, id: 11), size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        #expect(counted.runs == 1)
    }

    @Test("A clip shorter than its container says still gets a poster: its first frame, after the seek found none")
    func clipCutShortGetsItsFirstFrame() throws {
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try VideoSamples.path("mjpeg.avi"))))
        let folder = try TemporaryDirectory()
        // The header still declares 2 s; the frames stop before 1 s.
        let cut = try folder.write("cut.avi", Array(whole.prefix(whole.count * 2 / 5)))
        let counted = try CountedFFmpeg()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits(), videoTool: counted.tool)
        let image = cache.image(for: try Scratch.source(path: cut.path, id: 12), size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        #expect(jpegSize(image.bytes).map { [$0.width, $0.height] } == [427, 320])
        #expect(counted.runs == 2)
    }

    @Test("A playlist or concat list renamed .avi is never opened by ffmpeg: placeholder, not the file it names",
          arguments: ["playlist.avi", "concat.avi"])
    func hostileListIsNotFollowed(name: String) throws {
        let path = try VideoSamples.path(name)
        #expect(VideoContainer.sniff(path: path) == nil)
        let scratch = try Scratch()
        let image = scratch.cache.image(for: try Scratch.source(path: path, id: 3), size: .thumbnail)
        #expect(image.isPlaceholder)
        // And were ffmpeg given it with the sniffed-demuxer rule bypassed (as `-f avi`), it does not
        // read the red clip either.
        let tool = VideoSamples.tool
        let result = tool.run(.ffmpeg, ["-protocol_whitelist", "file", "-f", "avi", "-i", "file:" + path, "-frames:v", "1", "-f", "mjpeg", "pipe:1"],
                              path: path, timeLimit: .seconds(10))
        if case .success(let output) = result { #expect(output.stdout.isEmpty) }
    }

    @Test("Without ffmpeg a video gets a no-decoder placeholder")
    func noFFmpeg() throws {
        let path = try VideoSamples.path("h264.mp4")
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits(),
                                   videoTool: VideoTool(ffmpeg: nil, ffprobe: nil, prlimit: nil))
        let image = cache.image(for: try Scratch.source(path: path, id: 4), size: .thumbnail)
        #expect(image.isPlaceholder)
        #expect(image.error?.code.placeholderReason == "no-decoder")
        // Not remembered: once ffmpeg is there, the poster is made.
        let again = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits())
        #expect(!again.image(for: try Scratch.source(path: path, id: 4), size: .thumbnail).isPlaceholder)
    }

    @Test("A tiny time limit stops ffmpeg: a timeout placeholder")
    func timeLimit() throws {
        let path = try VideoSamples.path("mjpeg.avi")
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache", limits: RenderLimits(timeLimit: .milliseconds(1)))
        let image = cache.image(for: try Scratch.source(path: path, id: 5), size: .preview)
        #expect(image.isPlaceholder)
        #expect(image.error?.code.placeholderReason == "timeout")
    }

    @Test("Old QuickTime movies without ftyp and the usual containers sniff as videos; photos do not")
    func sniffing() throws {
        // An old movie is known by walking its atoms to `moov`: from the file, not its head.
        let folder = try TemporaryDirectory()
        var movie = MovieFixture(width: 64, height: 48)
        for start in ["free", ""] {
            movie.legacyStart = start
            #expect(VideoContainer.sniff(path: try folder.write("old\(start).mov", movie.bytes).path) == .mov)
            #expect(VideoContainer.sniff(movie.bytes) == nil)
        }
        let padding = [0, 0, 0, 16] + Array("freeHello, world".utf8) + Array("Not a movie.".utf8)
        #expect(VideoContainer.sniff(path: try folder.write("padding.mov", padding).path) == nil)
        #expect(VideoContainer.sniff(MovieFixture(width: 64, height: 48).bytes) == .mov)
        #expect(VideoContainer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)) == .avi)
        #expect(VideoContainer.sniff([0x1A, 0x45, 0xDF, 0xA3, 0x9F]) == .matroska)
        #expect(VideoContainer.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == nil)
        #expect(VideoContainer.sniff([0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) == nil)
        #expect(VideoContainer.sniff([0, 0, 0, 16] + Array("freeHello, world".utf8)) == nil)
    }

    /// A frame of `path` as JPEG at 320 px high, straight from ffmpeg.
    func ffmpegFrame(_ path: String, seek: Double?) throws -> [UInt8] {
        var arguments = ["-loglevel", "error", "-nostdin"]
        if let seek { arguments += ["-ss", String(seek)] }
        arguments += ["-i", path, "-frames:v", "1", "-vf", "scale=-1:320", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"]
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: try #require(VideoSamples.tool.ffmpeg))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// Mean absolute difference of the grey pixels of a JPEG (decoded by ffmpeg) and a raw frame.
    func difference(_ jpeg: [UInt8], _ raw: [UInt8]) -> Double {
        let folder = try? TemporaryDirectory()
        guard let folder, let url = try? folder.write("p.jpg", jpeg), let decoded = try? ffmpegFrame(url.path, seek: nil),
              decoded.count == raw.count, !raw.isEmpty
        else { return .infinity }
        return zip(decoded, raw).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(raw.count)
    }
}

/// ffmpeg behind a script that counts its runs, in a folder of its own.
struct CountedFFmpeg {
    let folder: TemporaryDirectory
    let tool: VideoTool

    init() throws {
        folder = try TemporaryDirectory()
        let real = try #require(VideoSamples.tool.ffmpeg)
        let script = "#!/bin/sh\necho run >> '\(folder.path)/runs'\nexec '\(real)' \"$@\"\n"
        let url = try folder.writeScript("ffmpeg", script)
        let found = VideoSamples.tool
        tool = VideoTool(ffmpeg: url.path, ffprobe: found.ffprobe, prlimit: found.prlimit)
    }

    /// How many times ffmpeg was started.
    var runs: Int {
        ((try? String(contentsOfFile: folder.path + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
