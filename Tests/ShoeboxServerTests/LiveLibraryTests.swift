import Foundation
import GRDB
import PhotoFixtures
import Spawn
import Testing

/// `shoebox serve --watch` run as a user runs it, with its events read by curl.
@Suite("shoebox serve --watch: a live library")
struct LiveLibraryTests {
    static var shoebox: String { shoeboxExecutable }

    /// Starts `shoebox serve --watch --port 0` (without `--watch` when `watch` is false) and
    /// returns it with the port it printed.
    static func startServer(database: String, log: String, watch: Bool = true, environment: [String: String] = [:]) throws -> (ChildProcess, Int) {
        let server = ChildProcess()
        server.executableURL = URL(fileURLWithPath: Self.shoebox)
        server.arguments = ["serve"] + (watch ? ["--watch"] : []) + ["--db", database, "--port", "0"]
        server.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        server.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
               let port = Int(text[range].dropFirst(10).dropLast()) {
                return (server, port)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.terminate()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the server did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"])
    }

    func photoCount(port: Int) -> Int? {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "2", "http://127.0.0.1:\(port)/api/library"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try? process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["photos"] as? Int
    }

    @Test("Photos copied in while the server watches are served, and open event streams hear library-changed; an index run from another process is noticed",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func copiedPhotosAppear() throws {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: 80, seed: 12)
        let files = library.files()
        for file in files.prefix(20) { try tree.write("photos/" + file.path, file.bytes) }
        let database = tree.path + "/index.sqlite"
        let first = ChildProcess()
        first.executableURL = URL(fileURLWithPath: Self.shoebox)
        first.arguments = ["index", tree.path + "/photos", "--db", database]
        first.standardOutput = FileHandle.nullDevice
        try first.run()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)

        let (server, port) = try Self.startServer(database: database, log: tree.path + "/serve.log")
        defer { server.terminate(); server.waitUntilExit() }
        // The event stream, read by curl into a file until the test ends it.
        let eventLog = tree.path + "/events.txt"
        _ = FileManager.default.createFile(atPath: eventLog, contents: nil)
        let events = ChildProcess()
        events.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        events.arguments = ["-sN", "--max-time", "120", "http://127.0.0.1:\(port)/api/events"]
        events.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: eventLog))
        try events.run()
        defer { events.terminate() }
        func eventText() -> String { (try? String(contentsOfFile: eventLog, encoding: .utf8)) ?? "" }
        let connected = ContinuousClock.now + .seconds(20)
        while !eventText().contains("shoebox events") && ContinuousClock.now < connected { Thread.sleep(forTimeInterval: 0.05) }
        #expect(eventText().contains("shoebox events"), "the event stream is open before photos arrive")

        // A card import: 40 photos in two bursts.
        for file in files[20..<60] { try tree.write("photos/" + file.path, file.bytes) }
        let deadline = ContinuousClock.now + .seconds(8)
        var served = 0
        while served != 60 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            served = photoCount(port: port) ?? 0
        }
        #expect(served == 60)

        // `shoebox index` from another process while the server watches: the lock keeps them apart,
        // and the server notices the other run's result.
        for file in files[60..<80] { try tree.write("photos/" + file.path, file.bytes) }
        let other = ChildProcess()
        other.executableURL = URL(fileURLWithPath: Self.shoebox)
        other.arguments = ["index", tree.path + "/photos", "--db", database]
        other.standardOutput = FileHandle.nullDevice
        other.standardError = FileHandle.nullDevice
        try other.run()
        other.waitUntilExit()
        #expect([0, 1].contains(other.terminationStatus), "done, or refused because the watcher held the lock")
        let later = ContinuousClock.now + .seconds(8)
        while served != 80 && ContinuousClock.now < later {
            Thread.sleep(forTimeInterval: 0.1)
            served = photoCount(port: port) ?? 0
        }
        #expect(served == 80)

        let heard = ContinuousClock.now + .seconds(10)
        while !eventText().contains("event: library-changed") && ContinuousClock.now < heard { Thread.sleep(forTimeInterval: 0.05) }
        let text = eventText()
        #expect(text.contains("event: library-changed"), "\(text.prefix(500))")
        #expect(text.contains("event: index-progress"))

        let queue = try DatabaseQueue(path: database, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let (integrity, rows, persistedRun, lastRun) = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM photo"),
             try Int64.fetchOne(db, sql: "SELECT runID FROM timelineState"), try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun"))
        }
        #expect(integrity == "ok" && rows == 80)
        // The watcher's runs, like `shoebox index`, leave section tables that `sections` can answer from.
        #expect(persistedRun != nil && persistedRun == lastRun, "section tables of run \(String(describing: persistedRun)), last run \(String(describing: lastRun))")
    }
}
