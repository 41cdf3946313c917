import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import Places
import Testing

/// Places, offsets from places, section places and search, through the `shoebox` executable with
/// a small places table of its own (`SHOEBOX_PLACES`).
@Suite("shoebox: places and search")
struct PlacesSearchCommandTests {
    static let entries: [PlaceTable.Entry] = [
        .init(name: "Lisbon", latitude: 38.7223, longitude: -9.1393, population: 500_000, region: "Lisbon",
              countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
        .init(name: "Sintra", latitude: 38.8029, longitude: -9.3817, population: 30_000, region: "Lisbon",
              countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
        .init(name: "São Paulo", latitude: -23.5475, longitude: -46.6361, population: 10_000_000, region: "São Paulo",
              countryCode: "BR", countryName: "Brazil", timeZone: "America/Sao_Paulo"),
    ]

    static func jpeg(_ position: (Double, Double)?, _ local: String, model: String? = nil) -> [UInt8] {
        var fields = ExifFields(dateTimeOriginal: local, make: model == nil ? nil : "Apple", model: model)
        if let position { fields.setPosition(latitude: position.0, longitude: position.1) }
        return PhotoFixtures.jpeg(width: 8, height: 8, exif: fields)
    }

    /// Three Lisbon photos and two Sintra ones in one week of March 2025, one in São Paulo in 2019.
    static func library() throws -> (tree: TemporaryDirectory, db: String, environment: [String: String]) {
        let tree = try TemporaryDirectory()
        try tree.write("places.bin", PlaceTable.encode(entries, credit: "test"))
        try tree.write("photos/trip/a.jpg", jpeg((38.7139, -9.1394), "2025:03:10 10:00:00", model: "iPhone 12"))
        try tree.write("photos/trip/b.jpg", jpeg((38.7139, -9.1394), "2025:03:11 10:00:00"))
        try tree.write("photos/trip/c.jpg", jpeg((38.7139, -9.1394), "2025:03:12 10:00:00"))
        try tree.write("photos/trip/d.jpg", jpeg((38.7990, -9.3880), "2025:03:13 10:00:00"))
        try tree.write("photos/trip/e.jpg", jpeg((38.7990, -9.3880), "2025:03:14 10:00:00"))
        try tree.write("photos/sp.jpg", jpeg((-23.55, -46.63), "2019:06:01 10:00:00", model: "iPhone 12"))
        try tree.write("photos/plain.jpg", jpeg(nil, "2019:06:02 10:00:00"))
        let db = tree.path + "/index.sqlite"
        let environment = ["SHOEBOX_PLACES": tree.path + "/places.bin"]
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], environment: environment)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(!indexed.stderr.contains("places"), "\(indexed.stderr)")
        return (tree, db, environment)
    }

    static func objects(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test("photos --json gives each photo with a position its place, and its place's offset")
    func photosPlace() throws {
        let (tree, db, _) = try Self.library()
        defer { withExtendedLifetime(tree) {} }
        let listed = try ShoeboxProcess.run(["photos", "--json", "--db", db])
        let byPath = Dictionary(uniqueKeysWithValues: try Self.objects(listed.stdout).map { ($0["path"] as? String ?? "", $0) })
        let lisbon = try #require(byPath["trip/a.jpg"]?["place"] as? [String: Any])
        #expect(lisbon["city"] as? String == "Lisbon")
        #expect(lisbon["region"] as? String == "Lisbon")
        #expect(lisbon["country"] as? String == "Portugal")
        #expect(lisbon["countryCode"] as? String == "PT")
        #expect(byPath["trip/a.jpg"]?["offset"] as? String == "+00:00")
        #expect(byPath["trip/a.jpg"]?["offsetSource"] as? String == "place")
        #expect(byPath["sp.jpg"]?["offset"] as? String == "-03:00")
        #expect(byPath["plain.jpg"]?["place"] is NSNull)
        #expect(byPath["plain.jpg"]?["offsetSource"] is NSNull)
    }

    @Test("Without a places table, index says so once on standard error and stores no place")
    func missingTable() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", Self.jpeg((38.7139, -9.1394), "2025:03:08 10:00:00"))
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(
            ["index", tree.path + "/photos", "--db", db], environment: ["SHOEBOX_PLACES": tree.path + "/none.bin"])
        #expect(indexed.status == 0)
        let lines = indexed.stderr.split(separator: "\n").filter { $0.contains("places table") }
        #expect(lines.count == 1, "\(indexed.stderr)")
        let listed = try ShoeboxProcess.run(["photos", "--json", "--db", db])
        let photo = try #require(try Self.objects(listed.stdout).first)
        #expect(photo["place"] is NSNull)
        #expect(photo["latitude"] is Double)
        #expect(photo["offsetSource"] is NSNull)
    }

