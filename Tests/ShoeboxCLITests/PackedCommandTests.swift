import Foundation
import PhotoFixtures
import Testing

/// `shoebox sections --level years` and `shoebox zoom --packed` on the library of
/// ``SectionsAndZoomCommandTests``: 25 photos on 3 March 2025 and 3 on 20 March 2025.
@Suite("shoebox sections --level years and zoom --packed")
struct PackedCommandTests {
    @Test("sections --level years: one year, its month strip and the photo nearest today's month and day")
    func years() throws {
        try SectionsAndZoomCommandTests.withLibrary { db in
            let years = try #require(try SectionsAndZoomCommandTests.json(["sections", "--level", "years", "--today", "2026-03-19", "--db", db]) as? [[String: Any]])
            #expect(years.count == 1)
            let year = try #require(years.first)
            #expect(year["year"] as? Int == 2025 && year["count"] as? Int == 28 && year["index"] as? Int == 0)
            #expect(year["months"] as? [Int] == [0, 0, 28, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            #expect(year["keyDay"] as? String == "2025-03-20")
            #expect((year["key"] as? [String: Any])?["path"] as? String == "later/0.jpg")
            let table = try ShoeboxProcess.run(["sections", "--level", "years", "--today", "2026-03-01", "--db", db])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains("2025") && table.stdout.contains("march/0.jpg") && table.stdout.contains("1 year, 28 photos"), "\(table.stdout)")
            let bad = try ShoeboxProcess.run(["sections", "--level", "years", "--today", "March", "--db", db])
            #expect(bad.status != 0 && bad.stderr.contains("--today takes a date"), "\(bad.stderr)")
        }
    }

    @Test("zoom --packed: the desktop's Days level has 7 columns; a tap keeps its height; the seed grid stays the default")
    func packedZoom() throws {
        try SectionsAndZoomCommandTests.withLibrary { db in
            // Coarse item 13 of 20 shown: row 1 of the 13-column desktop Overview.
            let zoom = try #require(try SectionsAndZoomCommandTests.json(
                ["zoom", "--packed", "--viewport", "1440x900", "--from", "coarse", "--section", "0", "--item", "13", "--db", db]) as? [String: Any])
            let to = try #require(zoom["to"] as? [String: Any])
            #expect(to["level"] as? String == "fine" && to["section"] as? Int == 0)
            // Row 1 of the 13-column desktop Overview: a 20-pt label line, then 1416/13-pt cells and a 2-pt gap.
            #expect(abs((zoom["viewportY"] as? Double ?? 0) - (20 + 1416.0 / 13 + 2)) < 1e-9, "\(zoom)")
            if zoom["clamped"] as? Bool == false {
                #expect(abs((zoom["viewportY"] as? Double ?? 0) - (zoom["targetViewportY"] as? Double ?? 1)) < 1e-9)
            }
            let years = try #require(try SectionsAndZoomCommandTests.json(
                ["zoom", "--packed", "--viewport", "390x844", "--from", "years", "--section", "0", "--item", "0", "--today", "2026-03-20", "--db", db]) as? [String: Any])
            #expect((years["to"] as? [String: Any])?["level"] as? String == "coarse")
            #expect(years["path"] as? String == "later/0.jpg")
            let refused = try ShoeboxProcess.run(["zoom", "--from", "years", "--section", "0", "--item", "0", "--db", db])
            #expect(refused.status != 0 && refused.stderr.contains("add --packed"), "\(refused.stderr)")
            let seed = try #require(try SectionsAndZoomCommandTests.json(["zoom", "--from", "coarse", "--section", "0", "--item", "13", "--db", db]) as? [String: Any])
            // The seed grid: row 1 of 10 columns of 39 points under a 50-point header.
            #expect((seed["to"] as? [String: Any])?["level"] as? String == "fine" && seed["viewportY"] as? Double == 89)
        }
    }
}
