import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing
@testable import Thumbnails

/// Raws with no usable preview are decoded whole by LibRaw's `dcraw_emu` (`LibRawDecode`): a
/// Bayer DNG that only a raw decoder shows (red on the left, blue on the right, in sensor
/// samples) comes out in its colours, turned by its EXIF orientation, never upscaled; a preview
/// too small for the size gives way to LibRaw, except for `tiny`; without the tool, the old
/// placeholder and small preview. Pictures are checked by their colours (`HEIFFallbackTests.quarters`).
@Suite(
    .enabled(if: LibRawTools.tool.dcrawEmu != nil, "dcraw_emu is not installed (Debian: libraw-bin)"),
    .enabled(if: VideoSamples.available, "ffmpeg is not installed (the colours are read with it)")
)
struct LibRawDecodeTests {
    static let tool = LibRawTools.tool
    static let withoutLibRaw = LibRawTools.withoutLibRaw

    func cache(_ folder: TemporaryDirectory, tool: VideoTool = LibRawTools.tool) -> ThumbnailCache {
        ThumbnailCache(directory: folder.path + "/cache", limits: .default, videoTool: tool)
    }

    @Test func aBayerDNGWithoutPreviewShowsItsColours() async throws {
        let folder = try TemporaryDirectory()
        let source = try Scratch.source(path: try folder.write("bayer.dng", PhotoFixtures.cfaDNG(width: 320, height: 240)).path, id: 1)
        // Its IFD0 is sensor data, which libvips reads only as a grey mosaic.
        #expect(try MetadataReader().embeddedJPEGs(atPath: source.path).firstImageIsSensorData)
        let image = await cache(folder).image(for: source, size: .thumbnail)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        let (size, colours) = try HEIFFallbackTests.quarters(image.bytes)
        // Never larger than the raw (a half-size decode, 160 × 120, would be too small).
        #expect(size == (320, 240))
        #expect(colours == ["red", "blue", "red", "blue"])
    }

    /// The colours at the quarters (top-left, top-right, bottom-left, bottom-right) of the
    /// 320 × 240 raw, red on the left, blue on the right, shown by each EXIF orientation.
    static let turned: [(orientation: Int, colours: [String])] = [
        (3, ["blue", "red", "blue", "red"]), (6, ["red", "red", "blue", "blue"]), (8, ["blue", "blue", "red", "red"]),
        (2, ["blue", "red", "blue", "red"]), (5, ["red", "red", "blue", "blue"]), (7, ["blue", "blue", "red", "red"]),
    ]

    @Test(arguments: LibRawDecodeTests.turned)
    func itsEXIFOrientationIsApplied(_ turn: (orientation: Int, colours: [String])) async throws {
        let folder = try TemporaryDirectory()
        let file = PhotoFixtures.cfaDNG(width: 320, height: 240, orientation: turn.orientation)
        let source = try Scratch.source(path: try folder.write("turned.dng", file).path, id: 2)
        let image = await cache(folder).image(for: source, size: .preview)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        let (size, colours) = try HEIFFallbackTests.quarters(image.bytes)
        #expect(turn.orientation < 5 ? size == (320, 240) : size == (240, 320))
        #expect(colours == turn.colours)
    }

    /// A camera-sized raw turned a quarter, at a size the half-size decode covers (libvips cannot
    /// turn a TIFF it reads in order from memory, so LibRaw turns it).
    @Test func aLargeTurnedRawAtPreviewSize() async throws {
        let folder = try TemporaryDirectory()
        let file = PhotoFixtures.cfaDNG(width: 2400, height: 1600, orientation: 6)
        let source = try Scratch.source(path: try folder.write("large-turned.dng", file).path, id: 8)
        let image = await cache(folder).image(for: source, size: .preview)
        #expect(!image.isPlaceholder, "\(image.error?.message ?? "")")
        let (size, colours) = try HEIFFallbackTests.quarters(image.bytes)
        #expect(size == (1067, 1600))
        #expect(colours == ["red", "red", "blue", "blue"])
    }

