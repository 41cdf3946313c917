import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// Raws show their largest embedded JPEG, `tiny` comes from the EXIF thumbnail, and JPEGs that
/// libvips gives up on are decoded by the fallback.
@Suite struct EmbeddedPreviewTests {
    /// A raw's picture is its 640 × 480 preview (not the 160 × 120 thumbnail, not the sensor
    /// data), turned by the raw's own orientation.
    @Test(arguments: [(1, (427, 320)), (6, (320, 427)), (8, (320, 427)), (3, (427, 320))])
    func rawShowsItsLargestPreviewTurned(orientation: Int, expected: (Int, Int)) async throws {
        let scratch = try Scratch()
        let raw = PhotoFixtures.rawWithPreview(preview: (640, 480), thumbnail: (160, 120), orientation: orientation)
        let source = try scratch.photo("DSC_0001.NEF", raw, id: 1)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == expected.0 && size.height == expected.1, "got \(size)")

        let preview = await scratch.cache.image(for: source, size: .preview)
        let previewShown = !preview.isPlaceholder  // a local, so a failure does not print every byte
        #expect(previewShown)
        let previewSize = try #require(jpegSize(preview.bytes))
        #expect(max(previewSize.width, previewSize.height) == 640, "never upscaled: \(previewSize)")
    }

    @Test func rawWithoutPreviewSaysUnsupported() async throws {
        let scratch = try Scratch()
        var raw = PhotoFixtures.rawWithPreview(preview: (640, 480), thumbnail: (160, 120))
        // Break both JPEGs' start-of-image markers: nothing embedded can be read.
        for index in raw.indices.dropLast() where raw[index] == 0xFF && raw[index + 1] == 0xD8 { raw[index + 1] = 0x00 }
        let source = try scratch.photo("broken.nef", raw, id: 2)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let imageIsPlaceholder = image.isPlaceholder
        #expect(imageIsPlaceholder)
        #expect(image.error?.code == .noPreview)
        #expect(image.error?.code.placeholderReason == "unsupported")
    }

    /// The EXIF thumbnail is square while the photo is 4:3, so a square `tiny` proves the photo
    /// was not decoded; orientation 6 turns a 160 × 120 thumbnail upright.
    @Test(arguments: [((160, 160), 1, (120, 120)), ((160, 120), 6, (120, 160)), ((160, 120), 1, (160, 120))])
    func tinyComesFromTheExifThumbnail(thumbnail: (Int, Int), orientation: Int, expected: (Int, Int)) async throws {
        let scratch = try Scratch()
        let photo = PhotoFixtures.jpegWithThumbnail(width: 4000, height: 3000, thumbnail: thumbnail, orientation: orientation)
        let source = try scratch.photo("IMG_0001.JPG", photo, id: 3)
        let image = await scratch.cache.image(for: source, size: .tiny)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == expected.0 && size.height == expected.1, "got \(size)")
        // The real thumbnail still comes from the photo itself.
        let fullImage = await scratch.cache.image(for: source, size: .thumbnail)
        let full = try #require(jpegSize(fullImage.bytes))
        #expect(orientation == 6 ? (full.width == 320 && full.height == 427) : (full.width == 427 && full.height == 320))
    }

    @Test func tinyWithoutExifThumbnailIsRenderedFromThePhoto() async throws {
        let scratch = try Scratch()
        let source = try scratch.photo("plain.jpg", PhotoFixtures.jpeg(width: 800, height: 600), id: 4)
        let image = await scratch.cache.image(for: source, size: .tiny)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown)
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == 160 && size.height == 120, "got \(size)")
    }

    static let hasDJPEG = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: $0 + "/djpeg") }

    /// libvips stops at its 100th corrupt-data warning; `djpeg` renders the picture.
    @Test(.enabled(if: hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"))
    func jpegWithMisnumberedRestartsRenders() async throws {
        let scratch = try Scratch()
        let source = try scratch.photo("restarts.jpg", PhotoFixtures.jpegWithMisnumberedRestarts(width: 640, height: 480), id: 5)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let size = try #require(jpegSize(image.bytes))
        #expect(size.width == 427 && size.height == 320, "got \(size)")
    }

    /// The server names a photo by its open descriptor (`/proc/self/fd/N`), which means nothing
    /// in a child process: the fallback decoder must still get the file.
    @Test(.enabled(if: hasDJPEG, "djpeg (libjpeg-turbo-progs) is not installed"))
    func fallbackReadsAPhotoNamedByItsDescriptor() async throws {
        let scratch = try Scratch()
        let written = try scratch.photo("restarts.jpg", PhotoFixtures.jpegWithMisnumberedRestarts(width: 640, height: 480), id: 7)
        let descriptor = open(written.path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let source = ThumbnailSource(id: 7, path: "/proc/self/fd/\(descriptor)", fileSize: written.fileSize, modified: written.modified)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let imageShown = !image.isPlaceholder
        #expect(imageShown, "\(image.error?.message ?? "")")
    }

    /// A JPEG whose image data stops half-way shows what it has.
    @Test func truncatedJPEGRenders() async throws {
        let scratch = try Scratch()
        let whole = PhotoFixtures.jpeg(width: 640, height: 480)
        let source = try scratch.photo("truncated.jpg", Array(whole.prefix(whole.count - 20)), id: 6)
        let image = await scratch.cache.image(for: source, size: .thumbnail)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
    }
}
