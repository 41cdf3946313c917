import Foundation
import PhotoFixtures
import PhotoMetadata
import Testing
@testable import Thumbnails
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30: sizes read from a file are untrusted arithmetic. A HEIF declaring 4,000,000,000 ×
/// 4,000,000,000 pixels is a `too-large` placeholder, not an overflow trap; a grid whose tiles all
/// name one extent is refused from its boxes, before any tile is gathered or the render pool is
/// taken; a TIFF from `dcraw_emu` declaring such sides is refused before any product.
@Suite struct HostileSizeTests {
    // HEVC parameter sets and a slice, enough for the reader (libheif decodes none of them).
    static let vps: [UInt8] = [0x40, 0x01, 0x0C, 0x01]
    static let sps: [UInt8] = [0x42, 0x01, 0x01, 0x01, 0x60, 0, 0, 0x03, 0, 0, 0, 0, 0, 0, 0x5D, 0xA0]
    static let pps: [UInt8] = [0x44, 0x01, 0xC1, 0x72]
    static func slice(_ marker: UInt8, padding: Int = 2) -> [UInt8] { [0x26, 0x01, 0x80 | marker] + [UInt8](repeating: 0x5A, count: padding) }
    static func annexB(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [0, 0, 0, 1] + $0 } }
    static let hevc = PhotoFixtures.HEIFCodec.hevc(chromaFormat: 1, bitDepth: 8)

    /// A HEIF declaring `side` × `side`: one item's `ispe` (`tiles` 1) or a grid's 32-bit output size.
    static func hugeHEIF(side: Int = 4_000_000_000, tiles: Int) -> [UInt8] {
        let units = [vps, sps, pps] + (1...tiles).map { slice(UInt8($0)) }
        return PhotoFixtures.codedHEIF(stream: annexB(units), codec: hevc, columns: tiles, width: side, height: side)
    }

    /// A 15 × 17 grid of 512-pixel tiles, every one located at the same 2 MiB extent: 255 × 2 MiB
    /// gathered for ffmpeg from a file of 2 MiB, before issue 30.
    static func amplifyingHEIF() -> [UInt8] {
        PhotoFixtures.codedHEIF(
            stream: annexB([vps, sps, pps, slice(0, padding: 2 << 20)]), codec: hevc, columns: 15,
            width: 15 * 512, height: 17 * 512, reusedTiles: 255)
    }

    @Test("A HEIF declaring 4e9 × 4e9 pixels (ispe, or a grid's 32-bit size) is a too-large placeholder, at every size",
          .enabled(if: VideoSamples.available, "ffmpeg is not installed"), arguments: [1, 2])
    func hugeHEIFIsTooLarge(tiles: Int) async throws {
        let scratch = try Scratch()
        let source = try scratch.photo("huge-\(tiles).heic", Self.hugeHEIF(tiles: tiles), id: 1)
        for size in ThumbnailSize.allCases {
            let image = await scratch.cache.image(for: source, size: size)
            #expect(image.isPlaceholder)
            #expect(image.error?.code == .tooLarge, "\(size): \(image.error?.message ?? "")")
        }
        // The blocking path, from a fresh cache (nothing remembered).
        let fresh = ThumbnailCache(directory: scratch.folder.path + "/cache2")
        #expect(Self.blockingImage(fresh, source).error?.code == .tooLarge)
    }

    /// `cache`'s blocking `image(for:size:)` at `tiny` (an async caller would get the async one).
    static func blockingImage(_ cache: ThumbnailCache, _ source: ThumbnailSource) -> Thumbnail {
        cache.image(for: source, size: .tiny)
    }

    @Test("HEIFFallback.refusal refuses a declared size past the limit, its sides multiplied without overflow")
    func checkRefusesOverflowingSides() throws {
        let folder = try TemporaryDirectory()
        for tiles in [1, 2] {
            let path = try folder.write("huge-\(tiles).heic", Self.hugeHEIF(tiles: tiles)).path
            guard let refusal = HEIFFallback.refusal(path: path, maxPixels: .max - 1) else {
                Issue.record("\(tiles): not refused")
                continue
            }
            #expect(refusal.code == .tooLarge)
            #expect(refusal.message.contains("4000000000×4000000000"), "\(refusal.message)")
        }
    }

    @Test("A grid whose 255 tiles share one extent is refused as damaged without a render, and other photos still render",
          .enabled(if: VideoSamples.available, "ffmpeg is not installed"))
    func amplifyingGridIsRefused() async throws {
        let scratch = try Scratch()
        let hostile = try scratch.photo("amplifying.heic", Self.amplifyingHEIF(), id: 1)
        let normal = try scratch.photo("normal.jpg", PhotoFixtures.jpeg(width: 800, height: 600), id: 2)
        let cache = scratch.cache
        async let refused = cache.image(for: hostile, size: .thumbnail)
        async let served = cache.image(for: normal, size: .thumbnail)
        let (image, other) = await (refused, served)
        #expect(image.isPlaceholder)
        #expect(image.error?.code == .undecodable)
        #expect(image.error?.message.contains("share their bytes") == true, "\(image.error?.message ?? "")")
        #expect(!other.isPlaceholder, "\(other.error?.message ?? "")")
        // The normal photo's render only: the grid was refused before the pool (libheif reads its
        // header, and would have decoded its 255 tiles there).
        #expect(cache.statistics.renders == 1)
        // Straight from its boxes, whatever the limit.
        #expect(HEIFFallback.refusal(path: hostile.path, maxPixels: .max)?.code == .undecodable)
    }

    @Test("Pixel products saturate instead of trapping")
    func productsSaturate() {
        #expect(PixelSize.pixels(width: 4_000_000_000, height: 4_000_000_000) == .max)
        #expect(PixelSize(width: Int.max, height: 2).pixels == .max)
        #expect(PixelSize(width: 6000, height: 4000).pixels == 24_000_000)
        let header = Renderer.Header(width: Int.max, height: Int.max, swapped: false)
        #expect(header.refusal(path: "/x", maxPixels: RenderLimits.defaultMaxPixels)?.code == .tooLarge)
    }

    @Test("A transcode's progress from out-of-range timestamps stays 0–99", arguments: [
        (1e300, 0.000001, 99), (-1e300, 1.0, 0), (Double.nan, 1.0, 0), (Double.infinity, 1.0, 0), (5e6, 10.0, 50),
    ] as [(Double, Double, Int)])
    func progressIsClamped(micro: Double, duration: Double, percent: Int) {
        #expect(VideoPlayback.percent(outTimeMicroseconds: micro, duration: duration) == percent)
    }

    /// A stand-in `dcraw_emu` writing a TIFF whose header declares 4e9 × 4e9 pixels in 26 bytes.
    @Test("dcraw_emu's TIFF declaring 4e9 × 4e9 pixels is refused, not multiplied")
    func libRawTIFFWithOverflowingSides() throws {
        let folder = try TemporaryDirectory()
        // Little-endian TIFF, one IFD: ImageWidth and ImageLength as LONGs of 4,000,000,000.
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        let side = 4_000_000_000
        let tiff: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(2)
            + le16(256) + le16(4) + le32(1) + le32(side) + le16(257) + le16(4) + le32(1) + le32(side) + le32(0)
        let tiffFile = try folder.write("huge.tiff", tiff)
        #expect(try MetadataReader().read(atPath: tiffFile.path).pixelSize == PixelSize(width: side, height: side))
        let script = try folder.writeScript("dcraw_emu", "#!/bin/sh\nexec cat '\(tiffFile.path)'\n")
        let raw = try folder.write("photo.dng", [UInt8](repeating: 0, count: 4096))
        let tool = VideoTool(ffmpeg: nil, ffprobe: nil, dcrawEmu: script.path, prlimit: nil)
        for half in [true, false] {
            guard case .failure(let error) = LibRawDecode.decode(tool: tool, path: raw.path, half: half, timeLimit: .seconds(20)) else {
                Issue.record("a 4e9 × 4e9 TIFF of 26 bytes was taken as a picture")
                continue
            }
            #expect(error.code == .undecodable, "\(error.message)")
        }
    }
}