    @Test func aPreviewTooSmallGivesWayToLibRawButNotForTiny() async throws {
        let folder = try TemporaryDirectory()
        let file = PhotoFixtures.cfaDNG(width: 400, height: 300, preview: (64, 48))
        let source = try Scratch.source(path: try folder.write("small-preview.dng", file).path, id: 3)
        let cache = cache(folder)
        let preview = await cache.image(for: source, size: .preview)
        #expect(!preview.isPlaceholder, "\(preview.error?.message ?? "")")
        let (size, colours) = try HEIFFallbackTests.quarters(preview.bytes)
        #expect(size == (400, 300))
        #expect(colours == ["red", "blue", "red", "blue"])
        // `tiny` stays on the fast path: the grey 64 × 48 preview.
        let tiny = await cache.image(for: source, size: .tiny)
        #expect(!tiny.isPlaceholder)
        #expect(jpegSize(tiny.bytes).map { [$0.width, $0.height] } == [64, 48])
    }

    /// Without `dcraw_emu`: libvips's reading of the Bayer samples as grey, as before; a raw
    /// libvips cannot decode keeps its `noPreview` placeholder; a small preview is shown.
    @Test func withoutTheToolEverythingIsAsBefore() async throws {
        #expect(Self.withoutLibRaw.dcrawEmu == nil)
        #expect(Self.withoutLibRaw.ffmpeg == Self.tool.ffmpeg)
        let folder = try TemporaryDirectory()
        let cache = cache(folder, tool: Self.withoutLibRaw)
        let bare = try Scratch.source(path: try folder.write("bayer.dng", PhotoFixtures.cfaDNG(width: 320, height: 240)).path, id: 4)
        let mosaic = await cache.image(for: bare, size: .thumbnail)
        #expect(!mosaic.isPlaceholder)
        let (_, colours) = try HEIFFallbackTests.quarters(mosaic.bytes)
        #expect(!colours.contains("red") && !colours.contains("blue"), "\(colours)")
        let whole = PhotoFixtures.cfaDNG(width: 320, height: 240)
        let cut = try Scratch.source(path: try folder.write("cut.dng", Array(whole.prefix(whole.count / 3))).path, id: 5)
        let placeholder = await cache.image(for: cut, size: .thumbnail)
        #expect(placeholder.isPlaceholder)
        #expect(placeholder.error?.code == .noPreview)
        #expect(placeholder.error?.code.placeholderReason == "unsupported")
        #expect(placeholder.error?.message.contains("LibRaw") == false)
        let small = PhotoFixtures.cfaDNG(width: 400, height: 300, preview: (64, 48))
        let withPreview = try Scratch.source(path: try folder.write("small-preview.dng", small).path, id: 6)
        let preview = await cache.image(for: withPreview, size: .preview)
        #expect(!preview.isPlaceholder)
        #expect(jpegSize(preview.bytes).map { [$0.width, $0.height] } == [64, 48])
    }

    /// Sensor data cut short: LibRaw still writes a picture (of garbage), which is not shown.
    @Test func cutShortSensorDataKeepsThePlaceholder() async throws {
        let folder = try TemporaryDirectory()
        let whole = PhotoFixtures.cfaDNG(width: 320, height: 240)
        let source = try Scratch.source(path: try folder.write("cut.dng", Array(whole.prefix(whole.count / 3))).path, id: 7)
        let image = await cache(folder).image(for: source, size: .thumbnail)
        #expect(image.isPlaceholder)
        #expect(image.error?.code == .noPreview)
        #expect(image.error?.message.contains("LibRaw") == true, "\(image.error?.message ?? "")")
    }

    /// ExifTool's `Panasonic.rw2` (12 KB, an 8 × 8 preview, no sensor data) is decoded by LibRaw
    /// into stripes without a warning; too small for its sensor, it keeps showing its preview.
    @Test(.enabled(if: SharedCorpus.photos != nil, "the shared corpus is not beside the project (set SHOEBOX_CORPUS)"))
    func aRawStubShowsItsPreviewNotStripes() async throws {
        let corpus = try #require(SharedCorpus.photos)
        let path = corpus.appendingPathComponent("photos/exiftool-t-images/Panasonic.rw2").path
        let source = try Scratch.source(path: path, id: 9)
        #expect(throws: ThumbnailError.self) { try LibRawDecode.decode(tool: Self.tool, path: path, half: true, timeLimit: .seconds(30)).get() }
        let folder = try TemporaryDirectory()
        let image = await cache(folder).image(for: source, size: .preview)
        #expect(!image.isPlaceholder)
        #expect(jpegSize(image.bytes).map { [$0.width, $0.height] } == [8, 8])
    }

