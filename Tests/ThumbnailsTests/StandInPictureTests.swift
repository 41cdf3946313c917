import PhotoFixtures
import Testing
import Thumbnails

/// A file whose own picture cannot be shown still gets one when a common tool finds another in
/// it: a raw without an embedded preview is decoded by libvips (its TIFF structure), and a JPEG
/// without a decodable picture shows its EXIF thumbnail, at every size.
@Suite struct StandInPictureTests {
    /// The DNG embeds no JPEG; its IFD0 RGB image is what libvips reads, turned by its orientation
    /// (never upscaled, so it keeps its 64 × 48 pixels).
    @Test(arguments: [(1, (64, 48)), (6, (48, 64))])
    func rawWithoutPreviewIsDecodedFromItsTIFFStructure(orientation: Int, expected: (Int, Int)) async throws {
        let scratch = try Scratch()
        let source = try scratch.photo("IMG_0001.DNG", PhotoFixtures.dngWithoutPreview(width: 64, height: 48, orientation: orientation), id: 1)
        for size in [ThumbnailSize.thumbnail, .preview, .tiny] {
            let image = await scratch.cache.image(for: source, size: size)
            let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
            #expect(imageShown, "\(size): \(image.error?.message ?? "")")
            let found = try #require(jpegSize(image.bytes))
            #expect(found.width == expected.0 && found.height == expected.1, "\(size): \(found)")
        }
    }

    /// A JPEG with nothing but an EXIF segment shows its 160 × 120 thumbnail, turned upright by
    /// orientation 6, for every size (never upscaled).
    @Test(arguments: ThumbnailSize.allCases)
    func exifThumbnailStandsInForAMissingPicture(size: ThumbnailSize) async throws {
        let scratch = try Scratch()
        let source = try scratch.photo("exif-only.jpg", PhotoFixtures.exifThumbnailOnly(thumbnail: (160, 120), orientation: 6), id: 2)
        let image = await scratch.cache.image(for: source, size: size)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let found = try #require(jpegSize(image.bytes))
        #expect(found.width == 120 && found.height == 160, "\(found)")
    }

    /// A `tiny` whose EXIF thumbnail has a frame header but no scan comes from the photo itself.
    @Test func tinyFromAnUndecodableExifThumbnailComesFromThePhoto() async throws {
        let scratch = try Scratch()
        let whole = PhotoFixtures.jpeg(width: 160, height: 160)
        let scan = try #require((0..<whole.count - 1).first { whole[$0] == 0xFF && whole[$0 + 1] == 0xDA })
        let broken = Array(whole[..<scan]) + [0xFF, 0xD9]
        let photo = PhotoFixtures.insertingExifThumbnail(broken, orientation: 1, into: PhotoFixtures.jpeg(width: 800, height: 600))
        let source = try scratch.photo("broken-thumbnail.jpg", photo, id: 4)
        let image = await scratch.cache.image(for: source, size: .tiny)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let found = try #require(jpegSize(image.bytes))
        #expect(found.width == 160 && found.height == 120, "\(found)")
    }

    /// With a thumbnail that holds no image data either (libexif's test files: `FFD8 FFD9`),
    /// the placeholder stays, and says `damaged`.
    @Test func emptyExifThumbnailLeavesThePlaceholder() async throws {
        let scratch = try Scratch()
        let photo = PhotoFixtures.insertingExifThumbnail([0xFF, 0xD8, 0xFF, 0xD9], orientation: 1, into: [0xFF, 0xD8, 0xFF, 0xD9])
        let source = try scratch.photo("empty.jpg", photo, id: 3)
        for size in ThumbnailSize.allCases {
            let image = await scratch.cache.image(for: source, size: size)
            let imageIsPlaceholder = image.isPlaceholder
            #expect(imageIsPlaceholder, "\(size)")
            #expect(image.error?.code.placeholderReason == "damaged", "\(size): \(image.error?.message ?? "")")
        }
    }
}
