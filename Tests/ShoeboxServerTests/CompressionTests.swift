import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PhotoFixtures
import PhotoLibrary
@testable import ShoeboxServer
import Spawn
import Synchronization
import Testing

@Suite("shoebox serve: gzip and answers encoded once")
struct CompressionTests {
    static let cachedPaths = [
        "/api/sections?level=coarse", "/api/sections?level=fine",
        "/api/layout?level=coarse&viewport=1440x900", "/api/layout?level=fine&viewport=390x844",
    ]

    @Test("With Accept-Encoding: gzip the answer is gzip that decompresses to exactly the plain answer", arguments: cachedPaths)
    func gzipIsThePlainAnswer(path: String) async throws {
        let fixture = try await ServerFixture(count: 120)
        let requests: [(uri: String, headers: HTTPFields)] = [(path, [:]), (path, [.acceptEncoding: "gzip, deflate, br"])]
        let responses = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), requests)
        let (plain, gzipped) = (responses[0], responses[1])
        #expect(plain.status == .ok && gzipped.status == .ok)
        #expect(plain.headers[.contentEncoding] == nil)
        #expect(plain.headers[.vary] == "Accept-Encoding")
        #expect(try plain.json() is [Any] || (try plain.json()) is [String: Any])
        #expect(gzipped.headers[.contentEncoding] == "gzip")
        #expect(gzipped.headers[.vary] == "Accept-Encoding")
        #expect(gzipped.headers[.contentType] == plain.headers[.contentType])
        #expect(gzipped.bytes.count < plain.bytes.count)
        #expect(gzipped.bytes.starts(with: [0x1F, 0x8B]), "a gzip member starts with its magic bytes")
        #expect(try gunzip(gzipped.bytes) == plain.bytes)
    }

    @Test("No gzip unless the request allows it", arguments: [
        (nil, false), ("identity", false), ("gzip;q=0", false), ("br, deflate", false), ("*;q=0", false),
        ("*, gzip;q=0", false), ("GZIP", true), ("x-gzip", true), ("*", true), ("deflate, gzip;q=0.5", true),
        ("gzip;q=0, *", false),
    ] as [(String?, Bool)])
    func onlyWhenAccepted(acceptEncoding: String?, gzip: Bool) async throws {
        let fixture = try await ServerFixture(count: 40)
        var headers: HTTPFields = [:]
        if let acceptEncoding { headers[.acceptEncoding] = acceptEncoding }
        let response = try await get(ShoeboxServer.makeApplication(settings: fixture.settings()), "/api/sections?level=fine", headers: headers)
        #expect(response.status == .ok)
        #expect((response.headers[.contentEncoding] == "gzip") == gzip)
        if !gzip { #expect(try response.json() is [Any]) }
    }

    @Test("An answer is encoded once per snapshot, however many ask for it at once")
    func encodedOnce() async throws {
        let fixture = try await ServerFixture(count: 20)
        let library = try PhotoLibrary(databasePath: fixture.database, configuration: fixture.settings().configuration)
        let loaded = try LibraryState(library: library).loaded
        let json = Data(#"{"answer":42}"#.utf8)
        let answers = try await withThrowingTaskGroup(of: CachedAnswer.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    try loaded.cached("key") {
                        Thread.sleep(forTimeInterval: 0.02)
                        return json
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 16)
        #expect(answers.allSatisfy { Array($0.plain.readableBytesView) == Array(json) })
        #expect(loaded.encodings.load(ordering: .relaxed) == 1)
        _ = try loaded.cached("other") { json }
        _ = try loaded.cached("key") { Data() }
        #expect(loaded.encodings.load(ordering: .relaxed) == 2)
    }
}

/// Decompresses with the system's `gzip`, a decoder independent of the server's zlib calls.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let folder = try TemporaryDirectory()
    let file = try folder.write("answer.gz", bytes)
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-dc", file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "gzip -d failed")
    return Array(data)
}