    @Test("index of photos without positions says nothing of the places table (a first index loads it ahead, silently; a SHOEBOX_PLACES that fails is reported only when a photo needs it)")
    func tableNotNeeded() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", Self.jpeg(nil, "2025:03:08 10:00:00"))
        try tree.write("broken.bin", Array("not a places table".utf8))
        let indexed = try ShoeboxProcess.run(
            ["index", tree.path + "/photos", "--db", tree.path + "/index.sqlite"], environment: ["SHOEBOX_PLACES": tree.path + "/broken.bin"])
        #expect(indexed.status == 0)
        #expect(!indexed.stderr.contains("places"), "\(indexed.stderr)")
        // A photo with a position needs it: the broken table is read, and said to be unusable once.
        try tree.write("photos/b.jpg", Self.jpeg((38.7139, -9.1394), "2025:03:09 10:00:00"))
        let again = try ShoeboxProcess.run(
            ["index", tree.path + "/photos", "--db", tree.path + "/index.sqlite"], environment: ["SHOEBOX_PLACES": tree.path + "/broken.bin"])
        #expect(again.status == 0)
        #expect(again.stderr.split(separator: "\n").count { $0.contains("places") || $0.contains("broken.bin") } == 1, "\(again.stderr)")
    }

    @Test("sections --json and the table name each section's places, most photos first")
    func sectionPlaces() throws {
        let (tree, db, _) = try Self.library()
        defer { withExtendedLifetime(tree) {} }
        let coarse = try Self.objects(try ShoeboxProcess.run(["sections", "--level", "coarse", "--json", "--db", db]).stdout)
        let march = try #require(coarse.first { ($0["start"] as? String ?? "") >= "2025" })
        #expect(march["places"] as? [String] == ["Lisbon", "Sintra"])
        let june = try #require(coarse.first { ($0["start"] as? String ?? "").hasPrefix("2019") })
        #expect(june["places"] as? [String] == ["São Paulo"])
        let table = try ShoeboxProcess.run(["sections", "--level", "coarse", "--db", db])
        #expect(table.stdout.contains("PLACES"))
        #expect(table.stdout.contains("Lisbon, Sintra"))
    }

    @Test("search --json prints the matching photos as photos --json does; an empty result is []")
    func search() throws {
        let (tree, db, _) = try Self.library()
        defer { withExtendedLifetime(tree) {} }
        func paths(_ words: [String]) throws -> [String] {
            let run = try ShoeboxProcess.run(["search"] + words + ["--json", "--db", db])
            #expect(run.status == 0, "\(run.stderr)")
            return try Self.objects(run.stdout).compactMap { $0["path"] as? String }
        }
        #expect(try paths(["sintra"]) == ["trip/d.jpg", "trip/e.jpg"])
        #expect(try paths(["sao", "paulo"]) == ["sp.jpg"])
        #expect(try paths(["iphone", "2025"]) == ["trip/a.jpg"])
        #expect(try paths(["2019-06"]) == ["sp.jpg", "plain.jpg"])
        #expect(try paths(["atlantis"]) == [])
        let photo = try #require(try Self.objects(try ShoeboxProcess.run(["search", "sintra", "--json", "--db", db]).stdout).first)
        #expect((photo["place"] as? [String: Any])?["city"] as? String == "Sintra")
        let table = try ShoeboxProcess.run(["search", "lisbon", "--level", "fine", "--db", db])
        #expect(table.status == 0)
        #expect(table.stdout.contains("3 fine sections, 5 photos"), "\(table.stdout)")  // Sintra is in the region of Lisbon
        #expect(table.stdout.contains("Lisbon, Sintra"))
        // The same result through sections --query, at both levels.
        let scoped = try Self.objects(try ShoeboxProcess.run(["sections", "--level", "fine", "--json", "--query", "sintra", "--db", db]).stdout)
        #expect(scoped.map { $0["count"] as? Int ?? 0 } == [2])  // 13 and 14 March, one fine section
        #expect(scoped.map { $0["places"] as? [String] ?? [] } == [["Sintra"]])
        let scopedCoarse = try Self.objects(try ShoeboxProcess.run(["sections", "--json", "--query", "iphone", "--db", db]).stdout)
        #expect(scopedCoarse.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 2)
        let none = try ShoeboxProcess.run(["search", "atlantis", "--db", db])
        #expect(none.status == 0)
        #expect(none.stdout.contains("No photo matches"))
    }
}

