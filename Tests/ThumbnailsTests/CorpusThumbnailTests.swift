import PhotoFixtures
import Foundation
import Testing
import Thumbnails

/// Real photos from `../shared/corpus`: every HEIF, AVIF and PNG, and the JPEGs whose EXIF
/// orientation turns them (5–8), come out with the display size's aspect ratio.
@Suite struct CorpusThumbnailTests {
    struct Truth: Decodable {
        struct Size: Decodable {
            var width: Int?
            var height: Int?
            var ambiguous: String?
        }
        var path: String
        var size: Size?
        var type: String?
    }

    struct ExifToolRow: Decodable {
        var SourceFile: String
        var orientation: Int?

        enum CodingKeys: String, CodingKey {
            case SourceFile
            case orientation = "IFD0:Orientation"
        }
    }

    /// Files this Debian's libheif (1.15) cannot decode: an ExifTool sample without image
    /// data, a grid image whose tiles fail, and two files made to break HEIF parsers. They
    /// must still give a placeholder and an error; a newer decoder may read them.
    static let undecodable: Set<String> = [
        "exiftool-t-images/QuickTime.heic",
        "metadata-extractor-images/heic/Issue 437 (dotnet).heic",
        "metadata-extractor-images/heic/IllegalArgumentException.HeifReader.processBoxes.heif",
        "metadata-extractor-images/heic/NegativeArraySizeException.ItemInfoBox.init.heif",
    ]

    /// The corpus (see `SharedCorpus`), or `nil` when it is not beside the project.
    static let corpus = SharedCorpus.photos

    /// The corpus files to check, with their display size: (relative path, width, height).
    static func cases(in corpus: URL) throws -> [(path: String, width: Int, height: Int)] {
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
        let rows = try JSONDecoder().decode([ExifToolRow].self, from: Data(contentsOf: corpus.appendingPathComponent("exiftool.json")))
        var orientation: [String: Int] = [:]
        for row in rows {
            let path = row.SourceFile.hasPrefix("photos/") ? String(row.SourceFile.dropFirst("photos/".count)) : row.SourceFile
            orientation[path] = row.orientation
        }
        return truths.compactMap { truth in
            let lowered = truth.path.lowercased()
            let isHEIFOrPNG = [".heic", ".heif", ".avif", ".png"].contains { lowered.hasSuffix($0) }
            let isTurnedJPEG = (lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg")) && (5...8).contains(orientation[truth.path] ?? 0)
            guard isHEIFOrPNG || isTurnedJPEG, let size = truth.size, size.ambiguous == nil,
                  let width = size.width, let height = size.height else { return nil }
            return (truth.path, width, height)
        }
    }

    @Test func thumbnailsHaveTheDisplayAspectRatio() throws {
        guard let corpus = Self.corpus else {
            print("CorpusThumbnailTests: ../shared/corpus not found; skipping the real-photo thumbnails.")
            return
        }
        let scratch = try Scratch()
        let cases = try Self.cases(in: corpus)
        var heif = 0, png = 0, jpeg = 0, placeholders = 0
        var misses: [String] = []
        for (index, item) in cases.enumerated() {
            let path = corpus.appendingPathComponent("photos").appendingPathComponent(item.path).path
            let source = try Scratch.source(path: path, id: Int64(index))
            let result = scratch.cache.image(for: source, size: .thumbnail)
            if Self.undecodable.contains(item.path) && result.isPlaceholder {
                placeholders += 1
                if result.error == nil { misses.append("\(item.path): a placeholder without an error") }
                continue
            }
            let found = jpegSize(result.bytes)
            let expected = expectedSize(width: item.width, height: item.height, .thumbnail)
            if result.isPlaceholder || !isClose(found, expected) {
                let got = found.map { "\($0.width)×\($0.height)" } ?? "no image"
                misses.append("\(item.path): \(got), expected \(expected.width)×\(expected.height) \(result.error?.message ?? "")")
                continue
            }
            let lowered = item.path.lowercased()
            if lowered.hasSuffix(".png") { png += 1 } else if lowered.hasSuffix(".jpg") || lowered.hasSuffix(".jpeg") { jpeg += 1 } else { heif += 1 }
        }
        print("Corpus thumbnails: \(heif) HEIF/AVIF, \(png) PNG, \(jpeg) turned JPEG right; \(placeholders) known undecodable; \(misses.count) wrong")
        for miss in misses { print("  miss: \(miss)") }
        #expect(misses.isEmpty)
        #expect(heif >= 8 && png >= 3 && jpeg >= 10, "too few corpus files were checked")
    }

    @Test func everyCorpusPhotoGivesAnImageOrAPlaceholderWithAnError() throws {
        guard let corpus = Self.corpus else { return }
        let scratch = try Scratch()
        let photos = corpus.appendingPathComponent("photos")
        let files = FileManager.default.enumerator(at: photos, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var count = 0
        for url in files where !url.hasDirectoryPath {
            let source = try Scratch.source(path: url.path, id: Int64(count))
            let result = scratch.cache.image(for: source, size: .thumbnail)
            #expect(jpegSize(result.bytes) != nil, "\(url.lastPathComponent)")
            #expect(result.isPlaceholder == (result.error != nil), "\(url.lastPathComponent): \(result.error?.message ?? "")")
            count += 1
        }
        #expect(count > 0)
    }
}
