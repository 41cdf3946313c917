import Foundation
import PhotoFixtures
import PhotoLibrary
import ShoeboxServer
import Timeline
import Testing

@Suite("Section pages written by hand")
struct SectionWritingTests {
    @Test("Every section at both levels, whole and in pages, with awkward names and places: the bytes JSONEncoder writes")
    func handWrittenEqualsEncoder() async throws {
        let fixture = try await ServerFixture(count: 90, seed: 23)
        // Names JSON must escape, one that is not UTF-8 (pathBytes), and a video (mediaType).
        let names: [[UInt8]] = [
            Array("quote\"back\\slash.jpg".utf8), Array("tab\there\u{1}.jpg".utf8), Array("émoji 😀.jpg".utf8),
            [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x6A, 0x70, 0x67],
        ]
        try FileManager.default.createDirectory(atPath: fixture.root + "/odd", withIntermediateDirectories: true)
        let bytes = PhotoFixtures.jpeg(width: 8, height: 6)
        for name in names {
            var path = (Array(fixture.root.utf8) + Array("/odd/".utf8) + name).map { CChar(bitPattern: $0) } + [0]
            let descriptor = open(&path, O_WRONLY | O_CREAT, 0o644)
            try #require(descriptor >= 0)
            #expect(write(descriptor, bytes, bytes.count) == bytes.count)
            close(descriptor)
        }
        try await fixture.index()
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: fixture.settings().configuration)
        let snapshot = try library.snapshot()
        var compared = 0
        for level in [TimelineLevel.coarse, .fine] {
            for summary in try snapshot.summaries(level) {
                for fields in [SectionJSON.PhotoFields.detail, .summary, .none] {
                    for items in [nil, 0..<3, 2..<120, 500..<620] as [Range<Int>?] {
                        var section = SectionJSON(summary, snapshot: snapshot, photos: fields, items: items)
                        if summary.index % 2 == 1 { section.places = ["Lisbon", "São \"Paulo\""] }
                        // As a section holding a stack has it.
                        if summary.index % 3 == 0 { section.photoCount = section.count + 3 }
                        let encoded = try ContractJSON.encode(section, compact: true)
                        #expect(section.compactJSON() == encoded, "\(String(decoding: section.compactJSON(), as: UTF8.self))\n≠\n\(String(decoding: encoded, as: UTF8.self))")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 24)
    }
}
