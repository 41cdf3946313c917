import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing
@testable import Thumbnails

/// HEIFs libvips refuses are decoded by ffmpeg (`HEIFFallback`): an H.264 HEIF (libheif 1.15 has
/// no H.264 decoder) and a 10-bit 4:2:2 HEVC grid, as cameras write, with tiles stitched in order,
/// cropped to the declared size and turned by `irot`/`imir`. Pictures are checked by their colours.
@Suite(.enabled(if: VideoSamples.available, "ffmpeg is not installed"))
struct HEIFFallbackTests {
    /// A 320 × 240 picture: left half red, right half blue, its bottom-right quarter green.
    static let pattern = "color=c=red:s=320x240,drawbox=x=160:y=0:w=160:h=240:color=blue:t=fill,"
        + "drawbox=x=160:y=120:w=160:h=120:color=lime:t=fill"

    /// ffmpeg's Annex B output for `pattern`, cut into `tiles` (columns × rows) pictures.
    static func encode(_ encoder: [String], tiles: (Int, Int) = (1, 1)) throws -> [UInt8] {
        let untile = tiles == (1, 1) ? "" : ",untile=\(tiles.0)x\(tiles.1)"
        let arguments = ["-f", "lavfi", "-i", pattern + untile, "-frames:v", String(tiles.0 * tiles.1)] + encoder + ["pipe:1"]
        switch VideoSamples.tool.run(.ffmpeg, arguments, path: "lavfi", timeLimit: .seconds(60)) {
        case .success(let output): return output.stdout
        case .failure(let error): throw error
        }
    }

    static let h264 = ["-c:v", "libx264", "-g", "1", "-bf", "0", "-pix_fmt", "yuv420p", "-f", "h264"]
    static let hevc422 = ["-c:v", "libx265", "-pix_fmt", "yuv422p10le", "-x265-params", "log-level=error:keyint=1", "-f", "hevc"]

    /// A JPEG's size and RGB pixels, decoded by ffmpeg (which leaves EXIF orientation alone
    /// when reading from a pipe as `mjpeg`).
    static func rgb(_ jpeg: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let size = try #require(jpegSize(jpeg))
        let arguments = ["-f", "mjpeg", "-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]
        let pixels: [UInt8]
        switch VideoSamples.tool.run(.ffmpeg, ["-protocol_whitelist", "pipe"] + arguments, path: "jpeg", timeLimit: .seconds(30), input: jpeg) {
        case .success(let output): pixels = output.stdout
        case .failure(let error): throw error
        }
        try #require(pixels.count == size.width * size.height * 3)
        return (size.width, size.height, pixels)
    }

    /// The colour names at the four quarters' centres of a JPEG (top-left, top-right, bottom-left, bottom-right).
    static func quarters(_ jpeg: [UInt8]) throws -> (size: (Int, Int), colours: [String]) {
        let (width, height, pixels) = try rgb(jpeg)
        let size = (width: width, height: height)
        let colours = [(1, 1), (3, 1), (1, 3), (3, 3)].map { column, row -> String in
            let at = ((size.height * row / 4) * size.width + size.width * column / 4) * 3
            let (r, g, b) = (Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
            if r > 180 && g < 80 && b < 80 { return "red" }
            if b > 180 && r < 80 && g < 80 { return "blue" }
            if g > 180 && r < 80 && b < 80 { return "green" }
            return "(\(r),\(g),\(b))"
        }
        return ((size.width, size.height), colours)
    }

    @Test func anH264HEIFShowsTurned() async throws {
        let file = PhotoFixtures.codedHEIF(stream: try Self.encode(Self.h264), codec: .h264, width: 320, height: 240, rotation: 1)
        let folder = try TemporaryDirectory()
        let source = try Scratch.source(path: try folder.write("turned.heic", file).path, id: 1)
        // libvips cannot read it at all.
        guard case .failure = Renderer.inspect(path: source.path) else {
            Issue.record("libvips now reads H.264 HEIF; this test no longer shows the fallback")
            return
        }
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let image = await cache.image(for: source, size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        let (size, colours) = try Self.quarters(image.bytes)
        // A quarter turn anticlockwise, 240 × 320; never larger than the photo.
        #expect(size == (240, 320))
        #expect(colours == ["blue", "green", "red", "red"])
    }

    @Test func aTenBitGridIsStitchedCroppedAndMirrored() throws {
        let stream = try Self.encode(Self.hevc422, tiles: (2, 2))
        let file = PhotoFixtures.codedHEIF(
            stream: stream, codec: .hevc(chromaFormat: 2, bitDepth: 10), columns: 2, width: 300, height: 220, mirror: 0)
        let folder = try TemporaryDirectory()
        let path = try folder.write("grid.hif", file).path
        let coded = try #require(HEIFFallback.plan(path: path))
        #expect((coded.columns, coded.rows, coded.width, coded.height) == (2, 2, 300, 220))
        let made = HEIFFallback.render(tool: VideoSamples.tool, path: path, image: coded, size: .preview, timeLimit: .seconds(30))
        let jpeg = try made.get()
        let (size, colours) = try Self.quarters(jpeg)
        // Never larger than the photo; the 320 × 240 of tiles cropped to 300 × 220.
        #expect(size == (300, 220))
        // Mirrored left to right.
        #expect(colours == ["blue", "red", "green", "red"])
    }

    /// A HEIF that ffmpeg cannot decode either keeps libvips's reason, with ffmpeg's after it.
    @Test func undecodableEverywhereSaysBoth() async throws {
        var stream = try Self.encode(Self.h264)
        // Garble every slice byte after the headers.
        let units = PhotoFixtures.annexBUnits(stream)
        stream = units.flatMap { unit in [0, 0, 0, 1] + (unit[0] & 0x1F == 5 ? [unit[0]] + [UInt8](repeating: 0xFF, count: unit.count - 1) : unit) }
        let folder = try TemporaryDirectory()
        let source = try Scratch.source(path: try folder.write("broken.heic", PhotoFixtures.codedHEIF(stream: stream, codec: .h264, width: 320, height: 240)).path, id: 2)
        let image = await ThumbnailCache(directory: folder.path + "/cache").image(for: source, size: .thumbnail)
        #expect(image.isPlaceholder)
        #expect(image.error?.code == .undecodable)
        #expect(image.error?.message.contains("libvips") == true)
        #expect(image.error?.message.contains("ffmpeg") == true, "\(image.error?.message ?? "")")
    }
}
