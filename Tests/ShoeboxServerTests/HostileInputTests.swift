import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ShoeboxServer
import Testing

/// Every number and name a request carries, replaced by hostile values: never a 5xx, never a
/// dead process, and every 4xx with the JSON error body.
@Suite("shoebox serve: hostile request values")
struct HostileInputTests {
    /// Values no parameter should trap on, percent-encoded as a client would send them.
    static let hostile: [String] = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1e309", "-1e309", "NaN", "nan", "Infinity", "-Infinity", "inf", "",
        "%00", String(repeating: "9", count: 5_000), "%C3%28%FF%FE", "0x10", "+5", "-0", "1e-400", "-1",
        "1e308x1e308", "0x0", "5x", "x5", "1x1", "100000x1", "1x100000", "100000x100000", "100001x5", "1e12", "-1e12", "4.9e-324", "%20", "1%2C2",
        // FTS5 syntax, for `q`: every word is quoted, so none of it is interpreted.
        "%22", "%22%22%22", "a%22b", "NEAR(a%20b)", "a*", "*", "a%20OR%20b", "-a", "%5Ea", "words:a", "(a", "a)", "NOT",
        "%27%3B%20DROP%20TABLE%20photo%3B--", String(repeating: "a%20", count: 300), "%F0%9F%98%80",
    ]

    /// Each route with the valid value of every parameter; `{name}` marks a path parameter.
    static let routes: [(path: String, query: [String: String])] = [
        ("/api/library", [:]),
        ("/api/sections", ["level": "coarse"]),
        ("/api/sections", ["level": "fine", "q": "2021"]),
        ("/api/sections/{level}/{index}", ["level": "coarse", "index": "0", "from": "1", "count": "5"]),
        ("/api/sections/{level}/{index}", ["level": "fine", "index": "0", "q": "2021"]),
        ("/api/layout", ["level": "fine", "viewport": "390x844"]),
        ("/api/layout", ["level": "coarse", "viewport": "390x844", "q": "2021"]),
        ("/api/zoom", ["from": "coarse", "section": "0", "item": "0", "offset": "0", "viewport": "390x844"]),
        ("/api/zoom", ["from": "coarse", "section": "0", "item": "0", "q": "2021"]),
        ("/api/search", ["q": "2021", "level": "fine", "limit": "10"]),
        ("/api/search", ["q": "country:PT region:\"\" city:Lisbon 2021"]),
        ("/api/places", [:]),
        ("/api/photos/{id}/position", ["id": "1", "q": "2021"]),
        ("/api/zoom", ["from": "fine", "focalY": "100", "focalX": "50", "offset": "10", "viewport": "390x844"]),
        ("/api/photos/{id}", ["id": "1"]),
        ("/api/photos/{id}/position", ["id": "1"]),
        ("/api/photos/{id}/original", ["id": "1"]),
        ("/api/photos/{id}/thumbnail", ["id": "1", "size": "thumbnail"]),
        ("/api/duplicates", ["tier": "similar", "offset": "0", "limit": "5"]),
        ("/api/photos/{id}/stack", ["id": "1"]),
        ("/api/places/names", ["q": "Lisb"]),
    ]

    static func uri(_ route: (path: String, query: [String: String]), replacing name: String?, with value: String) -> String {
        var path = route.path
        var query: [String] = []
        for (key, valid) in route.query.sorted(by: { $0.key < $1.key }) {
            let used = key == name ? value : valid
            if path.contains("{\(key)}") {
                path = path.replacingOccurrences(of: "{\(key)}", with: used)
            } else {
                query.append("\(key)=\(used)")
            }
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }

    @Test("Every parameter of every route, given each hostile value: 2xx or a JSON 4xx, never 5xx")
    func hostileValues() async throws {
        let fixture = try await ServerFixture(count: 30)
        var uris: [String] = []
        for route in Self.routes {
            uris.append(Self.uri(route, replacing: nil, with: ""))
            for name in route.query.keys.sorted() {
                for value in Self.hostile { uris.append(Self.uri(route, replacing: name, with: value)) }
            }
        }
        // The request of the issue, which trapped on `from + count`.
        uris.append("/api/sections/coarse/0?from=1&count=9223372036854775807")
        uris.append("/api/sections/coarse/0?from=9223372036854775807&count=1")
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        let responses = try await get(app, uris.map { ($0, [:]) })
        var served = 0
        for (uri, response) in zip(uris, responses) {
            let status = response.status.code
            #expect(status < 500, "\(uri): \(status) \(response.text.prefix(200))")
            if (200..<300).contains(status) { served += 1 }
            if (400..<500).contains(status) {
                #expect(response.headers[.contentType] == "application/json; charset=utf-8", "\(uri)")
                let error = (try? response.json() as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["code"] is String && error?["message"] is String, "\(uri): \(response.text.prefix(200))")
            }
        }
        // The valid requests themselves are answered.
        #expect(served > Self.routes.count)
        #expect(responses[uris.count - 2].status == .badRequest)
        #expect(responses[uris.count - 1].status == .badRequest)
    }

    @Test("Out-of-range numbers are 400 and name the parameter; only plain decimals are numbers (`-0` is, `+5` is not)", arguments: [
        ("/api/sections/coarse/-1", 400), ("/api/sections/coarse/9223372036854775807", 400),
        ("/api/zoom?from=coarse&section=-1&item=0", 400), ("/api/zoom?from=coarse&section=0&item=-1", 400),
        ("/api/zoom?from=coarse&section=0&item=0&offset=1e300", 400), ("/api/zoom?from=fine&focalY=1e300", 400),
        ("/api/zoom?from=fine&focalY=NaN", 400), ("/api/zoom?from=fine&focalY=0x10", 400),
        ("/api/layout?level=fine&viewport=1e308x1e308", 400), ("/api/layout?level=fine&viewport=0x10", 400),
        ("/api/sections/coarse/0?from=-1", 400), ("/api/sections/coarse/0?count=1e3", 400),
        ("/api/sections/coarse/0?from=0&count=-0", 200), ("/api/zoom?from=coarse&section=0&item=-0", 200),
        ("/api/sections/coarse/+0", 400), ("/api/sections/coarse/0?from=+1", 400), ("/api/zoom?from=coarse&section=+0&item=0", 400),
        ("/api/zoom?from=fine&focalY=1e-400", 400), ("/api/zoom?from=fine&focalY=0.000001", 200), ("/api/sections/coarse/9999999", 404),
        // One grammar for every number: what the issue found accepted.
        ("/api/zoom?from=coarse&section=0&item=0&focalX=abc", 400), ("/api/zoom?from=coarse&section=0&item=0&focalX=NaN", 400),
        ("/api/zoom?from=coarse&section=0&item=0&focalX=5", 400),  // a focal x without its y
        ("/api/zoom?from=coarse&section=0&item=+4", 400), ("/api/zoom?from=coarse&section=0&item=04", 400),
        ("/api/layout?level=fine&viewport=0390x0844", 400), ("/api/layout?level=fine&viewport=1e5x900", 400),
        ("/api/layout?level=fine&viewport=390X844", 400), ("/api/layout?level=fine&viewport=390x844", 200),
        ("/api/layout?level=fine&viewport=390.5x844.25", 200), ("/api/layout?level=fine&viewport=.5x844", 400),
        ("/api/layout?level=fine&viewport=390.x844", 400), ("/api/layout?level=fine&viewport=%20390x844", 400),
        ("/api/layout?packed=true&level=fine", 400), ("/api/layout?packed=1&level=fine", 200),
        ("/api/sections?level=coarse&bbox=%2010,35,15,44", 400), ("/api/sections?level=coarse&bbox=10,35,15,44", 200),
        ("/api/sections?level=coarse&bbox=+10,35,15,44", 400), ("/api/sections?level=coarse&bbox=10,35,15,4.4e1", 400),
        ("/api/zoom?from=fine&focalY=0.5&focalX=99999&offset=1000000000000&viewport=100000x1", 200),
        ("/api/zoom?from=fine&focalY=1000000&focalX=-1000000&offset=1000000000000&viewport=100000x1", 404),  // outside the viewport
        ("/api/zoom?from=fine&focalY=1000000&offset=-1000000000000&viewport=1x100000", 400),  // no room for a cell
        ("/api/zoom?from=coarse&section=0&item=1000000000&offset=-1000000000000&viewport=100000x1", 404),
    ])
    func ranges(uri: String, status: Int) async throws {
        let fixture = try await ServerFixture(count: 30)
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), uri)
        #expect(response.status.code == status, "\(uri): \(response.text)")
    }
}
