import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import ShoeboxServer
import Testing

@Suite("shoebox serve: originals, ranges, tokens and escapes")
struct SecurityTests {
    @Test("An original is served whole or by range (start-end, start-, suffix); past the end is 416")
    func originalsAndRanges() async throws {
        let fixture = try await ServerFixture(count: 10)
        let (id, path) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/" + path)))
        let size = bytes.count
        let uri = "/api/photos/\(id)/original"
        let satisfiable = [("bytes=0-9", 0, 9), ("bytes=10-", 10, size - 1), ("bytes=-5", size - 5, size - 1),
                           ("bytes=4-999999", 4, size - 1), ("bytes=-999999", 0, size - 1)]
        let unsatisfiable = ["bytes=\(size)-", "bytes=\(size + 10)-\(size + 20)", "bytes=-0"]
        let requests: [(uri: String, headers: HTTPFields)] = [(uri, HTTPFields())] + satisfiable.map { (uri, [.range: $0.0]) } + unsatisfiable.map { (uri, [.range: $0]) }
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), requests)

        let whole = responses[0]
        #expect(whole.status == .ok)
        #expect(whole.headers[.contentType] == "image/jpeg")
        #expect(whole.headers[.acceptRanges] == "bytes")
        #expect(whole.bytes == bytes)
        for ((range, lower, upper), response) in zip(satisfiable, responses.dropFirst()) {
            #expect(response.status == .partialContent, "\(range)")
            #expect(response.headers[.contentRange] == "bytes \(lower)-\(upper)/\(size)", "\(range)")
            #expect(response.bytes == Array(bytes[lower...upper]), "\(range)")
        }
        for (range, response) in zip(unsatisfiable, responses.suffix(unsatisfiable.count)) {
            #expect(response.status == .rangeNotSatisfiable, "\(range)")
        }
    }

    @Test("A symbolic link swapped in after indexing never leaks a file outside the root")
    func symlinkEscape() async throws {
        let fixture = try await ServerFixture(count: 80)
        let rows = try fixture.rows().filter { !$0.path.hasPrefix("broken") }
        // A file replaced by a link to /etc/passwd, and a folder replaced by a link to a folder outside.
        let file = rows[0]
        try FileManager.default.removeItem(atPath: fixture.root + "/" + file.path)
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/" + file.path, withDestinationPath: "/etc/passwd")
        let other = try #require(rows.first { ($0.path as NSString).deletingLastPathComponent != (file.path as NSString).deletingLastPathComponent })
        let folder = fixture.root + "/" + (other.path as NSString).deletingLastPathComponent
        try FileManager.default.moveItem(atPath: folder, toPath: fixture.tree.path + "/moved-away")
        try FileManager.default.createDirectory(atPath: fixture.tree.path + "/outside", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: fixture.tree.path + "/outside/" + (other.path as NSString).lastPathComponent))
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: fixture.tree.path + "/outside")

        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()),
                                      [file.id, other.id].map { ("/api/photos/\($0)/original", [:]) })
        for response in responses {
            #expect(response.status == .notFound)
            #expect(!response.text.contains("root:") && !response.text.contains("secret"))
        }
    }

    @Test("With a token every request needs it: header, query (which sets a cookie) or cookie; without, 401")
    func token() async throws {
        let fixture = try await ServerFixture(count: 10)
        let refused: [(uri: String, headers: HTTPFields)] = [
            ("/api/library", [:]), ("/", [:]), ("/api/photos/1/original", [:]), ("/api/library?token=wrong", [:]),
            ("/api/library", [.authorization: "Bearer wrong"]), ("/api/library", [.cookie: "shoebox_token=nope"]),
        ]
        let accepted: [(uri: String, headers: HTTPFields)] = [
            ("/api/library", [.authorization: "Bearer s3cret"]), ("/api/library?token=s3cret", [:]),
            ("/api/library", [.cookie: "shoebox_token=s3cret"]),
        ]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings(token: "s3cret")), refused + accepted)
        for (request, response) in zip(refused, responses) {
            #expect(response.status == .unauthorized, "\(request.uri) \(request.headers)")
            #expect(response.text.contains("unauthorized"))
        }
        for (request, response) in zip(accepted, responses.suffix(accepted.count)) {
            #expect(response.status == .ok, "\(request.uri) \(request.headers)")
        }
        #expect(responses[refused.count + 1].headers[HTTPField.Name.setCookie]?.contains("shoebox_token=s3cret") == true)
    }

    @Test("Any host but loopback refuses to start without a token")
    func exposedHostNeedsToken() async throws {
        let fixture = try await ServerFixture(count: 5)
        #expect(throws: LibraryError.self) { try ShoeboxServer.makeApplication(settings: fixture.settings(host: "0.0.0.0")) }
        _ = try ShoeboxServer.makeApplication(settings: fixture.settings(token: "t", host: "0.0.0.0"))
        _ = try ShoeboxServer.makeApplication(settings: fixture.settings(host: "127.0.0.1"))
    }

    @Test("A finished index run is served without a restart")
    func refreshAfterRun() async throws {
        let fixture = try await ServerFixture(count: 20)
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings(refresh: .milliseconds(50)))
        try await app.test(.live) { client in
            let response = try await client.execute(uri: "/api/library", method: .get)
            #expect((try response.json() as? [String: Any])?["photos"] as? Int == 21)
            try fixture.tree.write("photos/new/extra.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
            try await fixture.index()
            let deadline = ContinuousClock.now + .seconds(10)
            var photos = 0
            while photos != 22 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                let response = try await client.execute(uri: "/api/library", method: .get)
                photos = (try response.json() as? [String: Any])?["photos"] as? Int ?? 0
            }
            #expect(photos == 22)
        }
    }
}
