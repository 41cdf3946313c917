import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// Broken, hostile and missing photos: a placeholder and an error, never a crash or a retry loop.
@Suite struct FailureTests {
    static let corrupt: [(name: String, bytes: [UInt8])] = [
        ("text.jpg", Array("this is not an image at all\n".utf8)),
        ("cut-in-header.jpg", Array(PhotoFixtures.jpeg(width: 64, height: 64).prefix(30))),
        ("bad-png.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", [0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0])),
    ]

    @Test(arguments: corrupt.map(\.name))
    func aCorruptFileGetsAPlaceholderAndIsNotDecodedTwice(_ name: String) throws {
        let bytes = try #require(Self.corrupt.first { $0.name == name }).bytes
        let scratch = try Scratch()
        let source = try scratch.photo(name, bytes, id: 7)

        let first = scratch.cache.image(for: source, size: .thumbnail)
        #expect(first.isPlaceholder)
        #expect(first.error?.code == .undecodable)
        #expect(first.error?.path == source.path)
        #expect(first.error?.message.isEmpty == false)
        #expect(jpegSize(first.bytes) != nil, "the placeholder is a JPEG")
        #expect(scratch.cache.statistics.failed == 1)
        #expect(scratch.cachedFiles.contains { $0.hasSuffix(".failed") })

        let second = scratch.cache.image(for: source, size: .thumbnail)
        #expect(second.isPlaceholder)
        #expect(second.error == first.error)
        #expect(second.etag == first.etag)
        #expect(scratch.cache.statistics.failed == 1, "the failure was remembered, not decoded again")
        #expect(scratch.cache.statistics.rememberedFailures == 1)
    }

    @Test func aChangedFileIsTriedAgainAfterAFailure() throws {
        let scratch = try Scratch()
        let broken = try scratch.photo("p.jpg", Array("garbage".utf8), id: 8)
        #expect(scratch.cache.image(for: broken, size: .thumbnail).isPlaceholder)
        let fixed = try scratch.photo("p.jpg", PhotoFixtures.jpeg(width: 640, height: 480), id: 8)
        let result = scratch.cache.image(for: fixed, size: .thumbnail)
        #expect(!result.isPlaceholder)
        #expect(result.error == nil)
        #expect(!scratch.cachedFiles.contains { $0.hasSuffix(".failed") }, "the old failure was swept")
    }

    @Test func aJPEGCutShortInItsImageDataShowsWhatItHas() throws {
        // libvips decodes what is there and fills the rest with grey, as viewers do; the index
        // already reports the file as cut short.
        let whole = PhotoFixtures.jpeg(width: 1600, height: 1200)
        let scratch = try Scratch()
        let source = try scratch.photo("cut.jpg", Array(whole.prefix(whole.count * 2 / 3)), id: 14)
        let result = scratch.cache.image(for: source, size: .thumbnail)
        #expect(!result.isPlaceholder)
        #expect(result.error == nil)
        #expect(isClose(jpegSize(result.bytes), (427, 320)))
    }

    /// A PNG whose header declares 100000 × 100000 pixels (10 gigapixels) over a few bytes of data.
    static var pngBomb: [UInt8] {
        let header = bigEndian32(100_000) + bigEndian32(100_000) + [8, 2, 0, 0, 0]
        let data: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + pngChunk("IHDR", header) + pngChunk("IDAT", data) + pngChunk("IEND", [])
    }

    /// A JPEG whose start-of-frame declares 65500 × 65500 pixels.
    static var jpegBomb: [UInt8] {
        var bytes = PhotoFixtures.jpeg(width: 8, height: 8)
        let sof = bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes[sof + 5] = 0xFF; bytes[sof + 6] = 0xDC  // height 65500
        bytes[sof + 7] = 0xFF; bytes[sof + 8] = 0xDC  // width 65500
        return bytes
    }

    @Test(arguments: ["bomb.png", "bomb.jpg"])
    func aDecompressionBombIsRefusedFromItsHeader(_ name: String) throws {
        let scratch = try Scratch()
        let source = try scratch.photo(name, name.hasSuffix(".png") ? Self.pngBomb : Self.jpegBomb, id: 9)
        let result = scratch.cache.image(for: source, size: .preview)
        #expect(result.isPlaceholder)
        #expect(result.error?.code == .tooLarge, "\(result.error?.message ?? "no error")")
        #expect(result.error?.message.contains("pixels") == true)
        _ = scratch.cache.image(for: source, size: .preview)
        #expect(scratch.cache.statistics.failed == 1)
        #expect(scratch.cache.statistics.rememberedFailures == 1)
    }

    @Test func thePixelLimitIsTheCachesOwn() throws {
        let scratch = try Scratch(maxPixels: 1000 * 1000)
        let big = try scratch.photo("big.jpg", PhotoFixtures.jpeg(width: 1001, height: 1000), id: 10)
        let fits = try scratch.photo("fits.jpg", PhotoFixtures.jpeg(width: 1000, height: 1000), id: 11)
        #expect(scratch.cache.image(for: big, size: .thumbnail).error?.code == .tooLarge)
        #expect(scratch.cache.image(for: fits, size: .thumbnail).error == nil)
    }

    @Test func aMissingFileIsNotRemembered() throws {
        let scratch = try Scratch()
        let source = ThumbnailSource(id: 12, path: scratch.folder.path + "/photos/gone.jpg", fileSize: 10, modified: 1)
        let first = scratch.cache.image(for: source, size: .thumbnail)
        #expect(first.isPlaceholder)
        #expect(first.error?.code == .fileNotFound)
        _ = scratch.cache.image(for: source, size: .thumbnail)
        #expect(scratch.cache.statistics.failed == 2, "tried again: the file may come back")
        #expect(scratch.cachedFiles.isEmpty)
    }

    @Test func aRelativePathIsRefused() throws {
        let scratch = try Scratch()
        let result = scratch.cache.image(for: ThumbnailSource(id: 13, path: "photos/a.jpg", fileSize: 1, modified: 1), size: .thumbnail)
        #expect(result.isPlaceholder)
        #expect(result.error?.code == .invalidSource)
    }
}
