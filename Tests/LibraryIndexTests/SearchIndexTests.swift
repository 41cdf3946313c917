import WallClock
import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Places
import Testing

/// Search over place names, dates, cameras and file and folder names, through the FTS5 index the
/// store keeps in step with its rows.
@Suite("Search index")
struct SearchIndexTests {
    /// A small library whose every photo is findable by something different.
    static func writeTree(_ tree: TemporaryDirectory) throws {
        try tree.write("root/Portugal trip/lisbon-1.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2025:03:08 10:00:00", make: "Canon", model: "Canon EOS R6"))
        try tree.write("root/Portugal trip/lisbon-2.jpg", TestPlaces.jpeg(TestPlaces.lisbon, local: "2024:03:09 10:00:00", make: "Apple", model: "iPhone 12"))
        try tree.write("root/Portugal trip/sintra.jpg", TestPlaces.jpeg(TestPlaces.sintra, local: "2025:03:14 10:00:00", make: "Apple", model: "iPhone 12"))
        try tree.write("root/brazil/sp.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2008:11:20 10:00:00", make: "NIKON CORPORATION", model: "NIKON D90"))
        try tree.write("root/scans/grandma.jpg", TestPlaces.jpeg(nil, local: "2008:03:01 10:00:00"))
    }

    static func indexed() async throws -> (TemporaryDirectory, LibraryStore) {
        let tree = try TemporaryDirectory()
        try writeTree(tree)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        return (tree, store)
    }

    static func found(_ store: LibraryStore, _ text: String) throws -> [String] {
        var paths: [String] = []
        try store.forEachPhoto(matching: SearchQuery(text)) { paths.append($0.path.lastComponent) }
        return paths.sorted()
    }

    @Test("Finds by city, region, country, date forms, camera and folder; case and accents ignored; words AND-ed",
          arguments: [
            // Sintra is in the region of Lisbon.
            ("lisbon", ["lisbon-1.jpg", "lisbon-2.jpg", "sintra.jpg"]),
            ("LISBON", ["lisbon-1.jpg", "lisbon-2.jpg", "sintra.jpg"]),
            ("sintra", ["sintra.jpg"]),
            ("portugal", ["lisbon-1.jpg", "lisbon-2.jpg", "sintra.jpg"]),
            ("sao paulo", ["sp.jpg"]),
            ("São Paulo", ["sp.jpg"]),
            ("brazil", ["sp.jpg"]),
            ("2008", ["grandma.jpg", "sp.jpg"]),
            ("march 2025", ["lisbon-1.jpg", "sintra.jpg"]),
            ("Mar 2025", ["lisbon-1.jpg", "sintra.jpg"]),
            ("2025-03", ["lisbon-1.jpg", "sintra.jpg"]),
            ("2025-03-08", ["lisbon-1.jpg"]),
            ("2008-03", ["grandma.jpg"]),
            ("november", ["sp.jpg"]),
            ("iphone", ["lisbon-2.jpg", "sintra.jpg"]),
            ("canon", ["lisbon-1.jpg"]),
            ("d90", ["sp.jpg"]),
            ("scans", ["grandma.jpg"]),
            ("grandma", ["grandma.jpg"]),
            ("trip", ["lisbon-1.jpg", "lisbon-2.jpg", "sintra.jpg"]),
            ("lisbon 2024", ["lisbon-2.jpg"]),
            ("lisbon iphone", ["lisbon-2.jpg", "sintra.jpg"]),
            ("sintra iphone 2025", ["sintra.jpg"]),
            ("lisbon brazil", []),
            ("atlantis", []),
          ])
    func finds(query: String, expected: [String]) async throws {
        let (tree, store) = try await Self.indexed()
        defer { withExtendedLifetime(tree) {} }
        #expect(try Self.found(store, query) == expected, "\(query)")
    }

    @Test("Place fields match one place exactly, alone or with words", arguments: [
        ("city:Lisbon", ["lisbon-1.jpg", "lisbon-2.jpg"]),
        ("city:lisbon 2024", ["lisbon-2.jpg"]),
        ("country:pt", ["lisbon-1.jpg", "lisbon-2.jpg", "sintra.jpg"]),
        ("country:Portugal", []),
        ("region:Lisbon city:Sintra", ["sintra.jpg"]),
        ("country:BR region:\"São Paulo\" city:\"São Paulo\"", ["sp.jpg"]),
        ("city:\"Sao Paulo\"", []),
        ("city:\"\"", ["grandma.jpg"]),
        ("city:Lisbon city:Sintra", []),
    ])
    func placeFields(query: String, expected: [String]) async throws {
        let (tree, store) = try await Self.indexed()
        defer { withExtendedLifetime(tree) {} }
        #expect(try Self.found(store, query) == expected, "\(query)")
        #expect(try store.photoIDs(matching: SearchQuery(query)).count == expected.count, "\(query)")
    }

    @Test("FTS5 syntax in a query is text, never an error", arguments: [
        "\"", "\"\"", "lisbon OR sintra", "NEAR(lisbon sintra)", "lisbon*", "*", "-lisbon", "^lisbon", "words:lisbon",
        "(lisbon", "lisbon)", "AND", "NOT", "'; DROP TABLE photo; --", "\u{0}", "\u{1}lisbon", String(repeating: "a ", count: 300),
        "😀", "🇵🇹 lisbon", "\u{301}", "  ", "",
    ])
    func hostileQueries(text: String) async throws {
        let (tree, store) = try await Self.indexed()
        defer { withExtendedLifetime(tree) {} }
        let query = SearchQuery(text)
        #expect(query.terms.count <= SearchQuery.maximumTerms)
        #expect(query.terms.joined().count <= SearchQuery.maximumCharacters)
        _ = try Self.found(store, text)
        _ = try store.photoIDs(matching: query)
        _ = try store.placeCountsByDay(matching: query)
        // "lisbon OR sintra" means both words (there is no photo of both), not either.
        if text == "lisbon OR sintra" { #expect(try Self.found(store, text) == []) }
    }

    @Test("The index follows inserts, changes and deletions")
    func keptInStep() async throws {
        let (tree, store) = try await Self.indexed()
        defer { withExtendedLifetime(tree) {} }
        #expect(try Self.found(store, "d90") == ["sp.jpg"])
        // A changed file: new camera, new date.
        try tree.write("root/brazil/sp.jpg", TestPlaces.jpeg(TestPlaces.saoPaulo, local: "2010:01:20 10:00:00", make: "FUJIFILM", model: "X100V"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 10)], ofItemAtPath: tree.path + "/root/brazil/sp.jpg")
        // A deleted file, and a new one.
        try FileManager.default.removeItem(atPath: tree.path + "/root/scans/grandma.jpg")
        try tree.write("root/scans/grandpa.jpg", TestPlaces.jpeg(nil, local: "2008:03:02 10:00:00"))
        try await index(tree.path + "/root", into: store, places: TestPlaces.table)
        #expect(try Self.found(store, "d90") == [])
        #expect(try Self.found(store, "x100v") == ["sp.jpg"])
        #expect(try Self.found(store, "2010 sao paulo") == ["sp.jpg"])
        #expect(try Self.found(store, "grandma") == [])
        #expect(try Self.found(store, "grandpa 2008") == ["grandpa.jpg"])
        #expect(try Self.found(store, "2008") == ["grandpa.jpg"])
    }

    @Test("Place counts per day name where a day's photos were taken, for the whole library or a result")
    func placeCounts() async throws {
        let (tree, store) = try await Self.indexed()
        defer { withExtendedLifetime(tree) {} }
        let all = try store.placeCountsByDay()
        #expect(all.map(\.day) == ["2008-11-20", "2024-03-09", "2025-03-08", "2025-03-14"])
        #expect(all.first?.place.city == "São Paulo")
        let canon = try store.placeCountsByDay(matching: SearchQuery("canon"))
        #expect(canon.map(\.day) == ["2025-03-08"])
        #expect(canon.allSatisfy { $0.place.city == "Lisbon" && $0.count == 1 })
    }
}