@Suite("shoebox places")
struct PlacesCommandTests {
    @Test("A first index builds its search index at its end; a first index killed before that leaves the flag, and the next run rebuilds")
    func searchIndexOfAFirstRun() throws {
        let (tree, db, environment) = try PlacesSearchCommandTests.library()
        defer { withExtendedLifetime(tree) {} }
        func paths(_ words: [String]) throws -> [String] {
            let run = try ShoeboxProcess.run(["search"] + words + ["--json", "--db", db])
            #expect(run.status == 0, "\(run.stderr)")
            return try PlacesSearchCommandTests.objects(run.stdout).compactMap { $0["path"] as? String }
        }
        // The first index (in `library()`) wrote its rows without words, then the whole index at once.
        #expect(try paths(["sintra"]) == ["trip/d.jpg", "trip/e.jpg"])
        let queue = try DatabaseQueue(path: db)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM searchDeferred") } == 0)
        let triggers = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'photoSearch%'"
        #expect(try queue.read { try Int.fetchOne($0, sql: triggers) } == 3)
        // What a first index killed before its end leaves: the rows, no words, the flag set and the
        // search triggers dropped.
        try queue.write { db in
            try db.execute(sql: "INSERT INTO searchDeferred (id) VALUES (1); INSERT INTO photoSearch (photoSearch) VALUES ('delete-all')")
            try db.execute(sql: "DROP TRIGGER photoSearchInsert; DROP TRIGGER photoSearchDelete; DROP TRIGGER photoSearchUpdate")
        }
        #expect(try paths(["sintra"]).isEmpty)
        // The next run, though it reads no file, builds the search index again; triggers are back on.
        try tree.write("photos/trip/f.jpg", PlacesSearchCommandTests.jpeg((38.7990, -9.3880), "2025:03:15 10:00:00"))
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], environment: environment).status == 0)
        #expect(try paths(["sintra"]) == ["trip/d.jpg", "trip/e.jpg", "trip/f.jpg"])
        #expect(try queue.read { try Int.fetchOne($0, sql: triggers) } == 3)
        // Another program's change reaches the search index through them.
        try queue.write { db in try db.execute(sql: "UPDATE photo SET make = 'Leica' WHERE CAST(path AS TEXT) = 'trip/d.jpg'") }
        try queue.close()
        #expect(try paths(["leica"]) == ["trip/d.jpg"])
        try FileManager.default.removeItem(atPath: tree.path + "/photos/trip/e.jpg")
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], environment: environment).status == 0)
        #expect(try paths(["sintra"]) == ["trip/d.jpg", "trip/f.jpg"])
    }

    @Test("places prints countries, regions and cities as an aligned tree; --json the same tree as /api/places")
    func tree() throws {
        let (tree, db, environment) = try PlacesSearchCommandTests.library()
        defer { withExtendedLifetime(tree) {} }
        let printed = try ShoeboxProcess.run(["places", "--db", db], environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stdout == """
            Portugal (PT)  5 photos
              Lisbon       5 photos
                Lisbon     3 photos
                Sintra     2 photos
            Brazil (BR)    1 photo
              São Paulo    1 photo
                São Paulo  1 photo
            No place       1 photo

            """)
        let json = try ShoeboxProcess.run(["places", "--json", "--db", db], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["unplaced"] as? Int == 1)
        let countries = try #require(object["countries"] as? [[String: Any]])
        #expect(countries.map { $0["countryCode"] as? String } == ["PT", "BR"])
        let sintra = try #require(((countries[0]["regions"] as? [[String: Any]])?.first?["cities"] as? [[String: Any]])?.last)
        #expect(sintra["name"] as? String == "Sintra")
        #expect(sintra["photos"] as? Int == 2)
        let query = try #require(sintra["query"] as? String)
        // The query finds exactly that city's photos.
        let found = try ShoeboxProcess.run(["search", query, "--json", "--db", db])
        let paths = try PlacesSearchCommandTests.objects(found.stdout).compactMap { $0["path"] as? String }
        #expect(paths == ["trip/d.jpg", "trip/e.jpg"])
        #expect(sintra["cover"] is Int)
    }

    @Test("Without positions, or with positions but no places table, places says so in one sentence that says what to do")
    func nothingToList() throws {
        let tree = try TemporaryDirectory()
        try tree.write("plain/a.jpg", PlacesSearchCommandTests.jpeg(nil, "2025:03:08 10:00:00"))
        try tree.write("located/a.jpg", PlacesSearchCommandTests.jpeg((38.7139, -9.1394), "2025:03:08 10:00:00"))
        let missing = ["SHOEBOX_PLACES": tree.path + "/none.bin"]
        for folder in ["plain", "located"] {
            let indexed = try ShoeboxProcess.run(["index", tree.path + "/" + folder, "--db", tree.path + "/\(folder).sqlite"], environment: missing)
            #expect(indexed.status == 0, "\(indexed.stderr)")
        }
        let plain = try ShoeboxProcess.run(["places", "--db", tree.path + "/plain.sqlite"], environment: missing)
        #expect(plain.status == 0)
        #expect(plain.stdout.hasPrefix("No photo has a GPS position"), "\(plain.stdout)")
        let located = try ShoeboxProcess.run(["places", "--db", tree.path + "/located.sqlite"], environment: missing)
        #expect(located.status == 0)
        #expect(located.stdout == "1 photo has a position but no places table is installed: run scripts/places-data, then shoebox index on the library's folder again.\n")
        let json = try ShoeboxProcess.run(["places", "--json", "--db", tree.path + "/located.sqlite"], environment: missing)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["countries"] as? [Any])?.isEmpty == true)
        #expect(object["unplaced"] as? Int == 1)
    }
}

