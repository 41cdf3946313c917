import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// Every item of the shared corpus (photos and videos, as `truth.json` lists them) that a common
/// tool shows (libvips, ImageMagick, ffmpeg, or ExifTool's embedded previews) gets a real picture;
/// exactly the others get a placeholder, with the reason given here, at every size.
///
/// Checked by hand against those tools: the libexif files' only "thumbnail" is `FFD8 FFD9` (no
/// image data); `et_M2TS.mts` is one truncated 1080p frame that ffmpeg 5.1 decodes to nothing
/// (`-frames:v 1` writes no file); `CanonRaw.cr2` and `Nikon.nef` give ffmpeg only all-black
/// frames and libvips nothing.
@Suite(
    .enabled(if: SharedCorpus.photos != nil, "the shared corpus is not beside the project (set SHOEBOX_CORPUS)"),
    .enabled(if: VideoSamples.available, "ffmpeg is not installed")
)
struct CorpusShowableTests {
    /// Paths (photos under `photos/`, videos under `videos/files/`) that stay placeholders, with
    /// the reason `X-Shoebox-Placeholder` gives.
    static let placeholders: [String: String] = {
        // EXIF-only JPEGs whose IFD1 thumbnail is `FFD8 FFD9`.
        let libexif = ["canon_makernote_variant_1", "fuji_makernote_variant_1"]
            + (2...5).map { "olympus_makernote_variant_\($0)" } + (2...4).map { "pentax_makernote_variant_\($0)" }
        var table = Dictionary(uniqueKeysWithValues: libexif.map { ("photos/libexif-testdata/\($0).jpg", "damaged") })
        // ExifTool's raw stubs: their previews are a few bytes of filler, their TIFF images empty.
        for name in ["CanonRaw.cr2", "CanonRaw.cr3", "CanonRaw.crw", "Minolta.mrw", "Nikon.nef", "Sigma.x3f"] {
            table["photos/exiftool-t-images/" + name] = "unsupported"
        }
        table["photos/metadata-extractor-images/rw2/Issue 419.rw2"] = "unsupported"
        // No image data, or made to break parsers.
        for name in [
            "exiftool-t-images/QuickTime.heic",
            "metadata-extractor-images/heic/IllegalArgumentException.HeifReader.processBoxes.heif",
            "metadata-extractor-images/heic/NegativeArraySizeException.ItemInfoBox.init.heif",
            "metadata-extractor-images/jpg/ImageTestSuite/5633ed9d0eb700d0093bf85d86a95ebf.jpg",
            "metadata-extractor-images/tif/ImageTestSuite/m1-108af7a96a2efa82a0cee0f200e6b9a2.tif",
        ] {
            table["photos/" + name] = "damaged"
        }
        // ExifTool's video stubs: ffmpeg finds no frame in any.
        for name in ["et_M2TS.mts", "et_Matroska.mkv", "et_RIFF.avi"] { table["videos/files/" + name] = "damaged" }
        return table
    }()

    struct Entry: Decodable {
        var path: String
    }

    @Test func exactlyTheShowableItemsGetPictures() async throws {
        let corpus = try #require(SharedCorpus.photos)
        let videos = SharedCorpus.videos ?? corpus.appendingPathComponent("videos")
        let photoPaths = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
            .map { ("photos/" + $0.path, corpus.appendingPathComponent("photos/" + $0.path).path) }
        let videoPaths = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: videos.appendingPathComponent("truth.json")))
            .map { ("videos/files/" + $0.path, videos.appendingPathComponent("files/" + $0.path).path) }
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        for size in ThumbnailSize.allCases {
            var found: [String: String] = [:]
            for (index, (name, path)) in (photoPaths + videoPaths).enumerated() {
                let image = await cache.image(for: try Scratch.source(path: path, id: Int64(index)), size: size)
                if image.isPlaceholder { found[name] = image.error?.code.placeholderReason ?? "none" }
            }
            let shown = photoPaths.count + videoPaths.count - found.count
            print("Corpus \(size): \(shown) of \(photoPaths.count + videoPaths.count) items shown, \(found.count) placeholders")
            for (name, reason) in found.sorted(by: { $0.key < $1.key }) where Self.placeholders[name] != reason {
                print("  unexpected placeholder: \(name) (\(reason))")
            }
            for name in Self.placeholders.keys.sorted() where found[name] == nil {
                print("  expected a placeholder: \(name)")
            }
            #expect(found == Self.placeholders, "\(size)")
        }
    }
}
