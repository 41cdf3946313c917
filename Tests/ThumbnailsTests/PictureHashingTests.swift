import Duplicates
import Foundation
import PhotoFixtures
import Testing
@testable import Thumbnails

/// Fingerprints made through libvips from pictures and their variants, written by libvips here.
@Suite("Picture fingerprints through libvips")
struct PictureHashingTests {
    static func fingerprint(_ path: String, _ cache: ThumbnailCache, id: Int64) throws -> PictureFingerprint {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        let modified = Int64(((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) * 1e9)
        return try #require(cache.fingerprint(for: ThumbnailSource(id: id, path: path, fileSize: size, modified: modified)))
    }

    @Test("every variant stays within the thresholds of its picture; a lossless change keeps the pixel hash; other pictures are far")
    func variants() throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        var id: Int64 = 0
        for seed in UInt64(1)...3 {
            let original = folder.path + "/\(seed).jpg"
            try PictureVariants.writeJPEG(rgb: PhotoFixtures.blobPixels(width: 640, height: 480, seed: seed), width: 640, height: 480, to: original)
            id += 1
            let reference = try Self.fingerprint(original, cache, id: id)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: original)))
            let caption = folder.path + "/\(seed)-caption.jpg"
            try Data([0xFF, 0xD8, 0xFF, 0xFE, 0, 6] + Array("note".utf8) + bytes[2...]).write(to: URL(fileURLWithPath: caption))
            id += 1
            #expect(try Self.fingerprint(caption, cache, id: id) == reference, "a comment changes no pixel")
            for change in PictureVariants.Change.allCases {
                let path = folder.path + "/\(seed)-\(change.rawValue).\(change.fileExtension)"
                try PictureVariants.write(change, of: original, to: path)
                id += 1
                let variant = try Self.fingerprint(path, cache, id: id)
                let similar = DuplicateThresholds.default.areSimilar(reference, variant)
                #expect(similar, """
                    \(change.rawValue): pHash \(PictureFingerprint.distance(reference.pHash, variant.pHash)), \
                    dHash \(PictureFingerprint.distance(reference.dHash, variant.dHash)), \
                    colour ΔE \(ColourRendition.distance(reference.colour, variant.colour)) at detail \(reference.colour.detail)
                    """)
            }
        }
        let others = try (UInt64(1)...3).map { seed in
            try Self.fingerprint(folder.path + "/\(seed).jpg", cache, id: Int64(seed - 1) * 7 + 1)
        }
        for i in others.indices { for j in others.indices where j > i { #expect(!DuplicateThresholds.default.areSimilar(others[i], others[j]) as Bool) } }
    }

    @Test("a placeholder has no fingerprint")
    func undecodable() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path + "/broken.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 2]).write(to: URL(fileURLWithPath: path))
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        #expect(cache.fingerprint(for: ThumbnailSource(id: 1, path: path, fileSize: 6, modified: 0)) == nil)
    }
}
