import Foundation
import PhotoFixtures
import Testing

/// `shoebox sections` and `shoebox zoom` on a small generated library, as a user runs them.
///
/// The library: 25 photos on Monday 3 March 2025 (one coarse section showing 20 of them, one fine
/// section) and 3 on Thursday 20 March 2025 (the next coarse window).
@Suite("shoebox sections and zoom")
struct SectionsAndZoomCommandTests {
    /// Fine grid with the default metrics: 4 columns, 1.5 pt spacing, 50 pt headers, 390 pt wide.
    static let fineCell = (390 - 3 * 1.5) / 4

    /// Runs `body` with the indexed library's database, which lives as long as `body` runs.
    static func withLibrary(_ body: (String) throws -> Void) throws {
        let tree = try TemporaryDirectory()
        for minute in 0..<25 {
            let date = String(format: "2025:03:03 10:%02d:00", minute)
            try tree.write("photos/march/\(minute).jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: date)))
        }
        for hour in 0..<3 {
            try tree.write("photos/later/\(hour).jpg", PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2025:03:20 1\(hour):00:00")))
        }
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        try withExtendedLifetime(tree) { try body(db) }
    }

    static func json(_ arguments: [String]) throws -> Any {
        let output = try ShoeboxProcess.run(arguments + ["--json"])
        #expect(output.status == 0, "\(output.stderr)")
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }

    @Test("sections: counts, shown counts and labels at both levels; coarse by default")
    func sections() throws {
        try Self.withLibrary { db in
            let coarse = try #require(try Self.json(["sections", "--level", "coarse", "--db", db]) as? [[String: Any]])
            #expect(coarse.map { $0["count"] as? Int } == [25, 3])
            #expect(coarse.map { $0["shown"] as? Int } == [20, 3])
            #expect(coarse.map { ($0["photos"] as? [Any])?.count } == [20, 3])
            let fine = try #require(try Self.json(["sections", "--level", "fine", "--db", db]) as? [[String: Any]])
            #expect(fine.map { $0["start"] as? String } == ["2025-03-03", "2025-03-20"])
            #expect(fine.map { $0["count"] as? Int } == [25, 3])

            let byDefault = try ShoeboxProcess.run(["sections", "--db", db])
            let coarseTable = try ShoeboxProcess.run(["sections", "--level", "coarse", "--db", db])
            #expect(byDefault.status == 0 && byDefault.stdout == coarseTable.stdout)
            #expect(byDefault.stdout.contains("2 coarse sections, 28 photos"), "\(byDefault.stdout)")

            let table = try ShoeboxProcess.run(["sections", "--level", "fine", "--db", db])
            #expect(table.stdout.contains("Mon 3 Mar 2025"), "\(table.stdout)")
            #expect(table.stdout.contains("Thu 20 Mar 2025"), "\(table.stdout)")
        }
    }

    @Test("zoom in from a negative offset keeps the photo under the finger in the fine grid")
    func zoomIn() throws {
        try Self.withLibrary { db in
            let coarse = try #require(try Self.json(["sections", "--level", "coarse", "--db", db]) as? [[String: Any]])
            let fine = try #require(try Self.json(["sections", "--level", "fine", "--db", db]) as? [[String: Any]])
            let finePaths = fine.map { (($0["photos"] as? [[String: Any]]) ?? []).map { $0["path"] as? String } }

            // Fine content: a 50-pt header over each section's rows of cells, 1.5 pt between rows.
            let rows = fine.map { (($0["count"] as? Int ?? 0) + 3) / 4 }
            let contentHeight = rows.reduce(0) { $0 + 50 + Double($1) * Self.fineCell + Double($1 - 1) * 1.5 }

            for (item, viewportHeight) in [(0, 844.0), (7, 844), (19, 844), (7, 400), (19, 400)] {
                let tapped = try #require((coarse[0]["photos"] as? [[String: Any]])?[item]["path"] as? String)
                // A negative offset, as under a 64-pt bar, must be read as a number, not a flag.
                let zoom = try #require(try Self.json([
                    "zoom", "--from", "coarse", "--section", "0", "--item", "\(item)", "--offset", "-64",
                    "--viewport", "390x\(Int(viewportHeight))", "--db", db,
                ]) as? [String: Any])
                #expect(zoom["path"] as? String == tapped)
                let to = try #require(zoom["to"] as? [String: Any])
                let section = try #require(to["section"] as? Int), fineItem = try #require(to["item"] as? Int)
                #expect(finePaths[section][fineItem] == tapped)

                // Coarse: 10 columns of 39 pt under a 50-pt header; the tapped cell is on screen at minY + 64.
                let viewportY = 50 + Double(item / 10) * 39 + 64
                #expect(zoom["viewportY"] as? Double == viewportY)
                let fineMinY = 50 + Double(fineItem / 4) * (Self.fineCell + 1.5)
                let unclamped = try #require(zoom["unclampedContentOffsetY"] as? Double)
                #expect(abs(unclamped - (fineMinY - viewportY)) < 1e-9)
                let expected = min(max(0, unclamped), max(0, contentHeight - viewportHeight))
                let offset = try #require(zoom["contentOffsetY"] as? Double)
                #expect(abs(offset - expected) < 1e-9)
                #expect(zoom["clamped"] as? Bool == (abs(offset - unclamped) > 1e-9))
                if zoom["clamped"] as? Bool == false {
                    #expect(zoom["targetViewportY"] as? Double == viewportY)
                }
            }
        }
    }

    @Test("zoom out of a photo left out of the sample lands on a shown photo of the same section")
    func zoomOut() throws {
        try Self.withLibrary { db in
            let coarse = try #require(try Self.json(["sections", "--level", "coarse", "--db", db]) as? [[String: Any]])
            let shown = Set(((coarse[0]["photos"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String })
            for item in 0..<25 {
                let zoom = try #require(try Self.json(["zoom", "--from", "fine", "--section", "0", "--item", "\(item)", "--db", db]) as? [String: Any])
                let path = try #require(zoom["path"] as? String), target = try #require(zoom["targetPath"] as? String)
                #expect(shown.contains(target))
                #expect(shown.contains(path) == (path == target))
                #expect((zoom["to"] as? [String: Any])?["section"] as? Int == 0)
            }
        }
    }

    @Test("an out-of-range section, item or focal point names the valid range", arguments: [
        (["--section", "5", "--item", "0"], "Error: Section 5 is out of range: the coarse level has sections 0–1.\n"),
        (["--section", "0", "--item", "20"], "Error: Item 20 is out of range: section 0 of the coarse level has items 0–19.\n"),
        (["--focal-y", "900"], "Error: The focal point (195, 900) is outside the viewport: x must be 0–390 and y 0–844.\n"),
        (["--section", "0", "--item", "0", "--offset", "--json"], "The value '--json' is invalid for '--offset <y>'"),
    ])
    func outOfRange(arguments: [String], message: String) throws {
        try Self.withLibrary { db in
            let output = try ShoeboxProcess.run(["zoom", "--from", "coarse", "--db", db] + arguments)
            #expect(output.status != 0)
            #expect(output.stderr.contains(message), "\(output.stderr)")
        }
    }
}
