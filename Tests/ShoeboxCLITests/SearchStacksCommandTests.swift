import Foundation
import PhotoFixtures
import Testing

/// `shoebox search` with a stack among the photos found: an edit stacked under its original.
@Suite("shoebox search: stacks")
struct SearchStacksCommandTests {
    @Test("search --json lists every photo with its stack, as photos --json does; a member's own name finds its stack's day")
    func stackedEdit() throws {
        let tree = try TemporaryDirectory()
        let exif = ExifFields(dateTimeOriginal: "2024:06:02 09:30:00", make: "Apple", model: "iPhone 15")
        try tree.write("photos/Kelsterbach/IMG_4120.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        try tree.write("photos/Kelsterbach/IMG_E4120.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: exif))
        try tree.write("photos/Kelsterbach/IMG_4121.JPG", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:06:02 10:00:00")))
        try tree.write("photos/elsewhere.jpg", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:07:01 10:00:00")))
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.runWithDeadline(["index", tree.path + "/photos", "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")

        let found = try ShoeboxProcess.runWithDeadline(["search", "kelsterbach", "--json", "--db", db])
        #expect(found.status == 0, "\(found.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: rows.map { ($0["path"] as? String ?? "", $0) })
        #expect(Set(byPath.keys) == ["Kelsterbach/IMG_4120.JPG", "Kelsterbach/IMG_E4120.JPG", "Kelsterbach/IMG_4121.JPG"])
        let stack = byPath["Kelsterbach/IMG_4120.JPG"]?["stack"] as? Int
        #expect(stack != nil)
        #expect(byPath["Kelsterbach/IMG_E4120.JPG"]?["stack"] as? Int == stack)
        #expect(byPath["Kelsterbach/IMG_4121.JPG"]?["stack"] is NSNull)
        // The same fields as photos --json, row for row.
        let all = try ShoeboxProcess.runWithDeadline(["photos", "--json", "--db", db])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
        for row in listed where byPath[row["path"] as? String ?? ""] != nil {
            #expect(Set(row.keys) == Set(byPath[row["path"] as! String]!.keys))
        }

        // The member's name: its row, and as sections the stack's day, counted with both photos.
        let member = try ShoeboxProcess.runWithDeadline(["search", "IMG_E4120", "--json", "--db", db])
        let memberRows = try #require(try JSONSerialization.jsonObject(with: Data(member.stdout.utf8)) as? [[String: Any]])
        #expect(memberRows.map { $0["path"] as? String } == ["Kelsterbach/IMG_E4120.JPG"])
        let sections = try ShoeboxProcess.runWithDeadline(["search", "IMG_E4120", "--level", "fine", "--db", db])
        #expect(sections.status == 0, "\(sections.stderr)")
        #expect(!sections.stdout.contains("No photo matches"), "\(sections.stdout)")
        #expect(sections.stdout.contains("Jun"), "\(sections.stdout)")
    }
}
