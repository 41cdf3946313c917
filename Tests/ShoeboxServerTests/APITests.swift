import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoLibrary
import ShoeboxServer
import Testing

@Suite("shoebox serve: the JSON API")
struct APITests {
    @Test("/api/library counts the library")
    func library() async throws {
        let fixture = try await ServerFixture()
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/library")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        let body = try #require(try response.json() as? [String: Any])
        #expect(body["photos"] as? Int == 121)
        #expect(body["errors"] as? Int == 1)
        #expect((body["root"] as? String)?.hasSuffix("/photos") == true)
        #expect(body["lastIndexed"] is String)
        let sections = try #require(body["sections"] as? [String: Int])
        #expect((sections["coarse"] ?? 0) > 0 && (sections["fine"] ?? 0) >= (sections["coarse"] ?? 0))
    }

    @Test("/api/sections is `shoebox sections --json` without the photos", arguments: ["coarse", "fine"])
    func sectionsMatchTheCLI(level: String) async throws {
        let fixture = try await ServerFixture()
        let cli = try #require(try JSONSerialization.jsonObject(with: shoeboxOutput(["sections", "--level", level, "--json", "--db", fixture.database])) as? [[String: Any]])
        let expected = cli.map { $0.filter { $0.key != "photos" } }
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/sections?level=\(level)")
        #expect(response.status == .ok)
        let served = try #require(try response.json() as? [[String: Any]])
        #expect(served.count == expected.count && !served.isEmpty)
        #expect(NSArray(array: served).isEqual(to: expected))
    }

    @Test("/api/sections/{level}/{index} is the CLI's section with ids, sizes and media types")
    func oneSection() async throws {
        let fixture = try await ServerFixture()
        let cli = try #require(try JSONSerialization.jsonObject(with: shoeboxOutput(["sections", "--level", "coarse", "--section", "1", "--json", "--db", fixture.database])) as? [[String: Any]])
        let expected = try #require(cli.first)
        let ids = Dictionary(uniqueKeysWithValues: try fixture.rows().map { ($0.path, $0.id) })
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/sections/coarse/1")
        #expect(response.status == .ok)
        let section = try #require(try response.json() as? [String: Any])
        for key in ["level", "index", "start", "end", "count", "shown", "label"] {
            #expect((section[key] as? NSObject)?.isEqual(expected[key]) == true, "\(key)")
        }
        let photos = try #require(section["photos"] as? [[String: Any]])
        let cliPhotos = try #require(expected["photos"] as? [[String: Any]])
        #expect(!photos.isEmpty)
        #expect(photos.map { $0["path"] as? String } == cliPhotos.map { $0["path"] as? String })
        for photo in photos {
            let path = try #require(photo["path"] as? String)
            #expect((photo["id"] as? NSNumber)?.int64Value == ids[path])
            #expect((photo["width"] as? Int ?? 0) > 0 && (photo["height"] as? Int ?? 0) > 0)
            #expect(photo["mediaType"] as? String == "photo")
        }
    }

    @Test("A section's photos come in pages (from, count); a photo's position is its section and item at both levels")
    func pagingAndPosition() async throws {
        let fixture = try await ServerFixture()
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let pages = try await get(app, [("/api/sections/fine/0", [:]), ("/api/sections/fine/0?from=1&count=2", [:]), ("/api/sections/fine/0?from=9999", [:]), ("/api/sections/fine/0?from=-1", [:])])
        let all = try #require((try pages[0].json() as? [String: Any])?["photos"] as? [[String: Any]])
        let page = try #require((try pages[1].json() as? [String: Any])?["photos"] as? [[String: Any]])
        #expect(all.count >= 3)
        #expect(page.map { $0["id"] as? Int } == all[1..<3].map { $0["id"] as? Int })
        #expect(((try pages[2].json() as? [String: Any])?["photos"] as? [Any])?.isEmpty == true)
        #expect(pages[3].status == .badRequest)

        let id = try #require(all[2]["id"] as? Int)
        let coarse = try #require((try await get(app, "/api/sections/coarse/0").json() as? [String: Any])?["photos"] as? [[String: Any]])
        let position = try #require(try await get(app, "/api/photos/\(id)/position").json() as? [String: Any])
        let fine = try #require(position["fine"] as? [String: Int])
        #expect(fine == ["section": 0, "item": 2])
        if let coarseItem = coarse.firstIndex(where: { $0["id"] as? Int == id }) {
            #expect(position["coarse"] as? [String: Int] == ["section": 0, "item": coarseItem])
        } else {
            #expect(position["coarse"] is NSNull, "not in the sample")
        }
        #expect(try await get(app, "/api/photos/999999/position").status == .notFound)
    }

