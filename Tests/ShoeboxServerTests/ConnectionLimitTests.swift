import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoLibrary
import ShoeboxServer
import Testing

/// Raw connections to a live server: timeouts, the connection cap, what the HTTP parser refuses,
/// `Host` checks and HEAD as they look on the wire.
@Suite("shoebox serve: connections, timeouts and the wire")
struct ConnectionLimitTests {
    static func request(_ path: String, method: String = "GET", host: String = "localhost", close: Bool = true) -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n\(close ? "Connection: close\r\n" : "")\r\n"
    }

    @Test("A connection that sends nothing is closed after the idle timeout")
    func idleTimeout() async throws {
        let fixture = try await ServerFixture(count: 5)
        var settings = fixture.settings()
        settings.configuration.server.idleTimeout = 0.3
        try await ShoeboxServer.makeApplication(settings: settings).test(.live) { client in
            let connection = try RawConnection(port: try #require(client.port))
            let read = await connection.read(for: .seconds(10))
            #expect(read.closed)
            #expect(read.bytes.isEmpty)
        }
    }

    @Test("A request head that never ends is closed after the header timeout, however long the idle timeout")
    func headerTimeout() async throws {
        let fixture = try await ServerFixture(count: 5)
        var settings = fixture.settings()
        settings.configuration.server.headerTimeout = 0.3
        settings.configuration.server.idleTimeout = 600
        try await ShoeboxServer.makeApplication(settings: settings).test(.live) { client in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            connection.send("GET /api/library HTTP/1.1\r\nHost: loc")
            let read = await connection.read(for: .seconds(10))
            #expect(read.closed)
            // A whole request on a kept-alive connection is still answered, and the connection kept.
            let kept = try RawConnection(port: port)
            kept.send(Self.request("/api/library", close: false))
            #expect(await kept.readResponse(within: .seconds(10)).status == 200)
            kept.send(Self.request("/api/library", close: false))
            #expect(await kept.readResponse(within: .seconds(10)).status == 200)
        }
    }

    @Test("Beyond the connection cap a client gets a JSON 503 and the connection closes; a freed place is used again")
    func connectionCap() async throws {
        let fixture = try await ServerFixture(count: 5)
        var settings = fixture.settings()
        settings.configuration.server.maxConnections = 2
        try await ShoeboxServer.makeApplication(settings: settings).test(.live) { client in
            let port = try #require(client.port)
            // The test client may hold a connection of its own, so one or two raw ones fit.
            var held: [RawConnection] = []
            var refused: RawResponse?
            for _ in 0..<4 {
                let connection = try RawConnection(port: port)
                connection.send(Self.request("/api/library", close: false))
                let response = await connection.readResponse(within: .seconds(10))
                guard response.status == 200 else {
                    refused = response
                    break
                }
                held.append(connection)
            }
            #expect((1...2).contains(held.count))
            #expect(refused?.status == 503)
            #expect(refused?.errorCode == "tooManyConnections")
            // The test client's own connection may be accepted at any time, so free every raw one.
            held.removeAll()
            var status = 0
            let deadline = ContinuousClock.now + .seconds(10)
            while status != 200 && ContinuousClock.now < deadline {
                status = try await RawConnection.exchange(port: port, Self.request("/api/library")).status
                if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == 200)
        }
    }

    @Test("A connection beyond the cap that sends nothing is closed within a second, not held for the idle timeout")
    func silentConnectionBeyondTheCap() async throws {
        let fixture = try await ServerFixture(count: 5)
        var settings = fixture.settings()
        settings.configuration.server.maxConnections = 2
        settings.configuration.server.idleTimeout = 600
        try await ShoeboxServer.makeApplication(settings: settings).test(.live) { client in
            let port = try #require(client.port)
            // Two are served (one may be the test client's own), the others refused.
            let connections = try (0..<4).map { _ in try RawConnection(port: port) }
            let closed = await withTaskGroup(of: Bool.self) { group in
                for connection in connections {
                    group.addTask { await connection.read(for: .seconds(5)).closed }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect((2...3).contains(closed))
        }
    }

    @Test("What the HTTP parser refuses is a 400 with the JSON error body")
    func parserErrors() async throws {
        let fixture = try await ServerFixture(count: 5)
        try await ShoeboxServer.makeApplication(settings: fixture.settings()).test(.live) { client in
            let port = try #require(client.port)
            for garbage in ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n", "GET /\u{1} HTTP/1.1\r\n\r\n"] {
                let response = try await RawConnection.exchange(port: port, garbage)
                #expect(response.status == 400, "\(garbage.debugDescription)")
                #expect(response.headers["content-type"] == "application/json; charset=utf-8", "\(garbage.debugDescription)")
                #expect(response.errorCode == "malformedRequest", "\(garbage.debugDescription): \(response.body)")
            }
        }
    }

    @Test("Only this server's names are accepted as Host (421 otherwise); cross-site API requests are 403")
    func hosts() async throws {
        let fixture = try await ServerFixture(count: 5)
        var settings = fixture.settings()
        settings.configuration.server.hostNames = ["photos.lan"]
        let accepted = ["localhost", "localhost:8080", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080", "LOCALHOST", "photos.lan", "photos.lan:80"]
        let refused = ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil", "[::2]", "photos.lan.evil", "localhost:80:80"]
        try await ShoeboxServer.makeApplication(settings: settings).test(.live) { client in
            let port = try #require(client.port)
            for host in accepted {
                #expect(try await RawConnection.exchange(port: port, Self.request("/api/library", host: host)).status == 200, "\(host)")
            }
            for host in refused {
                for path in ["/api/library", "/"] {
                    let response = try await RawConnection.exchange(port: port, Self.request(path, host: host))
                    #expect(response.status == 421, "\(host) \(path)")
                    #expect(response.errorCode == "misdirectedRequest", "\(host) \(path)")
                }
            }
            let crossSite = try await RawConnection.exchange(
                port: port, "GET /api/library HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: cross-site\r\nConnection: close\r\n\r\n")
            #expect(crossSite.status == 403)
            #expect(crossSite.errorCode == "crossSite")
            let sameOrigin = try await RawConnection.exchange(
                port: port, "GET /api/library HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nConnection: close\r\n\r\n")
            #expect(sameOrigin.status == 200)
        }
    }

    @Test("HEAD on every GET route: the GET's status, type and Content-Length, no body")
    func head() async throws {
        let fixture = try await ServerFixture(count: 10)
        let (id, _) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let paths = ["/api/library", "/api/sections?level=coarse", "/api/sections/coarse/0", "/api/layout?level=fine",
                     "/api/zoom?from=coarse&section=0&item=0", "/api/photos/\(id)", "/api/photos/\(id)/position",
                     "/api/photos/\(id)/original", "/api/photos/\(id)/thumbnail", "/api/photos/999999", "/api/sections/coarse/-1", "/"]
        try await ShoeboxServer.makeApplication(settings: fixture.settings()).test(.live) { client in
            let port = try #require(client.port)
            for path in paths {
                let get = try await RawConnection.exchange(port: port, Self.request(path))
                let head = try await RawConnection.exchange(port: port, Self.request(path, method: "HEAD"))
                #expect(head.status == get.status, "\(path)")
                #expect(head.status != 404 || path.hasSuffix("999999"), "\(path)")
                #expect(head.bodyBytes.isEmpty, "\(path)")
                #expect(head.headers["content-type"] == get.headers["content-type"], "\(path)")
                #expect(head.headers["content-length"] == String(get.bodyBytes.count), "\(path)")
            }
        }
    }
}
