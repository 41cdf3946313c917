import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// The corpus's raws whose embedded preview ExifTool extracts as a decodable JPEG
/// (`exiftool -b -PreviewImage`, `-JpgFromRaw`, `-ThumbnailImage`) get a real picture with that
/// JPEG's aspect (all are orientation 1), and so do those libvips decodes whole; the other raws
/// there are stubs whose "previews" are a few bytes of filler, and get a placeholder that says
/// `unsupported`.
@Suite(.enabled(if: SharedCorpus.photos != nil, "the shared corpus is not beside the project (set SHOEBOX_CORPUS)"))
struct CorpusRawPreviewTests {
    /// Path, and the size of the largest JPEG ExifTool finds in it (as stored, orientation 1).
    static let withPreview: [(String, Int, Int)] = [
        ("exiftool-t-images/FujiFilm.raf", 160, 120),
        ("exiftool-t-images/SigmaDP2.x3f", 8, 8),
        ("exiftool-t-images/Panasonic.rw2", 8, 8),
    ]

    /// Raws without a usable preview whose TIFF structure holds an RGB image libvips reads
    /// (`vips copy` decodes them), with that image's size.
    static let decodedWhole: [(String, Int, Int)] = [
        ("exiftool-t-images/DNG.dng", 8, 8),
        ("exiftool-t-images/PhaseOne.iiq", 1, 1),
    ]

    static let stubs = [
        "exiftool-t-images/CanonRaw.cr2", "exiftool-t-images/Nikon.nef", "exiftool-t-images/CanonRaw.cr3",
    ]

    @Test(arguments: withPreview + decodedWhole)
    func rawShowsItsPreview(path: String, width: Int, height: Int) async throws {
        let corpus = try #require(SharedCorpus.photos)
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let source = try Scratch.source(path: corpus.appendingPathComponent("photos/" + path).path, id: 1)
        for size in [ThumbnailSize.thumbnail, .tiny] {
            let image = await cache.image(for: source, size: size)
            let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
            #expect(imageShown, "\(path) \(size): \(image.error?.message ?? "")")
            let found = try #require(jpegSize(image.bytes))
            // Never upscaled, so the JPEG's own size comes back.
            #expect(found.width == width && found.height == height, "\(path) \(size): \(found)")
        }
    }

    @Test(arguments: stubs)
    func stubSaysUnsupported(path: String) async throws {
        let corpus = try #require(SharedCorpus.photos)
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let source = try Scratch.source(path: corpus.appendingPathComponent("photos/" + path).path, id: 2)
        let image = await cache.image(for: source, size: .thumbnail)
        let imageIsPlaceholder = image.isPlaceholder
        #expect(imageIsPlaceholder)
        #expect(image.error?.code.placeholderReason == "unsupported", "\(path): \(image.error?.message ?? "")")
    }

    /// `corrupted.jpg` (libvips stops after 100 corrupt-data warnings) is shown by the fallback.
    @Test(.enabled(if: EmbeddedPreviewTests.hasDJPEG, "djpeg is not installed"))
    func corruptedJPEGRenders() async throws {
        let corpus = try #require(SharedCorpus.photos)
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let source = try Scratch.source(path: corpus.appendingPathComponent("photos/ianare-exif-samples/jpg/corrupted.jpg").path, id: 3)
        let image = await cache.image(for: source, size: .thumbnail)
        let imageShown = !image.isPlaceholder  // a local, so a failure does not print every byte
        #expect(imageShown, "\(image.error?.message ?? "")")
        let found = try #require(jpegSize(image.bytes))
        #expect(found.width == 427 && found.height == 320, "\(found)")
    }
}