    @Test("/api/zoom is `shoebox zoom --json` for the same question (compact instead of indented)", arguments: [
        "from=coarse&section=1&item=3&offset=120",
        "from=fine&section=2&item=1&offset=300&viewport=1440x900",
        "from=coarse&focalY=400&offset=50",
    ])
    func zoomMatchesTheCLI(query: String) async throws {
        let fixture = try await ServerFixture()
        var arguments = ["zoom", "--json", "--db", fixture.database]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            arguments += ["--\(["focalY": "focal-y"][parts[0]] ?? parts[0])", parts[1]]
        }
        let cli = try shoeboxOutput(arguments)
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/zoom?\(query)")
        #expect(response.status == .ok, "\(response.text)")
        // The same values: both re-serialised the same way are the same text.
        func canonical(_ data: Data) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data), options: .sortedKeys), as: UTF8.self)
        }
        #expect(!cli.isEmpty)
        #expect(try canonical(Data(response.bytes)) == canonical(cli))
        #expect(!response.text.contains("\n"), "compact")
    }

    @Test("/api/layout gives the grid for a viewport: columns, cell side, section tops and heights")
    func layout() async throws {
        let fixture = try await ServerFixture()
        let cases = [("coarse", "390x844", 10), ("fine", "1440x900", 4)]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()),
                                      cases.map { ("/api/layout?level=\($0.0)&viewport=\($0.1)", [:]) })
        for ((_, viewport, columns), response) in zip(cases, responses) {
            #expect(response.status == .ok)
            let layout = try #require(try response.json() as? [String: Any])
            #expect(layout["columns"] as? Int == columns)
            let width = Double(viewport.split(separator: "x")[0])!
            let spacing = layout["spacing"] as? Double ?? -1
            let side = try #require(layout["cellSide"] as? Double)
            #expect(abs(side - (width - Double(columns - 1) * spacing) / Double(columns)) < 1e-9)
            let sections = try #require(layout["sections"] as? [[String: Any]])
            #expect(!sections.isEmpty)
            var y = 0.0
            for section in sections {
                #expect(abs((section["y"] as? Double ?? -1) - y) < 1e-9)
                let rows = Double(((section["items"] as? Int ?? 0) + columns - 1) / columns)
                let expected = 50 + rows * side + max(0, rows - 1) * (layout["lineSpacing"] as? Double ?? 0)
                #expect(abs((section["height"] as? Double ?? -1) - expected) < 1e-9)
                y += expected
            }
            #expect(abs((layout["contentHeight"] as? Double ?? -1) - y) < 1e-6)
        }
    }

    @Test("/api/photos/{id} is the row of `photos --json` plus id, camera, file and pixel size")
    func photo() async throws {
        let fixture = try await ServerFixture()
        let cli = try #require(try JSONSerialization.jsonObject(with: shoeboxOutput(["photos", "--json", "--db", fixture.database])) as? [[String: Any]])
        let (id, path) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let expected = try #require(cli.first { $0["path"] as? String == path })
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/photos/\(id)")
        #expect(response.status == .ok)
        let photo = try #require(try response.json() as? [String: Any])
        for (key, value) in expected {
            #expect((photo[key] as? NSObject)?.isEqual(value) == true, "\(key)")
        }
        #expect((photo["id"] as? NSNumber)?.int64Value == id)
        #expect(photo["make"] as? String == "Shoebox")
        #expect((photo["fileSize"] as? Int ?? 0) > 0)
        #expect(photo["pixelWidth"] is Int && photo["orientation"] is Int)
        #expect(photo["mediaType"] as? String == "photo")
    }

    @Test("Bad ids, levels, sections, viewports and numbers get 400 or 404 with the JSON error")
    func badRequests() async throws {
        let fixture = try await ServerFixture(count: 30)
        let cases: [(String, Int)] = [
            ("/api/photos/999999", 404), ("/api/photos/abc", 400), ("/api/photos/-3", 400), ("/api/photos/999999/original", 404),
            ("/api/sections?level=sideways", 400), ("/api/sections", 400), ("/api/sections/coarse/9999", 404),
            ("/api/sections/sideways/0", 400), ("/api/sections/coarse/x", 400), ("/api/sections/coarse/-1", 400),
            ("/api/layout?level=fine&viewport=0x10", 400), ("/api/layout?level=fine&viewport=wide", 400), ("/api/layout", 400),
            ("/api/zoom?from=coarse&section=0&item=9999", 404), ("/api/zoom?from=coarse&section=0", 400),
            ("/api/zoom?from=coarse&section=0&item=0&offset=nan", 400), ("/api/zoom?from=up&section=0&item=0", 400),
            ("/api/zoom?from=coarse&section=0&item=0&focalY=10", 400), ("/api/nothing", 404),
        ]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), cases.map { ($0.0, [:]) })
        for ((uri, status), response) in zip(cases, responses) {
            #expect(response.status.code == status, "\(uri): \(response.text)")
            #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
            let error = (try? response.json() as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["code"] is String, "\(uri)")
            #expect((error?["message"] as? String)?.isEmpty == false, "\(uri)")
        }
    }
}
