import Foundation
import PhotoFixtures
import Testing

@Suite("shoebox with videos")
struct VideoCommandTests {
    static func movie(seconds: Double) -> [UInt8] {
        var movie = MovieFixture(width: 1920, height: 1080)
        movie.duration = seconds
        movie.quickTime = true
        movie.creationDate = "2025-03-08T10:00:00+01:00"
        return movie.bytes
    }

    @Test("`photos --json` gives mediaType and duration; the table has a duration column; sections hold videos but not a Live Photo's MOV")
    func videosInPhotosAndSections() throws {
        let tree = try TemporaryDirectory()
        let exif = ExifFields(dateTimeOriginal: "2025:03:08 09:00:00")
        try tree.write("root/IMG_0001.JPG", PhotoFixtures.jpeg(width: 40, height: 30, exif: exif))
        try tree.write("root/IMG_0001.MOV", Self.movie(seconds: 2.5))
        try tree.write("root/IMG_0002.MOV", Self.movie(seconds: 75.25))
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/root", "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")

        let listed = try ShoeboxProcess.run(["photos", "--db", db, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let long = try #require(rows.first { $0["path"] as? String == "IMG_0002.MOV" })
        #expect(long["mediaType"] as? String == "video")
        #expect(long["duration"] as? Double == 75.25)
        #expect(long["format"] as? String == "mov")
        #expect(long["dateSource"] as? String == "CreationDate")
        #expect(long["captured"] as? String == "2025-03-08T10:00:00")
        #expect(long["offset"] as? String == "+01:00")
        let still = try #require(rows.first { $0["path"] as? String == "IMG_0001.JPG" })
        #expect(still["mediaType"] as? String == "photo")

        let table = try ShoeboxProcess.run(["photos", "--db", db])
        #expect(table.stdout.contains("DURATION"))
        #expect(table.stdout.contains("1:15"))
        #expect(table.stdout.contains("2.5 s"))
        #expect(table.stdout.contains("3 files (2 videos)"))

        let sections = try ShoeboxProcess.run(["sections", "--level", "fine", "--db", db, "--json"])
        #expect(sections.status == 0, "\(sections.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(sections.stdout.utf8)) as? [[String: Any]])
        let shown = list.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
        #expect(Set(shown) == ["IMG_0001.JPG", "IMG_0002.MOV"])
        #expect(list.map { $0["count"] as? Int ?? 0 }.reduce(0, +) == 2)
    }
}
