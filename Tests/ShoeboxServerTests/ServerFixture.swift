import Foundation
import Hummingbird
import HummingbirdTesting
import LibraryIndex
import PhotoFixtures
import PhotoLibrary
import ShoeboxServer
import Spawn

/// A generated library indexed into a temporary database, and ways to ask the server about it.
/// Immutable after `init`; the temporary folder is removed with it.
final class ServerFixture: @unchecked Sendable {
    let tree: TemporaryDirectory
    let root: String
    let database: String

    init(count: Int = 120, seed: UInt64 = 17) async throws {
        tree = try TemporaryDirectory()
        root = tree.path + "/photos"
        try SampleLibrary(count: count, seed: seed).write(to: root)
        try tree.write("photos/broken/cut.jpg", Array(PhotoFixtures.jpeg(width: 8, height: 8).prefix(40)))
        database = tree.path + "/index.sqlite"
        try await index()
    }

    /// Runs an index to completion.
    func index() async throws {
        let store = try LibraryStore(path: database, mode: .readWrite)
        for try await _ in try Indexer(root: root, store: store).run() {}
    }

    func settings(token: String? = nil, host: String = "127.0.0.1", refresh: Duration = .seconds(1)) -> ServerSettings {
        ServerSettings(host: host, port: 0, token: token, databasePath: database, cacheDirectory: tree.path + "/cache", refreshInterval: refresh)
    }

    /// The id and relative path of every photo row.
    func rows() throws -> [(id: Int64, path: String)] {
        var rows: [(Int64, String)] = []
        try LibraryStore(path: database, mode: .readOnly).forEachPhoto { rows.append(($0.id!, $0.path.string)) }
        return rows
    }
}

extension TestResponse {
    /// The body as a JSON object or array.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes))
    }

    var bytes: [UInt8] { Array(body.readableBytesView) }

    var text: String { String(buffer: body) }
}

/// The built `shoebox` executable beside the test bundle in the build folder.
let shoeboxExecutable: String = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("shoebox").path) && folder.path != "/" {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("shoebox").path
}()

/// Runs the built `shoebox` executable and returns its standard output (for contract comparisons).
func shoeboxOutput(_ arguments: [String]) throws -> Data {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: shoeboxExecutable)
    process.arguments = arguments
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var environment = ProcessInfo.processInfo.environment
    environment["SHOEBOX_CONFIG"] = packageRoot.appendingPathComponent("config/shoebox.json").path
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}

/// GETs `requests` (a path and headers each) from `app` in router mode, in order.
func get(_ app: some ApplicationProtocol, _ requests: [(uri: String, headers: HTTPFields)]) async throws -> [TestResponse] {
    try await app.test(.router) { client in
        var responses: [TestResponse] = []
        for request in requests {
            responses.append(try await client.execute(uri: request.uri, method: .get, headers: request.headers))
        }
        return responses
    }
}

/// GETs one path from `app` in router mode.
func get(_ app: some ApplicationProtocol, _ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
    try await get(app, [(uri, headers)])[0]
}
