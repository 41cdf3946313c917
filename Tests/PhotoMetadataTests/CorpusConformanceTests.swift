import PhotoFixtures
import WallClock
import Foundation
import PhotoMetadata
import Testing

/// Checks every real photo of `../shared/corpus` against `truth.json`.
@Suite struct CorpusConformanceTests {
    struct Truth: Decodable {
        struct Date: Decodable {
            var local: String?
            var source: String?
            var offset: String?
            var subsec: String?
            var ambiguous: String?

            /// The sub-seconds as milliseconds: the first three digits, padded on the right.
            var millisecond: Int? {
                guard let subsec, !subsec.isEmpty else { return nil }
                let digits = String((subsec + "00").prefix(3))
                return Int(digits)
            }
        }
        struct Size: Decodable {
            var width: Int?
            var height: Int?
            var ambiguous: String?
        }
        var path: String
        var date: Date?
        var size: Size?
    }

    /// The corpus (see `SharedCorpus`), or `nil` when it is not beside the project.
    static let corpus = SharedCorpus.photos

    @Test func everyUnambiguousDateAndSizeMatches() throws {
        guard let corpus = Self.corpus else {
            print("CorpusConformanceTests: ../shared/corpus not found; skipping the real-photo conformance check.")
            return
        }
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
        let reader = MetadataReader()
        var datesScored = 0, datesMatched = 0, sizesScored = 0, sizesMatched = 0
        var misses: [String] = []
        for truth in truths {
            let path = corpus.appendingPathComponent("photos").appendingPathComponent(truth.path).path
            let result = Result { () throws(MetadataError) in try reader.read(atPath: path) }
            let metadata = try? result.get()
            if case .failure(let error) = result, error.code == .notAnImage {
                misses.append("\(truth.path): not recognised as an image (\(error.message))")
            }

            if truth.date?.ambiguous == nil {
                datesScored += 1
                let found = metadata?.exifDate
                let expected = truth.date
                let matches: Bool
                if let expected, let local = expected.local {
                    matches = found.map {
                        String($0.local.iso8601.prefix(19)) == local && $0.source.rawValue == expected.source
                            && (expected.offset == nil || $0.offset?.iso8601 == expected.offset)
                            && (expected.subsec == nil || $0.local.millisecond == expected.millisecond)
                    } ?? false
                } else {
                    matches = found == nil
                }
                if matches {
                    datesMatched += 1
                } else {
                    let got = found.map { "\($0.local.iso8601) \($0.source.rawValue) \($0.offset?.iso8601 ?? "-")" } ?? "none"
                    let want = expected.map { "\($0.local ?? "?") \($0.source ?? "?") \($0.offset ?? "-")" } ?? "none"
                    misses.append("\(truth.path): date \(got), expected \(want)\(Self.describe(result))")
                }
            }
            if let size = truth.size, size.ambiguous == nil, let width = size.width, let height = size.height {
                sizesScored += 1
                let found = metadata?.displaySize
                if found?.width == width && found?.height == height {
                    sizesMatched += 1
                } else {
                    misses.append("\(truth.path): size \(found.map { "\($0.width)x\($0.height)" } ?? "none"), expected \(width)x\(height)\(Self.describe(result))")
                }
            }
        }
        print("Corpus: dates \(datesMatched)/\(datesScored), sizes \(sizesMatched)/\(sizesScored), files \(truths.count)")
        for miss in misses { print("  miss: \(miss)") }
        #expect(misses.isEmpty)
        #expect(datesMatched == datesScored)
        #expect(sizesMatched == sizesScored)
    }

    @Test func everyFileIsReadWithoutCrashing() throws {
        guard let corpus = Self.corpus else { return }
        let photos = corpus.appendingPathComponent("photos")
        let files = FileManager.default.enumerator(at: photos, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var count = 0
        for url in files where !url.hasDirectoryPath {
            _ = try? MetadataReader().read(atPath: url.path)
            count += 1
        }
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
        #expect(count > 0 && count >= truths.count)
    }

    private static func describe(_ result: Result<PhotoMetadata, MetadataError>) -> String {
        switch result {
        case .success(let metadata): " [\(metadata.format.rawValue), orientation \(metadata.orientation.map(String.init) ?? "-"), pixels \(metadata.pixelSize.map { "\($0.width)x\($0.height)" } ?? "-")]"
        case .failure(let error): " [error \(error.code.rawValue): \(error.message)]"
        }
    }
}
