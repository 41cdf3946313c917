import Foundation
import PhotoFixtures
import Testing

/// Counts read as English ("1 photo"), `config` says what is in effect, and `zoom` says when the
/// tapped cell could not have been tapped.
@Suite struct WordingTests {
    /// A library of one photo, indexed into `library.sqlite`.
    static func onePhoto() throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        _ = try folder.write("photos/a.jpg", PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2024:05:01 10:00:00")))
        let database = folder.url("library.sqlite").path
        let indexed = try ShoeboxProcess.run(["index", folder.url("photos").path, "--db", database])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        return (folder, database)
    }

    @Test func oneOfAThingIsSingular() throws {
        let (folder, database) = try Self.onePhoto()
        _ = folder
        let sections = try ShoeboxProcess.run(["sections", "--db", database])
        #expect(sections.stdout.hasSuffix("1 coarse section, 1 photo\n"), "\(sections.stdout)")
        let section = try ShoeboxProcess.run(["sections", "--section", "0", "--db", database])
        #expect(section.stdout.contains("— 1 photo, 1 shown"), "\(section.stdout)")
        let photos = try ShoeboxProcess.run(["photos", "--db", database])
        #expect(photos.stdout.hasSuffix("\n1 file\n"), "\(photos.stdout)")
        let backup = try ShoeboxProcess.run(["backup", folder.url("copy.sqlite").path, "--db", database])
        #expect(backup.stdout.contains("Backed up 1 photo from"), "\(backup.stdout)")
    }

    @Test func configSaysWhichFileAndDatabaseAreInEffect() throws {
        let folder = try TemporaryDirectory()
        let config = try folder.write("mine.json", Array(#"{"index":{"jobs":3}}"#.utf8)).path
        let database = folder.url("elsewhere.sqlite").path
        let run = try ShoeboxProcess.run(["config", "--config", config, "--db", database])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("# Configuration file: \(config) (--config)"), "\(run.stderr)")
        #expect(run.stderr.contains("# Database: \(database) (--db)"), "\(run.stderr)")
        // Standard output is the configuration alone, as JSON to save.
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect((object?["index"] as? [String: Any])?["jobs"] as? Int == 3)

        let fromEnvironment = try ShoeboxProcess.run(["config"], environment: ["SHOEBOX_DB": database])
        #expect(fromEnvironment.stderr.contains("# Database: \(database) ($SHOEBOX_DB)"), "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("($SHOEBOX_CONFIG)"), "\(fromEnvironment.stderr)")
    }

    @Test func zoomSaysWhenTheTappedCellIsOffScreen() throws {
        let (folder, database) = try Self.onePhoto()
        _ = folder
        let visible = try ShoeboxProcess.run(["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--db", database])
        #expect(visible.status == 0, "\(visible.stderr)")
        #expect(!visible.stderr.contains("off screen"), "\(visible.stderr)")

        let below = try ShoeboxProcess.run(["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--offset", "5000", "--db", database])
        #expect(below.status == 0, "\(below.stderr)")
        #expect(below.stderr.contains("Note: at --offset 5000 that cell is off screen"), "\(below.stderr)")

        let json = try ShoeboxProcess.run(["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--offset", "-2000", "--json", "--db", database])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["onScreen"] as? Bool == false)
        #expect(json.stderr.contains("off screen"))
    }

    @Test func serveRefusesAnUnknownLogLevel() throws {
        let run = try ShoeboxProcess.run(["serve", "--log-level", "loud", "--port", "0"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("--log-level takes one of trace, debug, info, notice, warning, error (got loud)."), "\(run.stderr)")
    }
}