    /// dcraw_emu runs under the tools' address-space limit: a raw that needs more is refused as
    /// too large, not taken for a damaged one.
    @Test func overTheMemoryLimitIsTooLarge() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("big.dng", PhotoFixtures.cfaDNG(width: 6000, height: 4000)).path
        let small = VideoTool(memoryLimit: 64 << 20)
        try #require(small.prlimit != nil, "prlimit (util-linux) is not installed")
        let result = LibRawDecode.decode(tool: small, path: path, half: true, timeLimit: .seconds(30))
        guard case .failure(let error) = result else {
            Issue.record("decoded within 64 MiB")
            return
        }
        #expect(error.code == .tooLarge, "\(error.message)")
    }

    /// A dcraw_emu that crashes (here a script that kills itself with SIGSEGV, as a hostile raw
    /// might make LibRaw do) costs a placeholder or the small preview, never the server.
    @Test func aCrashingDecoderLeavesThePlaceholderOrThePreview() async throws {
        let folder = try TemporaryDirectory()
        let script = try folder.writeScript("dcraw_emu", "#!/bin/sh\nkill -SEGV $$\n")
        let tool = VideoTool(ffmpeg: Self.tool.ffmpeg, ffprobe: Self.tool.ffprobe, dcrawEmu: script.path, prlimit: Self.tool.prlimit)
        let cache = cache(folder, tool: tool)
        let bare = try Scratch.source(path: try folder.write("bayer.dng", PhotoFixtures.cfaDNG(width: 320, height: 240)).path, id: 10)
        let placeholder = await cache.image(for: bare, size: .thumbnail)
        #expect(placeholder.isPlaceholder)
        #expect(placeholder.error?.code == .noPreview)
        #expect(placeholder.error?.message.contains("signal \(SIGSEGV)") == true, "\(placeholder.error?.message ?? "")")
        let small = PhotoFixtures.cfaDNG(width: 400, height: 300, preview: (64, 48))
        let withPreview = try Scratch.source(path: try folder.write("small-preview.dng", small).path, id: 11)
        let preview = await cache.image(for: withPreview, size: .preview)
        #expect(!preview.isPlaceholder)
        #expect(jpegSize(preview.bytes).map { [$0.width, $0.height] } == [64, 48])
    }

    /// A half-size decode is taken when it covers the size, a whole one otherwise.
    @Test func halfSizeWhenItCovers() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("large.dng", PhotoFixtures.cfaDNG(width: 1280, height: 960)).path
        let half = try LibRawDecode.decode(tool: Self.tool, path: path, half: true, timeLimit: .seconds(30)).get()
        #expect((half.width, half.height) == (640, 480))
        #expect(LibRawDecode.covers(width: half.width, height: half.height, size: .thumbnail))
        #expect(!LibRawDecode.covers(width: half.width, height: half.height, size: .large))
        #expect(!LibRawDecode.covers(width: half.width, height: half.height, size: .preview))
        let jpeg = try LibRawDecode.render(tool: Self.tool, path: path, orientation: 1, size: .large, maxPixels: 1 << 30, timeLimit: .seconds(30)).get()
        #expect(jpegSize(jpeg).map { [$0.width, $0.height] } == [1067, 800])
    }
}

/// The tools of these tests: those installed, and the same without `dcraw_emu`.
enum LibRawTools {
    static let tool = VideoTool()

    /// As on a machine without libraw-bin: `SHOEBOX_DCRAW_EMU` empty, given to the initializer
    /// (the process's environment is left alone).
    static let withoutLibRaw = VideoTool(environment: ProcessInfo.processInfo.environment.merging(["SHOEBOX_DCRAW_EMU": ""]) { $1 })
}
