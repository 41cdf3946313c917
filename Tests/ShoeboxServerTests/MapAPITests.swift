import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import ShoeboxServer
import Testing

/// `/api/map`: clusters per cell, bad boxes refused with a sentence, and `bbox` scoping the
/// timeline routes the way `q` does.
@Suite("shoebox serve: map")
struct MapAPITests {
    @Test("/api/map counts every photo with a position, per cell, and says how many have none")
    func clusters() async throws {
        let fixture = try await SearchAPITests.Fixture()
        let app = try fixture.app()
        let world = try SearchAPITests.object(try await get(app, "/api/map?bbox=-180,-90,180,90&zoom=2"))
        let clusters = try #require(world["clusters"] as? [[String: Any]])
        #expect(clusters.compactMap { $0["count"] as? Int }.sorted() == [1, 14])  // São Paulo; Lisbon and Sintra
        #expect(world["total"] as? Int == 15 && world["located"] as? Int == 15 && world["unlocated"] as? Int == 1)
        #expect(clusters.allSatisfy { $0["photo"] is Int && $0["lat"] is Double && ($0["bbox"] as? [Double])?.count == 4 })

        // Closer: Lisbon and Sintra apart; a cluster's bbox scopes a timeline of exactly its photos.
        let near = try SearchAPITests.object(try await get(app, "/api/map?bbox=-9.5,38.6,-9.0,38.9&zoom=12"))
        let parts = try #require(near["clusters"] as? [[String: Any]])
        #expect(parts.compactMap { $0["count"] as? Int }.sorted() == [2, 12])
        for part in parts {
            let bbox = (part["bbox"] as? [Double] ?? []).map { "\($0)" }.joined(separator: ",")
            let found = try SearchAPITests.object(try await get(app, "/api/search?limit=100&bbox=\(bbox)"))
            #expect(found["total"] as? Int == part["count"] as? Int, "\(bbox)")
            for level in ["coarse", "fine"] {
                let sections = try SearchAPITests.array(try await get(app, "/api/sections?level=\(level)&bbox=\(bbox)"))
                #expect(sections.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == part["count"] as? Int, "\(level) \(bbox)")
            }
            let layout = try await get(app, "/api/layout?packed=1&level=fine&viewport=390x844&bbox=\(bbox)")
            #expect(layout.status == .ok)
        }
        // Without zoom: the finest at which the box touches at most 256 cells.
        let fallback = try SearchAPITests.object(try await get(app, "/api/map?bbox=-180,-90,180,90"))
        #expect(fallback["zoom"] as? Int == 4)
        // Across the antimeridian: nothing there, but an answer.
        let pacific = try SearchAPITests.object(try await get(app, "/api/map?bbox=170,-30,-170,30&zoom=6"))
        #expect(pacific["total"] as? Int == 0)
    }

    @Test("Reversed, out-of-range or non-numeric boxes and zooms get a 400 with a sentence", arguments: [
        ("bbox=10,50,5,40&zoom=3", "reversed"),
        ("bbox=-181,0,0,10&zoom=3", "-180 to 180"),
        ("bbox=0,-91,10,10&zoom=3", "-90 to 90"),
        ("bbox=a,b,c,d&zoom=3", "four decimal numbers"),
        ("bbox=1,2,3&zoom=3", "four decimal numbers"),
        ("bbox=NaN,0,1,1&zoom=3", "four decimal numbers"),
        ("bbox=0,0,1,1&zoom=x", "zoom must be a whole number"),
        ("bbox=0,0,1,1&zoom=21", "zoom must be a whole number"),
        ("bbox=0,0,1,1&zoom=-1", "zoom must be a whole number"),
        ("bbox=-180,-90,180,90&zoom=20", "at most 4096"),
        ("zoom=3", "Give bbox"),
    ])
    func badInput(query: String, words: String) async throws {
        let fixture = try await SearchAPITests.Fixture()
        let app = try fixture.app()
        let response = try await get(app, "/api/map?" + query)
        #expect(response.status == .badRequest, "\(query)")
        let error = try SearchAPITests.object(response)["error"] as? [String: Any]
        #expect((error?["message"] as? String)?.contains(words) == true, "\(query): \(response.text)")
        let timeline = try await get(app, "/api/sections?level=coarse&" + query.replacingOccurrences(of: "&zoom=", with: "&z="))
        #expect(timeline.status == (query.hasPrefix("bbox=0,0") || query.hasPrefix("bbox=-180") || query == "zoom=3" ? .ok : .badRequest), "\(query)")
    }
}
