import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// JPEGs whose frame header says height 0 and whose height comes in a DNL segment after the first
/// scan: libvips (and djpeg) refuse them, Shoebox patches the height into a copy and decodes that.
@Suite struct DNLJPEGTests {
    /// The fixture is what it claims: its frame header's height is 0, a DNL segment holds 480.
    @Test func theFixtureKeepsItsHeightInADNLSegment() {
        let bytes = PhotoFixtures.withHeightInDNL(PhotoFixtures.jpeg(width: 640, height: 480))
        #expect(jpegSize(bytes).map { [$0.width, $0.height] } == [640, 0])
        #expect(bytes.suffix(8) == [0xFF, 0xDC, 0x00, 0x04, 0x01, 0xE0, 0xFF, 0xD9])
    }

    /// The rendition has the DNL's height (so the aspect of 640 × 480), turned by the EXIF
    /// orientation, at every size.
    @Test(arguments: [(1, (427, 320)), (6, (320, 427))])
    func rendersAtItsRealSizeTurned(orientation: Int, expected: (Int, Int)) async throws {
        let scratch = try Scratch()
        let bytes = PhotoFixtures.withHeightInDNL(PhotoFixtures.jpeg(width: 640, height: 480, exif: ExifFields(orientation: orientation)))
        let source = try scratch.photo("scan.jpg", bytes, id: 1)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let shown = !image.isPlaceholder
        #expect(shown, "\(image.error?.message ?? "")")
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == expected.0 && size.height == expected.1, "got \(size)")
        // The blocking path takes the same way.
        let preview = { scratch.cache.image(for: source, size: .preview) }()
        #expect(!preview.isPlaceholder)
        let previewSize = try #require(jpegSize(preview.bytes))
        #expect(max(previewSize.width, previewSize.height) == 640, "never upscaled: \(previewSize)")
    }

    /// A DNL height past the pixel limit is refused before any decode.
    @Test func aDNLHeightPastThePixelLimitIsRefused() throws {
        let scratch = try Scratch(maxPixels: 100_000)
        let source = try scratch.photo("tall.jpg", PhotoFixtures.withHeightInDNL(PhotoFixtures.jpeg(width: 640, height: 480)), id: 2)
        let image = scratch.cache.image(for: source, size: .thumbnail)
        #expect(image.isPlaceholder)
        #expect(image.error?.code == .tooLarge)
    }

    /// Height 0 and no DNL segment: still a placeholder saying the file is damaged.
    @Test func heightZeroWithoutADNLSegmentIsDamaged() throws {
        var bytes = PhotoFixtures.withHeightInDNL(PhotoFixtures.jpeg(width: 640, height: 480))
        bytes.removeSubrange((bytes.count - 8)..<(bytes.count - 2))
        let scratch = try Scratch()
        let image = scratch.cache.image(for: try scratch.photo("nodnl.jpg", bytes, id: 3), size: .thumbnail)
        #expect(image.isPlaceholder)
        #expect(image.error?.code.placeholderReason == "damaged")
    }

    /// The corpus's `beach.jpg` (metadata-extractor's images; SOF1, its height 200 in a DNL).
    @Test(.enabled(if: SharedCorpus.photos != nil, "the shared corpus is not beside the project (set SHOEBOX_CORPUS)"))
    func theCorpusDNLPhotoRenders() async throws {
        let corpus = try #require(SharedCorpus.photos)
        let path = corpus.appendingPathComponent("photos/metadata-extractor-images/jpg/beach.jpg").path
        try #require(FileManager.default.fileExists(atPath: path))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let stored = try #require(jpegSize(bytes))
        #expect(stored.height == 0)
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let image = await cache.image(for: try Scratch.source(path: path, id: 1), size: .preview)
        let shown = !image.isPlaceholder
        #expect(shown, "\(image.error?.message ?? "")")
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == stored.width && size.height == 200, "got \(size)")
    }
}
