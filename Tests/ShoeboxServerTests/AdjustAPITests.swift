import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import Places
import ShoeboxServer
import Testing

/// `POST /api/adjust` and `/api/adjust/undo`: dry run, apply, undo, bad values naming their field,
/// and every refusal (read-only, cross-site, not JSON, other methods, the token); a page of the
/// server itself (its own Origin) is accepted: the browser test `test_adjust.py` posts as one.
@Suite("shoebox serve: corrections")
struct AdjustAPITests {
    /// Two photos of one morning in a folder and one elsewhere, indexed.
    struct Library {
        let tree: TemporaryDirectory
        let database: String
        var photos: String { tree.path + "/photos" }

        init() async throws {
            tree = try TemporaryDirectory()
            try tree.write("photos/trip/a.jpg", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:06:02 09:30:00")))
            try tree.write("photos/trip/b.jpg", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:06:02 23:10:05")))
            try tree.write("photos/home.jpg", PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2024:07:01 12:00:00")))
            database = try await SearchAPITests.Fixture.index(tree, places: PlaceTable(entries: []))
        }

        func app(readOnly: Bool = false, token: String? = nil) throws -> some ApplicationProtocol {
            try ShoeboxServer.makeApplication(settings: ServerSettings(
                host: "127.0.0.1", port: 0, token: token, databasePath: database, cacheDirectory: tree.path + "/cache",
                refreshInterval: .seconds(1), readOnly: readOnly))
        }

        /// The files under the photo folder, sorted, with their bytes.
        func files() throws -> [String: Data] {
            var out: [String: Data] = [:]
            let enumerator = FileManager.default.enumerator(atPath: photos)
            while let name = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                FileManager.default.fileExists(atPath: photos + "/" + name, isDirectory: &isFolder)
                if !isFolder.boolValue { out[name] = FileManager.default.contents(atPath: photos + "/" + name) }
            }
            return out
        }
    }

    struct Exchange {
        var method: HTTPRequest.Method = .post
        var uri: String
        var body: String? = nil
        var headers: HTTPFields = [.contentType: "application/json"]
    }

    /// Sends `exchanges` in order to one running `app` (router mode).
    static func send(_ app: some ApplicationProtocol, _ exchanges: [Exchange]) async throws -> [TestResponse] {
        try await app.test(.router) { client in
            var responses: [TestResponse] = []
            for exchange in exchanges {
                responses.append(try await client.execute(
                    uri: exchange.uri, method: exchange.method, headers: exchange.headers,
                    body: exchange.body.map { ByteBuffer(string: $0) }))
            }
            return responses
        }
    }

    static func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any], "\(response.text)")
    }

    /// The photo ids by path.
    static func ids(_ app: some ApplicationProtocol) async throws -> [String: Int] {
        let day = try await send(app, [Exchange(method: .get, uri: "/api/search?q=trip", headers: [:])])[0]
        let photos = try #require(try object(day)["photos"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0["id"] as! Int) })
    }

    @Test("a dry run writes nothing; apply writes the sidecars and moves the photos at once; undo puts every byte back")
    func dryRunApplyUndo() async throws {
        let library = try await Library()
        let app = try library.app()
        let ids = try await Self.ids(app)
        let a = try #require(ids["trip/a.jpg"]), b = try #require(ids["trip/b.jpg"])
        let before = try library.files()

        let dry = try await Self.send(app, [Exchange(uri: "/api/adjust", body: #"{"ids": [\#(a), \#(b)], "shift": "+1h", "dryRun": true}"#)])[0]
        #expect(dry.status == .ok, "\(dry.text)")
        let planned = try Self.object(dry)
        #expect(planned["batch"] is NSNull)
        let rows = try #require(planned["photos"] as? [[String: Any]])
        #expect(rows.map { $0["path"] as? String } == ["trip/a.jpg", "trip/b.jpg"])
        #expect((rows[1]["before"] as? [String: Any])?["captured"] as? String == "2024-06-02T23:10:05")
        #expect((rows[1]["after"] as? [String: Any])?["captured"] as? String == "2024-06-03T00:10:05")
        #expect(try library.files() == before, "a dry run wrote")

        let answers = try await Self.send(app, [
            Exchange(uri: "/api/adjust", body: #"{"ids": [\#(a), \#(b)], "shift": "+1h"}"#),
            Exchange(method: .get, uri: "/api/photos/\(b)", headers: [:]),
        ])
        #expect(answers[0].status == .ok, "\(answers[0].text)")
        let batch = try #require(try Self.object(answers[0])["batch"] as? Int)
        let written = try library.files()
        #expect(written["trip/a.jpg.xmp"] != nil && written["trip/b.jpg.xmp"] != nil, "\(written.keys.sorted())")
        #expect(written["trip/a.jpg"] == before["trip/a.jpg"], "a photo was written")
        let moved = try Self.object(answers[1])
        #expect(moved["captured"] as? String == "2024-06-03T00:10:05")
        #expect(moved["dateSource"] as? String == "xmpSidecar")

        let undone = try await Self.send(app, [
            Exchange(uri: "/api/adjust/undo", body: #"{"batch": \#(batch)}"#),
            Exchange(method: .get, uri: "/api/photos/\(b)", headers: [:]),
        ])
        #expect(undone[0].status == .ok, "\(undone[0].text)")
        let left = try library.files()
        #expect(left == before, "undo left \(left.keys.sorted())")
        #expect(try Self.object(undone[1])["captured"] as? String == "2024-06-02T23:10:05")
        // A second undo of the same batch is refused, naming the field.
        let again = try await Self.send(app, [Exchange(uri: "/api/adjust/undo", body: #"{"batch": \#(batch)}"#)])[0]
        #expect(again.status == .badRequest)
        #expect((try Self.object(again)["error"] as? [String: Any])?["field"] as? String == "batch")
    }

    @Test("a bad value is a 400 naming its field, and nothing is written", arguments: [
        (#""shift": "soon""#, "shift"), (#""shift": "+99999999999d""#, "shift"), (#""setDate": "2019-02-30T12:00:00""#, "setDate"),
        (#""timeZone": "Mars/Olympus""#, "timeZone"), (#""position": "91,0""#, "position"), (#""position": [0, "x"]"#, "position"),
        (#""place": "  ""#, "place"), (#""shift": 5"#, "shift"), (#""keepInstant": "yes", "timeZone": "+02:00""#, "keepInstant"),
        (#""color": "red", "shift": "+1h""#, "color"), (#""dryRun": 1, "shift": "+1h""#, "dryRun"),
    ])
    func badValues(field: String, named: String) async throws {
        let library = try await Library()
        let app = try library.app()
        let ids = try await Self.ids(app)
        let before = try library.files()
        let answer = try await Self.send(app, [Exchange(uri: "/api/adjust", body: #"{"ids": [\#(ids["trip/a.jpg"]!)], \#(field)}"#)])[0]
        #expect(answer.status == .badRequest, "\(field): \(answer.text)")
        #expect((try Self.object(answer)["error"] as? [String: Any])?["field"] as? String == named, "\(field): \(answer.text)")
        #expect(try library.files() == before)
    }

    @Test("ids must name photos: none, a string or an unknown id is a 400 naming ids")
    func badIDs() async throws {
        let library = try await Library()
        let app = try library.app()
        for body in [#"{"shift": "+1h"}"#, #"{"ids": [], "shift": "+1h"}"#, #"{"ids": "1", "shift": "+1h"}"#, #"{"ids": [999999], "shift": "+1h"}"#] {
            let answer = try await Self.send(app, [Exchange(uri: "/api/adjust", body: body)])[0]
            #expect(answer.status == .badRequest, "\(body): \(answer.text)")
            #expect((try Self.object(answer)["error"] as? [String: Any])?["field"] as? String == "ids", "\(body): \(answer.text)")
        }
        let notJSON = try await Self.send(app, [Exchange(uri: "/api/adjust", body: "ids=1&shift=%2B1h")])[0]
        #expect(notJSON.status == .badRequest)
    }

    @Test("/api/places/names suggests places of the whole places table by the start of their name; no q is a 400 naming q")
    func placeNames() async throws {
        let library = try await Library()
        let app = try library.app()
        let answers = try await Self.send(app, [
            Exchange(method: .get, uri: "/api/places/names?q=lisb", headers: [:]),
            Exchange(method: .get, uri: "/api/places/names?q=Lisbon,%20Maine", headers: [:]),
            Exchange(method: .get, uri: "/api/places/names", headers: [:]),
            Exchange(method: .get, uri: "/api/places/names?q=%20", headers: [:]),
        ])
        #expect(answers[0].status == .ok && answers[1].status == .ok, "\(answers[0].text)")
        let labels = try #require(try Self.object(answers[0])["places"] as? [[String: Any]]).compactMap { $0["label"] as? String }
        let narrowed = try #require(try Self.object(answers[1])["places"] as? [[String: Any]]).compactMap { $0["label"] as? String }
        // The server's table is the machine's (scripts/places-data): GeoNames when installed.
        if LazyPlaceTable.installed(onFailure: { _ in }).table != nil {
            #expect(labels.first == "Lisbon, Lisbon, Portugal" && labels.count == 10, "\(labels)")
            #expect(narrowed.first == "Lisbon, Maine, United States", "\(narrowed)")
        } else {
            #expect(labels.isEmpty && narrowed.isEmpty)
        }
        for answer in answers[2...] {
            #expect(answer.status == .badRequest, "\(answer.text)")
            #expect((try Self.object(answer)["error"] as? [String: Any])?["field"] as? String == "q", "\(answer.text)")
        }
    }

    @Test("refused: read-only, cross-site, another origin, not JSON, GET, and without the token")
    func refusals() async throws {
        let library = try await Library()
        let before = try library.files()
        let ids = try await Self.ids(try library.app())
        let body = #"{"ids": [\#(ids["trip/a.jpg"]!)], "shift": "+1h"}"#
        let origin = HTTPField.Name("Origin")!
        let readOnly = try library.app(readOnly: true)
        let refusedReadOnly = try await Self.send(readOnly, [
            Exchange(uri: "/api/adjust", body: body), Exchange(uri: "/api/adjust/undo", body: "{}"),
            Exchange(method: .get, uri: "/api/library", headers: [:]),
        ])
        #expect(refusedReadOnly[0].status == .forbidden && refusedReadOnly[1].status == .forbidden)
        #expect(try Self.object(refusedReadOnly[2])["readOnly"] as? Bool == true)

        let app = try library.app()
        let refused = try await Self.send(app, [
            Exchange(uri: "/api/adjust", body: body, headers: [.contentType: "application/json", HTTPField.Name("Sec-Fetch-Site")!: "cross-site"]),
            Exchange(uri: "/api/adjust", body: body, headers: [.contentType: "application/json", origin: "http://evil.example"]),
            Exchange(uri: "/api/adjust", body: body, headers: [.contentType: "application/json", origin: "null"]),
            Exchange(uri: "/api/adjust", body: body, headers: [.contentType: "text/plain"]),
            Exchange(uri: "/api/adjust", body: body, headers: [.contentType: "application/x-www-form-urlencoded"]),
            Exchange(method: .get, uri: "/api/adjust", headers: [:]),
            Exchange(method: .put, uri: "/api/adjust", body: body),
            Exchange(uri: "/api/sections", body: body),
            Exchange(method: .get, uri: "/api/library", headers: [:]),
        ])
        #expect(refused.map(\.status.code) == [403, 403, 403, 415, 415, 405, 405, 405, 200], "\(refused.map(\.text))")
        #expect(try Self.object(refused[8])["readOnly"] as? Bool == false)
        let tokened = try library.app(token: "s3cret")
        let noToken = try await Self.send(tokened, [Exchange(uri: "/api/adjust", body: body)])[0]
        #expect(noToken.status == .unauthorized || noToken.status == .forbidden, "\(noToken.status)")
        #expect(try library.files() == before, "a refused request wrote")

    }
}
