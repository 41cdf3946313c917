import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import Places
import ShoeboxServer
import Testing

/// `/api/search`, and `q` scoping the timeline routes: a search result is a timeline of its own.
@Suite("shoebox serve: search")
struct SearchAPITests {
    /// Lisbon over two coarse windows, Sintra, São Paulo and a photo without a position.
    final class Fixture: @unchecked Sendable {
        let tree: TemporaryDirectory
        let database: String

        /// Lisbon and Sintra, in the region of Lisbon.
        static let lisbonAndSintra: [PlaceTable.Entry] = [
            .init(name: "Lisbon", latitude: 38.7223, longitude: -9.1393, population: 500_000, region: "Lisbon",
                  countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
            .init(name: "Sintra", latitude: 38.8029, longitude: -9.3817, population: 30_000, region: "Lisbon",
                  countryCode: "PT", countryName: "Portugal", timeZone: "Europe/Lisbon"),
        ]

        static let table = PlaceTable(entries: lisbonAndSintra + [
            .init(name: "São Paulo", latitude: -23.5475, longitude: -46.6361, population: 10_000_000, region: "São Paulo",
                  countryCode: "BR", countryName: "Brazil", timeZone: "America/Sao_Paulo"),
        ])

        init() async throws {
            tree = try TemporaryDirectory()
            func jpeg(_ position: (Double, Double)?, _ local: String, model: String? = nil) -> [UInt8] {
                var fields = ExifFields(dateTimeOriginal: local, make: model == nil ? nil : "Canon", model: model)
                if let position { fields.setPosition(latitude: position.0, longitude: position.1) }
                return PhotoFixtures.jpeg(width: 8, height: 8, exif: fields)
            }
            let lisbon = (38.7139, -9.1394), sintra = (38.7990, -9.3880)
            for day in 1...12 {
                try tree.write("photos/2025/lisbon-\(day).jpg", jpeg(lisbon, String(format: "2025:03:%02d 10:00:00", day), model: "EOS R6"))
            }
            try tree.write("photos/2025/sintra-1.jpg", jpeg(sintra, "2025:03:13 10:00:00"))
            try tree.write("photos/2025/sintra-2.jpg", jpeg(sintra, "2025:03:13 11:00:00"))
            try tree.write("photos/2019/sp.jpg", jpeg((-23.55, -46.63), "2019:06:01 10:00:00", model: "EOS R6"))
            try tree.write("photos/2019/plain.jpg", jpeg(nil, "2019:06:02 10:00:00"))
            database = try await Self.index(tree, places: Self.table)
        }

        func app() throws -> some ApplicationProtocol { try Self.app(database: database, tree: tree) }

        /// Indexes `photos/` of `tree` with `places` into `index.sqlite` beside it, and returns its path.
        static func index(_ tree: TemporaryDirectory, places: PlaceTable) async throws -> String {
            let database = tree.path + "/index.sqlite"
            let store = try LibraryStore(path: database, mode: .readWrite)
            for try await _ in try Indexer(root: tree.path + "/photos", store: store, places: places).run() {}
            return database
        }

        /// Writes a JPEG taken at `local` (EXIF form) at a position to `path` in `tree`, then indexes `tree` again.
        static func add(_ path: String, latitude: Double, longitude: Double, taken local: String,
                        to tree: TemporaryDirectory, places: PlaceTable) async throws {
            var fields = ExifFields(dateTimeOriginal: local)
            fields.setPosition(latitude: latitude, longitude: longitude)
            try tree.write(path, PhotoFixtures.jpeg(width: 8, height: 8, exif: fields))
            _ = try await index(tree, places: places)
        }

        /// The server of `database`, its cache in `tree`.
        static func app(database: String, tree: TemporaryDirectory) throws -> some ApplicationProtocol {
            try ShoeboxServer.makeApplication(settings: ServerSettings(
                host: "127.0.0.1", port: 0, token: nil, databasePath: database, cacheDirectory: tree.path + "/cache",
                refreshInterval: .seconds(1)))
        }
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try response.json() as? [String: Any], "\(response.text)")
    }

    static func array(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(try response.json() as? [[String: Any]], "\(response.text)")
    }

