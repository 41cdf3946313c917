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

    @Test("a photo groups with every variant of its own, each matching it directly; a look-alike's variants join its group or none")
    func copiesStillGroup() throws {
        let folder = try TemporaryDirectory()
        let cache = ThumbnailCache(directory: folder.path + "/cache")
        var pictures: [(name: String, rgb: [UInt8], width: Int, height: Int)] = LookAlikeSet.allCases.map { set in
            let (width, height) = Self.size(set)
            return (set.rawValue, set.pixels(3, width: width, height: height), width, height)
        }
        pictures.append(("photo", PhotoFixtures.blobPixels(width: 400, height: 300, seed: 5), 400, 300))
        var all: [DuplicateCandidate] = []
        var originals: [Int64: String] = [:]
        var id: Int64 = 0
        for picture in pictures {
            let original = folder.path + "/\(id).jpg"
            try PictureVariants.writeJPEG(rgb: picture.rgb, width: picture.width, height: picture.height, to: original)
            id += 1
            originals[id] = picture.name
            var candidates = [try Self.candidate(original, cache, id: id, width: picture.width, height: picture.height)]
            for change in PictureVariants.Change.allCases {
                let path = folder.path + "/\(id)-\(change.rawValue).\(change.fileExtension)"
                try PictureVariants.write(change, of: original, to: path)
                id += 1
                candidates.append(try Self.candidate(path, cache, id: id))
            }
            all += candidates
        }
        // All at once: each group is one picture's original with variants of its own.
        let groups = DuplicateFinder.groups(in: all)
        let pictureOf = Dictionary(uniqueKeysWithValues: all.map { candidate in (candidate.id, originals.keys.filter { $0 <= candidate.id }.max()!) })
        for group in groups {
            #expect(originals[group.keep] != nil, "a variant kept over its original: \(group.members.map(\.id))")
            #expect(group.members.allSatisfy { pictureOf[$0.id] == group.keep }, "\(group.members.map(\.id)) mixes pictures")
        }
        let photo = try #require(originals.first { $0.value == "photo" }?.key)
        let photoGroup = groups.first { $0.keep == photo }
        let missing = all.filter { candidate in pictureOf[candidate.id] == photo && !(photoGroup?.members.contains { $0.id == candidate.id } ?? false) }
        #expect(missing.isEmpty, "the photo's variants left out: \(missing.map(\.facts.path))")
        // A lossless copy (the PNG) is the same picture, whatever the picture holds.
        for (original, name) in originals {
            #expect(groups.contains { $0.keep == original && $0.members.count > 1 }, "\(name): not even its PNG copy")
        }
    }
}
