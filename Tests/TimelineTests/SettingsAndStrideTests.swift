import Foundation
import Testing
import Timeline

@Suite("Settings and stride sampling")
struct SettingsAndStrideTests {
    @Test("a partial JSON config keeps the defaults for missing keys")
    func partialDecoding() throws {
        let json = #"{"coarse": {"spanDays": 7, "sampling": "stride"}, "dayStartHour": 4}"#
        let settings = try JSONDecoder().decode(TimelineSettings.self, from: Data(json.utf8))
        #expect(settings.dayStartHour == 4)
        #expect(settings.coarse.spanDays == 7)
        #expect(settings.coarse.sampling == .stride)
        #expect(settings.coarse.sampleCap == 50 && settings.coarse.sampleStep == 10 && settings.coarse.showAllUpTo == 10)
        #expect(settings.coarse.seed == CoarseSettings.defaultSeed)
        #expect(settings.fine.mergeLimit == 12)
        #expect(try JSONDecoder().decode(TimelineSettings.self, from: Data("{}".utf8)) == TimelineSettings())
        #expect(try JSONDecoder().decode(TimelineSettings.self, from: Data(#"{"fine": {}}"#.utf8)) == TimelineSettings())
    }

    @Test("settings round-trip through JSON with the documented keys")
    func roundTrip() throws {
        let settings = TimelineSettings(
            dayStartHour: 3, fine: FineSettings(mergeLimit: 20),
            coarse: CoarseSettings(spanDays: 30, sampling: .stride, showAllUpTo: 12, sampleStep: 6, sampleCap: 60, seed: .max))
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(TimelineSettings.self, from: data) == settings)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["dayStartHour", "fine", "coarse"])
        let coarse = try #require(object["coarse"] as? [String: Any])
        #expect(Set(coarse.keys) == ["spanDays", "sampling", "showAllUpTo", "sampleStep", "sampleCap", "seed"])
    }

    @Test("an unknown sampling name is a decoding error")
    func badSampling() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TimelineSettings.self, from: Data(#"{"coarse": {"sampling": "random"}}"#.utf8))
        }
    }

    @Test("validation names every bad key", arguments: [
        (TimelineSettings(dayStartHour: 24), "dayStartHour must be between 0 and 23 (got 24)"),
        (TimelineSettings(fine: FineSettings(mergeLimit: 0)), "fine.mergeLimit must be at least 1 (got 0)"),
        (TimelineSettings(coarse: CoarseSettings(spanDays: 0)), "coarse.spanDays must be at least 1 (got 0)"),
        (TimelineSettings(coarse: CoarseSettings(sampleStep: 0)), "coarse.sampleStep must be at least 1 (got 0)"),
        (TimelineSettings(coarse: CoarseSettings(showAllUpTo: 5)), "coarse.showAllUpTo (5) must be at least coarse.sampleStep (10)"),
        (TimelineSettings(coarse: CoarseSettings(sampleCap: 5)), "coarse.sampleCap must be at least 1 and at least coarse.showAllUpTo (10) (got 5)"),
    ])
    func validation(settings: TimelineSettings, message: String) {
        #expect {
            try settings.validate()
        } throws: { error in
            guard let error = error as? TimelineError else { return false }
            return error.code == .invalidSettings && error.message.contains(message)
        }
        #expect(throws: TimelineError.self) { try PhotoTimeline(photos: [], settings: settings) }
    }

    @Test("several problems are reported together")
    func severalProblems() {
        let settings = TimelineSettings(dayStartHour: -1, coarse: CoarseSettings(spanDays: -3))
        #expect {
            try settings.validate()
        } throws: { error in
            let e = error as? TimelineError
            return e?.subject == "dayStartHour, coarse.spanDays"
        }
        #expect(throws: Never.self) { try TimelineSettings().validate() }
    }

    @Test("shown counts per strategy", arguments: [
        (0, 0, 0), (1, 1, 1), (10, 10, 10), (11, 10, 10), (19, 10, 10), (20, 20, 10), (21, 20, 20),
        (49, 40, 40), (50, 50, 40), (51, 50, 50), (137, 50, 50),
    ])
    func shownCounts(n: Int, stable: Int, stride: Int) {
        #expect(CoarseSettings().shownCount(forSectionOf: n) == stable)
        #expect(CoarseSettings(sampling: .stride).shownCount(forSectionOf: n) == stride)
    }

    @Test("MiniPhotos stride sampling matches MP.sample_indices in vectors.json")
    func strideVectors() throws {
        let vectors = try seedVectors(behaviour: "MP.sample_indices")
        try #require(!vectors.isEmpty, "no MP.sample_indices vectors")
        for vector in vectors {
            let input = try #require(vector["input"] as? [String: Any])
            let expected = try #require(vector["expected"] as? [String: Any])
            let n = try #require(input["count"] as? Int)
            let target = CoarseSettings(sampling: .stride).shownCount(forSectionOf: n)
            #expect(target == expected["target_count"] as? Int, "\(vector["id"] ?? n)")
            #expect(StrideSampling.indices(count: n, target: target) == expected["indices"] as? [Int], "\(vector["id"] ?? n)")
        }
    }

    @Test("stride sampling in a timeline shows the strided photos in capture order")
    func strideTimeline() throws {
        let photos = (0..<137).map { TimelinePhoto(path: "p\($0)", captured: dateTime(day: 50, millisecondOfDay: $0 * 1000)) }
        let timeline = try PhotoTimeline(photos: photos, settings: TimelineSettings(coarse: CoarseSettings(sampling: .stride)))
        #expect(timeline.coarseSections[0].shown.prefix(6) == [0, 2, 5, 8, 10, 13])
        #expect(timeline.coarseSections[0].shown.count == 50)
    }
}

/// The vectors of one behaviour from `../shared/seed-layouts/vectors.json`; the test is skipped when absent.
func seedVectors(behaviour: String, filePath: String = #filePath) throws -> [[String: Any]] {
    let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("../shared/seed-layouts/vectors.json").standardizedFileURL
    guard let data = try? Data(contentsOf: url) else {
        try Test.cancel("vectors.json not found at \(url.path); skipping the MiniPhotos vectors")
    }
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let vectors = try #require(object["vectors"] as? [[String: Any]])
    return vectors.filter { $0["behaviour"] as? String == behaviour }
}
