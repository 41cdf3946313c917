import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import ShoeboxServer
import Testing

@Suite("shoebox serve: the packed timeline and the Years level")
struct PackedAPITests {
    /// Both re-serialised the same way are the same text.
    func canonical(_ data: Data) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: .sortedKeys), as: UTF8.self)
    }

    @Test("/api/sections?level=years is `shoebox sections --level years --json`, the key photo with its id and size")
    func years() async throws {
        let fixture = try await ServerFixture()
        let cli = try #require(try JSONSerialization.jsonObject(with: shoeboxOutput(
            ["sections", "--level", "years", "--today", "2026-03-01", "--json", "--db", fixture.database])) as? [[String: Any]])
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let response = try await get(app, "/api/sections?level=years&today=2026-03-01")
        #expect(response.status == .ok, "\(response.text)")
        let served = try #require(try response.json() as? [[String: Any]])
        #expect(!served.isEmpty && served.count == cli.count)
        let coarse = try #require(try await get(app, "/api/sections?level=coarse").json() as? [[String: Any]])
        #expect(served.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == coarse.reduce(0) { $0 + ($1["count"] as? Int ?? 0) })
        let ids = Dictionary(uniqueKeysWithValues: try fixture.rows().map { ($0.path, $0.id) })
        for (index, (year, line)) in zip(served, cli).enumerated() {
            #expect(year["index"] as? Int == index)
            for key in ["year", "count", "months", "keyDay"] { #expect((year[key] as? NSObject)?.isEqual(line[key]) == true, "\(key)") }
            let months = try #require(year["months"] as? [Int])
            #expect(months.count == 12 && months.reduce(0, +) == year["count"] as? Int)
            let key = try #require(year["key"] as? [String: Any])
            let cliKey = try #require(line["key"] as? [String: Any])
            let path = try #require(key["path"] as? String)
            #expect(path == cliKey["path"] as? String && cliKey["id"] == nil)
            #expect((key["id"] as? NSNumber)?.int64Value == ids[path])
            // The width is null for the broken file, whose year (its file date) it keys.
            #expect(key.keys.contains("width") && key.keys.contains("height") && key["mediaType"] as? String == "photo")
        }
        let bad = try await get(app, [("/api/sections?level=years&today=2026-02-30", [:]), ("/api/sections?level=decades", [:])])
        #expect(bad.map(\.status) == [.badRequest, .badRequest])
    }

    @Test("a Years card never keys a damaged file when its year has a readable photo, and a tap from it lands on its key")
    func keyPhotoIsReadable() async throws {
        let tree = try TemporaryDirectory()
        // Dated by their names: 10 May and 1 June 2019, the second cut short after 40 bytes.
        try tree.write("photos/IMG_20190510_120000.jpg", PhotoFixtures.jpeg(width: 64, height: 48))
        try tree.write("photos/IMG_20190601_120000.jpg", Array(PhotoFixtures.jpeg(width: 64, height: 48).prefix(40)))
        let database = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: database, mode: .readWrite)
        for try await _ in try Indexer(root: tree.path + "/photos", store: store).run() {}
        let settings = ServerSettings(host: "127.0.0.1", port: 0, token: nil, databasePath: database, cacheDirectory: tree.path + "/cache")
        let app = try ShoeboxServer.makeApplication(settings: settings)
        // Today is 1 June: the damaged file's day is the nearest, the readable photo's the next.
        let answers = try await get(app, [
            ("/api/sections?level=years&today=2026-06-01", [:]),
            ("/api/zoom?packed=1&from=years&section=0&item=0&offset=0&viewport=390x844&today=2026-06-01", [:]),
        ])
        let years = try #require(try answers[0].json() as? [[String: Any]])
        #expect(years.count == 1 && years.first?["count"] as? Int == 2, "\(years)")
        let key = try #require(years.first?["key"] as? [String: Any])
        #expect(key["path"] as? String == "IMG_20190510_120000.jpg" && years.first?["keyDay"] as? String == "2019-05-10", "\(key)")
        let zoom = try #require(try answers[1].json() as? [String: Any])
        #expect(zoom["path"] as? String == "IMG_20190510_120000.jpg" && zoom["targetPath"] as? String == "IMG_20190510_120000.jpg", "\(zoom)")
    }

    @Test("/api/layout?packed=1 gives every block; its cells tile the width and follow the viewport class", arguments: [
        ("coarse", "390x844", 10), ("fine", "390x844", 4), ("coarse", "1440x900", 13), ("fine", "1440x900", 7), ("years", "1440x900", 7),
    ])
    func packedLayout(level: String, viewport: String, columns: Int) async throws {
        let fixture = try await ServerFixture()
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let response = try await get(app, "/api/layout?packed=1&level=\(level)&viewport=\(viewport)")
        #expect(response.status == .ok, "\(response.text)")
        let layout = try #require(try response.json() as? [String: Any])
        #expect(layout["packed"] as? Bool == true && layout["columns"] as? Int == columns)
        #expect(layout["viewportClass"] as? String == (viewport.hasPrefix("390") ? "compact" : "regular"))
        let width = Double(viewport.split(separator: "x")[0])!
        let cell = try #require(layout["cellSide"] as? Double)
        let spacing = try #require(layout["spacing"] as? Double)
        #expect(abs(cell - (width - Double(columns - 1) * spacing) / Double(columns)) < 1e-9)
        let blocks = try #require(layout["sections"] as? [[String: Any]])
        #expect(!blocks.isEmpty)
        var previous: (line: Int, maxX: Double)?
        for block in blocks {
            let x = try #require(block["x"] as? Double), w = try #require(block["width"] as? Double), line = try #require(block["line"] as? Int)
            #expect(x + w <= width + 1e-9)
            if let previous, previous.line == line { #expect(x > previous.maxX) }
            previous = (line, x + w)
        }
        let seed = try await get(app, "/api/layout?level=fine&viewport=1440x900")
        #expect((try seed.json() as? [String: Any])?["columns"] as? Int == 4, "the seed grid stays the default")
    }

    @Test("/api/zoom?packed=1 is `shoebox zoom --packed --json`; a tap keeps its height unless clamped", arguments: [
        "from=years&section=0&item=0&offset=0&viewport=390x844",
        "from=coarse&to=years&section=1&item=0&offset=0&viewport=1440x900",
        "from=coarse&section=1&item=2&offset=40&viewport=1440x900",
        "from=fine&section=3&item=0&offset=200&viewport=390x844",
        "from=fine&to=years&focalY=300&offset=100&viewport=390x844",
    ])
    func packedZoom(query: String) async throws {
        let fixture = try await ServerFixture()
        var arguments = ["zoom", "--packed", "--today", "2026-03-01", "--json", "--db", fixture.database]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            arguments += ["--\(["focalY": "focal-y"][parts[0]] ?? parts[0])", parts[1]]
        }
        let cli = try shoeboxOutput(arguments)
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/zoom?packed=1&today=2026-03-01&\(query)")
        #expect(response.status == .ok, "\(response.text)")
        #expect(try canonical(Data(response.bytes)) == canonical(cli))
        let zoom = try #require(try response.json() as? [String: Any])
        if zoom["clamped"] as? Bool == false {
            #expect(abs((zoom["viewportY"] as? Double ?? 0) - (zoom["targetViewportY"] as? Double ?? 1)) <= 1)
        }
    }

    @Test("packed answers refuse what they cannot answer, naming the parameter")
    func refusals() async throws {
        let fixture = try await ServerFixture()
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let cases: [(String, HTTPResponse.Status)] = [
            ("/api/layout?packed=1&level=decades&viewport=390x844", .badRequest),
            ("/api/layout?packed=2&level=fine", .badRequest),
            ("/api/layout?packed=1&level=fine&viewport=0.5x844", .badRequest),
            ("/api/layout?packed=1&level=fine&viewport=100000x844", .ok),
            ("/api/zoom?packed=1&from=years&section=9999&item=0", .notFound),
            ("/api/zoom?packed=1&from=years&section=0&item=1", .notFound),
            ("/api/zoom?from=years&section=0&item=0", .badRequest),
            ("/api/zoom?from=coarse&to=fine&section=0&item=0", .badRequest),
            ("/api/zoom?packed=1&section=0&item=0", .badRequest),
        ]
        let responses = try await get(app, cases.map { ($0.0, [:]) })
        for ((uri, status), response) in zip(cases, responses) {
            #expect(response.status == status, "\(uri): \(response.text)")
        }
    }
}
