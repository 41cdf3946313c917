import PhotoFixtures
import WallClock
import Foundation
import PhotoMetadata
import Testing

/// Checks every real video of `../shared/corpus/videos` against its `truth.json`.
///
/// The truth was made with `TZ=UTC`; the reader here is given a fixed UTC zone, which is the same
/// as running under `TZ=UTC` whatever the machine's zone is.
@Suite struct VideoCorpusConformanceTests {
    struct Truth: Decodable {
        struct Date: Decodable {
            var local: String?
            var source: String?
            var offset: String?
            var ambiguous: String?
        }
        struct Size: Decodable {
            var width: Int?
            var height: Int?
        }
        var path: String
        var date: Date?
        var size: Size?
        var duration: Double?
        var mediaType: String
    }

    /// The corpus (see `SharedCorpus`), or `nil` when it is not beside the project.
    static let corpus = SharedCorpus.videos

    static let durationTolerance = 0.05

    @Test func everyVideoIsAVideoWithItsUnambiguousDateSizeAndDuration() throws {
        guard let corpus = Self.corpus else {
            print("VideoCorpusConformanceTests: ../shared/corpus/videos not found; skipping the real-video conformance check.")
            return
        }
        let truths = try JSONDecoder().decode([Truth].self, from: Data(contentsOf: corpus.appendingPathComponent("truth.json")))
        let reader = MetadataReader(timeZone: .fixed(UTCOffset(seconds: 0)))
        var counts = (videos: 0, dates: 0, datesScored: 0, sizes: 0, sizesScored: 0, durations: 0, durationsScored: 0)
        var misses: [String] = []
        for truth in truths {
            let path = corpus.appendingPathComponent("files").appendingPathComponent(truth.path).path
            let result = Result { () throws(MetadataError) in try reader.read(atPath: path) }
            let metadata = try? result.get()
            let described = Self.describe(result)

            if metadata?.mediaType.rawValue == truth.mediaType {
                counts.videos += 1
            } else {
                misses.append("\(truth.path): not listed as a \(truth.mediaType)\(described)")
            }
            if truth.date?.ambiguous == nil {
                counts.datesScored += 1
                let found = metadata?.exifDate
                let matches: Bool
                if let expected = truth.date, let local = expected.local {
                    matches = found.map {
                        String($0.local.iso8601.prefix(19)) == local && $0.source.rawValue == expected.source
                            && $0.offset?.iso8601 == expected.offset
                    } ?? false
                } else {
                    matches = found == nil
                }
                if matches {
                    counts.dates += 1
                } else {
                    let got = found.map { "\($0.local.iso8601) \($0.source.rawValue) \($0.offset?.iso8601 ?? "-")" } ?? "none"
                    let want = truth.date.map { "\($0.local ?? "?") \($0.source ?? "?") \($0.offset ?? "-")" } ?? "none"
                    misses.append("\(truth.path): date \(got), expected \(want)\(described)")
                }
            }
            if let size = truth.size, let width = size.width, let height = size.height {
                counts.sizesScored += 1
                if metadata?.displaySize == PixelSize(width: width, height: height) {
                    counts.sizes += 1
                } else {
                    misses.append("\(truth.path): size \(metadata?.displaySize.map { "\($0.width)x\($0.height)" } ?? "none"), expected \(width)x\(height)\(described)")
                }
            }
            counts.durationsScored += 1
            let durationMatches: Bool
            switch (truth.duration, metadata?.duration) {
            case (nil, nil): durationMatches = true
            case (let expected?, let found?): durationMatches = abs(expected - found) <= Self.durationTolerance
            default: durationMatches = false
            }
            if durationMatches {
                counts.durations += 1
            } else {
                misses.append("\(truth.path): duration \(metadata?.duration.map { String($0) } ?? "none"), expected \(truth.duration.map { String($0) } ?? "none")\(described)")
            }
        }
        print("Video corpus: videos \(counts.videos)/\(truths.count), dates \(counts.dates)/\(counts.datesScored), sizes \(counts.sizes)/\(counts.sizesScored), durations \(counts.durations)/\(counts.durationsScored)")
        for miss in misses { print("  miss: \(miss)") }
        #expect(misses.isEmpty)
        #expect(counts.videos == truths.count)
    }

    private static func describe(_ result: Result<PhotoMetadata, MetadataError>) -> String {
        switch result {
        case .success(let metadata): " [\(metadata.format.rawValue), pixels \(metadata.pixelSize.map { "\($0.width)x\($0.height)" } ?? "-")\(metadata.problem.map { ", problem: \($0.message)" } ?? "")]"
        case .failure(let error): " [error \(error.code.rawValue): \(error.message)]"
        }
    }
}