@Suite("Section places")
struct SectionPlacesTests {
    static func count(_ day: String, _ city: String?, _ region: String?, _ country: String, _ n: Int) -> DayPlaceCount {
        DayPlaceCount(day: day, place: PhotoPlace(city: city, region: region, country: country, countryCode: nil), count: n)
    }

    @Test("Up to three city names, most photos first; regions, then countries, when there are more")
    func names() {
        let places = SectionPlaces([
            Self.count("2025-03-08", "Lisbon", "Lisbon", "Portugal", 5),
            Self.count("2025-03-09", "Sintra", "Lisbon", "Portugal", 8),
            Self.count("2025-03-10", "Porto", "Porto", "Portugal", 1),
            Self.count("2025-03-11", "Faro", "Algarve", "Portugal", 1),
            Self.count("2025-03-12", "Lagos", "Algarve", "Portugal", 1),
            Self.count("2025-03-20", "Madrid", "Madrid", "Spain", 1),
            Self.count("2025-03-21", "Paris", "Île-de-France", "France", 1),
            Self.count("2025-03-22", "Rome", "Lazio", "Italy", 3),
            Self.count("2025-03-23", "Berlin", "Berlin", "Germany", 2),
            Self.count("2025-03-24", nil, nil, "Norway", 9),
        ])
        #expect(places.names(from: "2025-03-08", to: "2025-03-09") == ["Sintra", "Lisbon"])
        #expect(places.names(from: "2025-03-08", to: "2025-03-10") == ["Sintra", "Lisbon", "Porto"])
        // Four cities in three regions.
        #expect(places.names(from: "2025-03-08", to: "2025-03-11") == ["Lisbon", "Porto", "Algarve"])
        // Cities and regions too many: countries.
        #expect(places.names(from: "2025-03-20", to: "2025-03-24") == ["Norway", "Italy", "Germany"])
        #expect(places.names(from: "2025-03-13", to: "2025-03-19") == [])
        #expect(places.names(from: "2026-01-01", to: "2026-01-31") == [])
    }
}
