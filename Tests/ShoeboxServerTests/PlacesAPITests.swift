import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import Places
import ShoeboxServer
import Testing

/// `/api/places`: countries, regions and cities with counts, covers, and a query whose result is
/// exactly each place's photos.
@Suite("shoebox serve: places")
struct PlacesAPITests {
    /// Portugal (Lisbon in a folder named "Sintra", Sintra, Porto), a Lisbon in Maine, Monaco
    /// (no region name), and two photos without a place.
    final class Fixture: @unchecked Sendable {
        let tree: TemporaryDirectory
        let database: String

        static let table = PlaceTable(entries: SearchAPITests.Fixture.lisbonAndSintra + [
            .init(name: "Porto", latitude: 41.1496, longitude: -8.6110, population: 230_000, region: "Porto",
                  countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
            .init(name: "Lisbon", latitude: 44.0312, longitude: -70.1045, population: 9_000, region: "Maine",
                  countryCode: "US", countryName: "United States", timeZone: "America/New_York"),
            .init(name: "Monaco", latitude: 43.7384, longitude: 7.4246, population: 38_000, region: nil,
                  countryCode: "MC", countryName: "Monaco", timeZone: "Europe/Monaco"),
        ])

        init() async throws {
            tree = try TemporaryDirectory()
            func jpeg(_ position: (Double, Double)?, _ local: String) -> [UInt8] {
                var fields = ExifFields(dateTimeOriginal: local)
                if let position { fields.setPosition(latitude: position.0, longitude: position.1) }
                return PhotoFixtures.jpeg(width: 8, height: 8, exif: fields)
            }
            for day in 1...3 {
                try tree.write("photos/Sintra/lisbon-\(day).jpg", jpeg((38.7139, -9.1394), "2025:03:0\(day) 10:00:00"))
            }
            try tree.write("photos/sintra-1.jpg", jpeg((38.7990, -9.3880), "2025:03:05 10:00:00"))
            try tree.write("photos/sintra-2.jpg", jpeg((38.7990, -9.3880), "2025:03:06 10:00:00"))
            try tree.write("photos/porto.jpg", jpeg((41.15, -8.61), "2025:06:01 10:00:00"))
            try tree.write("photos/maine.jpg", jpeg((44.03, -70.10), "2024:07:01 10:00:00"))
            try tree.write("photos/monaco-1.jpg", jpeg((43.74, 7.42), "2023:05:01 10:00:00"))
            try tree.write("photos/monaco-2.jpg", jpeg((43.74, 7.42), "2023:05:02 10:00:00"))
            try tree.write("photos/plain.jpg", jpeg(nil, "2022:01:01 10:00:00"))
            try tree.write("photos/sea.jpg", jpeg((0.5, -30.0), "2022:01:02 10:00:00"))
            database = try await SearchAPITests.Fixture.index(tree, places: Self.table)
        }

        func app() throws -> some ApplicationProtocol { try SearchAPITests.Fixture.app(database: database, tree: tree) }
    }

    /// A place of any level as the answer gives it.
    struct Entry {
        var name: String
        var photos: Int
        var cover: Int
        var query: String
        var children: [Entry]

        init(_ object: [String: Any]) throws {
            name = try #require(object["name"] as? String)
            photos = try #require(object["photos"] as? Int)
            cover = try #require(object["cover"] as? Int)
            query = try #require(object["query"] as? String)
            let below = (object["regions"] ?? object["cities"]) as? [[String: Any]] ?? []
            children = try below.map(Entry.init)
        }

        var all: [Entry] { [self] + children.flatMap(\.all) }
    }

    static func places(_ app: some ApplicationProtocol) async throws -> (countries: [Entry], object: [String: Any]) {
        let response = try await get(app, "/api/places")
        #expect(response.status == .ok)
        let object = try #require(try response.json() as? [String: Any], "\(response.text)")
        let countries = try #require(object["countries"] as? [[String: Any]])
        return (try countries.map(Entry.init), object)
    }

    @Test("Countries, regions and cities by photo count, a missing region skipped, photos without a place counted")
    func tree() async throws {
        let fixture = try await Fixture()
        let (countries, object) = try await Self.places(try fixture.app())
        #expect(countries.map(\.name) == ["Portugal", "Monaco", "United States"])
        #expect(countries.map(\.photos) == [6, 2, 1])
        let codes = (object["countries"] as? [[String: Any]])?.map { $0["countryCode"] as? String }
        #expect(codes == ["PT", "MC", "US"])
        #expect(object["unplaced"] as? Int == 2)
        let portugal = countries[0]
        #expect(portugal.children.map(\.name) == ["Lisbon", "Porto"])
        #expect(portugal.children.map(\.photos) == [5, 1])
        #expect(portugal.children[0].children.map(\.name) == ["Lisbon", "Sintra"])
        #expect(portugal.children[0].children.map(\.photos) == [3, 2])
        // Monaco has no region name: its city stands at the region level, with no cities below.
        #expect(countries[1].children.map(\.name) == ["Monaco"])
        #expect(countries[1].children[0].children.isEmpty)
        #expect(countries[1].children[0].query == "country:MC region:\"\" city:Monaco")
        #expect(portugal.children[0].children[1].query == "country:PT region:Lisbon city:Sintra")
    }

    @Test("Each place's query, as q, gives exactly its photos: in search, sections at both levels and layout; its cover is the newest of them")
    func queriesAreExact() async throws {
        let fixture = try await Fixture()
        let app = try fixture.app()
        let entries = try await Self.places(app).countries.flatMap(\.all)
        #expect(entries.count == 11)
        for entry in entries {
            let q = try #require(entry.query.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let responses = try await get(app, [
                ("/api/search?limit=10000&q=\(q)", [:]), ("/api/sections?level=fine&q=\(q)", [:]),
                ("/api/sections?level=coarse&q=\(q)", [:]), ("/api/layout?level=coarse&q=\(q)", [:]),
            ])
            let found = try #require(try responses[0].json() as? [String: Any])
            let photos = try #require(found["photos"] as? [[String: Any]])
            #expect(found["total"] as? Int == entry.photos, "\(entry.query)")
            // Photos come in capture order: the cover is the last.
            #expect(photos.last?["id"] as? Int == entry.cover, "\(entry.query)")
            for sections in responses[1...2] {
                let list = try #require(try sections.json() as? [[String: Any]])
                #expect(list.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == entry.photos, "\(entry.query)")
            }
            #expect(responses[3].status == .ok)
        }
        // Words alone match more: "sintra" also finds the folder named Sintra, "lisbon" the region and Maine.
        let words = try await get(app, ["/api/search?q=sintra", "/api/search?q=lisbon"].map { ($0, [:]) })
        #expect(try (words[0].json() as? [String: Any])?["total"] as? Int == 5)
        #expect(try (words[1].json() as? [String: Any])?["total"] as? Int == 6)
    }
}
