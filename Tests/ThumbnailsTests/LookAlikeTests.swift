import Duplicates
import Foundation
import PhotoFixtures
import Testing
@testable import Thumbnails

/// Generated look-alikes (`LookAlikeSet`) through libvips and the duplicate finder: different
/// pictures that share a layout are no duplicates, and their real copies still are.
@Suite("Look-alikes are not duplicates")
struct LookAlikeTests {
    /// Writes `rgb` as a JPEG and returns its candidate, kept before any smaller picture.
    static func candidate(_ path: String, _ cache: ThumbnailCache, id: Int64, width: Int = 0, height: Int = 0) throws -> DuplicateCandidate {
        let size = try #require((try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value)
        let fingerprint = try #require(cache.fingerprint(for: ThumbnailSource(id: id, path: path, fileSize: size, modified: 0)))
        return DuplicateCandidate(id: id, fileSize: size, fingerprint: fingerprint, facts: KeepFacts(
            width: width, height: height, hasCaptureDate: false, hasPosition: false, hasCamera: false, modified: 0, path: path))
    }

    static func size(_ set: LookAlikeSet) -> (width: Int, height: Int) { set == .textPages ? (425, 550) : (400, 300) }

    @Test("eight text pages of different text, eight colours of one layout, eight dark frames: no group", arguments: LookAlikeSet.allCases)
    func noGroup(_ set: LookAlikeSet) throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        let (width, height) = Self.size(set)
        let candidates = try (0..<8).map { index in
            let path = folder.path + "/\(index).jpg"
            try PictureVariants.writeJPEG(rgb: set.pixels(index, width: width, height: height), width: width, height: height, to: path)
            return try Self.candidate(path, cache, id: Int64(index + 1))
        }
        // The grey hashes alone would pair some of them: the colours are what keeps them apart.
        let closeHashes = candidates.indices.flatMap { i in candidates.indices.filter { $0 > i }.map { (i, $0) } }
            .filter { DuplicateThresholds.default.hashesAreClose(candidates[$0.0].fingerprint!, candidates[$0.1].fingerprint!) }
        let groups = DuplicateFinder.groups(in: candidates)
        #expect(groups.isEmpty, "\(set.rawValue): \(groups.map { $0.members.map(\.id) }); \(closeHashes.count) pairs with close hashes")
    }

    @Test("a text page, a layout, a dark frame and a photo each group with every variant of theirs, each matching the original itself")
    func copiesStillGroup() throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        var pictures: [(name: String, rgb: [UInt8], width: Int, height: Int)] = LookAlikeSet.allCases.map { set in
            let (width, height) = Self.size(set)
            return (set.rawValue, set.pixels(3, width: width, height: height), width, height)
        }
        pictures.append(("photo", PhotoFixtures.blobPixels(width: 400, height: 300, seed: 5), 400, 300))
        var id: Int64 = 0
        for picture in pictures {
            let original = folder.path + "/\(id).jpg"
            try PictureVariants.writeJPEG(rgb: picture.rgb, width: picture.width, height: picture.height, to: original)
            id += 1
            var candidates = [try Self.candidate(original, cache, id: id, width: picture.width, height: picture.height)]
            for change in PictureVariants.Change.allCases {
                let path = folder.path + "/\(id)-\(change.rawValue).\(change.fileExtension)"
                try PictureVariants.write(change, of: original, to: path)
                id += 1
                candidates.append(try Self.candidate(path, cache, id: id))
            }
            let groups = DuplicateFinder.groups(in: candidates)
            let missing = candidates.dropFirst().filter { candidate in !groups.contains { $0.members.contains { $0.id == candidate.id } } }
            let distances = missing.map { String(format: "%.2f", ColourRendition.distance(candidates[0].fingerprint!.colour, $0.fingerprint!.colour)) }
            #expect(groups.count == 1 && groups[0].keep == candidates[0].id && groups[0].members.count == candidates.count,
                    "\(picture.name): missing \(missing.map(\.facts.path)) at ΔE \(distances), detail \(candidates[0].fingerprint!.colour.detail)")
        }
    }
}