    @Test("/api/search answers the matching photos with their places and the result's own sections")
    func search() async throws {
        let fixture = try await Fixture()
        let app = try fixture.app()
        // The city of Lisbon and Sintra, in the region of Lisbon.
        let found = try Self.object(try await get(app, "/api/search?q=Lisbon"))
        let photos = try #require(found["photos"] as? [[String: Any]])
        #expect(photos.count == 14)
        #expect(photos.allSatisfy { ($0["place"] as? [String: Any])?["region"] as? String == "Lisbon" })
        #expect(photos.first?["path"] as? String == "2025/lisbon-1.jpg")
        #expect(found["total"] as? Int == 14)
        // Each photo is the object /api/photos/{id} answers.
        for photo in [photos[0], photos[13]] {
            let detail = try Self.object(try await get(app, "/api/photos/\(photo["id"] as? Int ?? 0)"))
            #expect(NSDictionary(dictionary: photo) == NSDictionary(dictionary: detail))
        }
        let sections = try #require(found["sections"] as? [[String: Any]])
        #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 14)
        #expect(sections.map { $0["places"] as? [String] ?? [] } == [["Lisbon"], ["Lisbon", "Sintra"]])
        let limited = try Self.object(try await get(app, "/api/search?q=Lisbon&limit=3"))
        #expect((limited["photos"] as? [Any])?.count == 3)
        #expect(limited["total"] as? Int == 14)

        let camera = try Self.object(try await get(app, "/api/search?q=eos%20r6%202019"))
        #expect((camera["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["2019/sp.jpg"])
        let accents = try Self.object(try await get(app, "/api/search?q=SAO%20PAULO"))
        #expect((accents["photos"] as? [[String: Any]])?.count == 1)

        for query in ["atlantis", "", "%22", "%20%20"] {
            let response = try await get(app, "/api/search?q=\(query)")
            #expect(response.status == .ok, "\(query)")
            let empty = try Self.object(response)
            #expect((empty["photos"] as? [Any])?.isEmpty == true, "\(query)")
            #expect((empty["sections"] as? [Any])?.isEmpty == true, "\(query)")
        }
        let tooLong = try await get(app, "/api/search?q=" + String(repeating: "a", count: 1_001))
        #expect(tooLong.status == .badRequest)
    }

    @Test("q scopes sections, section pages, layout, zoom and position: the result is a timeline at both levels")
    func scoped() async throws {
        let fixture = try await Fixture()
        let app = try fixture.app()
        let all = try Self.array(try await get(app, "/api/sections?level=fine"))
        #expect(all.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 16)
        let march = try #require(all.first { ($0["end"] as? String) == "2025-03-13" })
        #expect(march["places"] as? [String] == ["Sintra", "Lisbon"])

        for level in ["coarse", "fine"] {
            let sections = try Self.array(try await get(app, "/api/sections?level=\(level)&q=sintra"))
            #expect(sections.count == 1, "\(level)")
            #expect(sections.first?["count"] as? Int == 2)
            #expect(sections.first?["places"] as? [String] == ["Sintra"])
            let layout = try Self.object(try await get(app, "/api/layout?level=\(level)&q=sintra"))
            #expect((layout["sections"] as? [Any])?.count == 1, "\(layout)")
        }
        let page = try Self.object(try await get(app, "/api/sections/fine/0?q=sintra"))
        let pagePaths = (page["photos"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(pagePaths == ["2025/sintra-1.jpg", "2025/sintra-2.jpg"])
        let outside = try await get(app, "/api/sections/fine/1?q=sintra")
        #expect(outside.status == .notFound)

        // Zoom into the second photo of the result's coarse section: the fine level of the result.
        let zoom = try Self.object(try await get(app, "/api/zoom?from=coarse&section=0&item=1&q=sintra"))
        #expect(zoom["path"] as? String == "2025/sintra-2.jpg")
        #expect((zoom["to"] as? [String: Any])?["section"] as? Int == 0)
        #expect((zoom["to"] as? [String: Any])?["item"] as? Int == 1)
        // The same photo in the whole library sits elsewhere.
        let id = try #require((page["photos"] as? [[String: Any]])?.last?["id"] as? Int)
        let inResult = try Self.object(try await get(app, "/api/photos/\(id)/position?q=sintra"))
        let inLibrary = try Self.object(try await get(app, "/api/photos/\(id)/position"))
        #expect((inResult["fine"] as? [String: Any])?["section"] as? Int == 0)
        #expect((inLibrary["fine"] as? [String: Any])?["section"] as? Int != 0)

        // An empty result is an empty timeline, not an error.
        let none = try await get(app, "/api/sections?level=coarse&q=atlantis")
        #expect(none.status == .ok)
        #expect(try Self.array(none).isEmpty)
        let detail = try Self.object(try await get(app, "/api/photos/\(id)"))
        #expect((detail["place"] as? [String: Any])?["countryCode"] as? String == "PT")
    }
}
