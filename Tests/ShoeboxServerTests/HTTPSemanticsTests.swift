import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoLibrary
import PhotoMetadata
@testable import ShoeboxServer
import Testing

@Suite("shoebox serve: HEAD, methods, ranges, hosts and content types")
struct HTTPSemanticsTests {
    @Test("Other methods are 405 with Allow and the JSON error", arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
    func otherMethods(method: HTTPRequest.Method) async throws {
        let fixture = try await ServerFixture(count: 5)
        let app = try ShoeboxServer.makeApplication(settings: fixture.settings())
        try await app.test(.router) { client in
            for uri in ["/api/library", "/api/photos/1/original", "/"] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == "GET, HEAD")
                let error = (try response.json() as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["code"] as? String == "methodNotAllowed")
            }
        }
    }

    @Test("A range past the end, even past 2^63, is 206 to the end; a start past 2^63 is 416")
    func rangePastTheEnd() async throws {
        let fixture = try await ServerFixture(count: 5)
        let (id, path) = try #require(try fixture.rows().first { !$0.path.hasPrefix("broken") })
        let size = try Data(contentsOf: URL(fileURLWithPath: fixture.root + "/" + path)).count
        let uri = "/api/photos/\(id)/original"
        let ranges = ["bytes=0-99999999999999999999999", "bytes=3-9223372036854775808", "bytes=-99999999999999999999",
                      "bytes=99999999999999999999-", "bytes=+1-5"]
        let requests: [(uri: String, headers: HTTPFields)] = ranges.map { (uri, [.range: $0]) }
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), requests)
        #expect(responses[0].status == .partialContent)
        #expect(responses[0].headers[.contentRange] == "bytes 0-\(size - 1)/\(size)")
        #expect(responses[1].headers[.contentRange] == "bytes 3-\(size - 1)/\(size)")
        #expect(responses[2].headers[.contentRange] == "bytes 0-\(size - 1)/\(size)")
        #expect(responses[3].status == .rangeNotSatisfiable)
        #expect(responses[4].status == .ok)  // not a byte range: the whole file
    }

    @Test("Videos and raws have their own content types")
    func contentTypes() {
        let expected: [ImageFormat: String] = [
            .mp4: "video/mp4", .mov: "video/quicktime", .avi: "video/x-msvideo", .mkv: "video/x-matroska", .mpegTS: "video/mp2t",
            .m2ts: "video/mp2t", .webm: "video/webm", .nef: "image/x-nikon-nef", .cr2: "image/x-canon-cr2", .arw: "image/x-sony-arw",
            .dng: "image/x-adobe-dng", .raf: "image/x-fuji-raf", .rw2: "image/x-panasonic-rw2", .orf: "image/x-olympus-orf",
            .jpeg: "image/jpeg",
        ]
        for (format, type) in expected { #expect(API.contentType(format) == type, "\(format)") }
        for format in ImageFormat.allCases { #expect(API.contentType(format) != "application/octet-stream", "\(format)") }
    }

    @Test("A ?token= that differs from the cookie replaces it")
    func tokenReplacesCookie() async throws {
        let fixture = try await ServerFixture(count: 5)
        let requests: [(uri: String, headers: HTTPFields)] = [
            ("/api/library?token=new", [.cookie: "shoebox_token=old"]), ("/api/library?token=new", [.cookie: "shoebox_token=new"]),
        ]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings(token: "new")), requests)
        #expect(responses[0].status == .ok)
        #expect(responses[0].headers[.setCookie]?.contains("shoebox_token=new") == true)
        #expect(responses[1].headers[.setCookie] == nil)
    }

    @Test("A section page is a cached answer: gzip for clients that accept it, the same bytes every time")
    func sectionPagesCached() async throws {
        let fixture = try await ServerFixture(count: 60)
        let uri = "/api/sections/fine/0?from=0&count=30"
        let requests: [(uri: String, headers: HTTPFields)] = [
            (uri, [:]), (uri, [:]), (uri, [.acceptEncoding: "gzip"]), ("/api/sections/fine/0?from=1&count=30", [:]),
        ]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), requests)
        #expect(responses.allSatisfy { $0.status == .ok })
        #expect(responses[0].bytes == responses[1].bytes)
        #expect(responses[2].headers[.contentEncoding] == "gzip")
        #expect(try gunzip(responses[2].bytes) == responses[0].bytes)
        #expect(responses[3].bytes != responses[0].bytes)
    }

    @Test("The page cache forgets the least recently used answers first, and keeps at most its limit")
    func pageCacheEvictsLeastRecentlyUsed() throws {
        let cache = AnswerCache(limit: 8, byteBudget: 1 << 20)
        var made = 0
        func ask(_ key: String) throws {
            _ = try cache.answer(key) {
                made += 1
                return Data("{\"k\":\"\(key)\"}".utf8)
            }
        }
        for i in 0..<8 { try ask("\(i)") }
        try ask("0")  // 0 is now the most recent
        #expect(made == 8)
        try ask("8")  // full: forgets the oldest (1), not 0
        #expect(cache.count <= 8)
        try ask("0")
        #expect(made == 9)
        try ask("1")
        #expect(made == 10)
        for i in 0..<1_000 { try ask("many \(i)") }
        #expect(cache.count <= 8)
        let small = AnswerCache(limit: 100, byteBudget: 10)
        for i in 0..<50 { _ = try small.answer("\(i)") { Data(repeating: 0x20, count: 100) } }
        #expect(small.count <= 2)
    }
}

