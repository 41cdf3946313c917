import Foundation
import GRDB
import PhotoFixtures
import Spawn
import Testing

/// `shoebox serve --watch` with other `shoebox` commands run beside it, as a user runs them.
@Suite("shoebox serve --watch beside other commands")
struct ServerBesideCommandsTests {
    /// `GET /api/library` through curl, as JSON; `nil` when the server does not answer.
    static func library(port: Int) -> [String: Any]? {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "2", "http://127.0.0.1:\(port)/api/library"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// Polls `/api/library` until `done` holds for its answer, for at most `seconds`; the last answer.
    @discardableResult
    static func waitForLibrary(port: Int, seconds: Double = 20, until done: ([String: Any]) -> Bool) -> [String: Any]? {
        let end = Date().addingTimeInterval(seconds)
        var last: [String: Any]?
        repeat {
            last = library(port: port)
            if let last, done(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < end
        return last
    }

    /// Runs `shoebox ARGUMENTS` to completion, killed past `seconds`; status and standard error.
    static func shoebox(_ arguments: [String], seconds: Double = 120) throws -> (status: Int32, stderr: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: shoeboxExecutable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        nonisolated(unsafe) var text = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { text = errors.fileHandleForReading.readDataToEndOfFile(); drained.signal() }
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            Issue.record("shoebox \(arguments.joined(separator: " ")) did not finish within \(seconds) s")
        }
        drained.wait()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    /// Stops the server with SIGTERM, then SIGKILL if it has not ended within 10 s.
    static func stop(_ server: ChildProcess) {
        guard server.isRunning else { return }
        server.terminate()
        let end = Date().addingTimeInterval(10)
        while server.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        if server.isRunning { kill(server.processIdentifier, SIGKILL) }
        server.waitUntilExit()
    }

    static func integrity(_ database: String) throws -> (check: String?, photos: Int?) {
        let queue = try DatabaseQueue(path: database, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM photo"))
        }
    }

    @Test("The server keeps SQLite's lock on its database from its start on: after a watch batch, and after photos, index and backup ran beside it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func serverKeepsItsLock() throws {
        let tree = try TemporaryDirectory()
        let files = SampleLibrary(count: 45, seed: 31).files()
        for file in files.prefix(15) { try tree.write("photos/" + file.path, file.bytes) }
        let database = tree.path + "/index.sqlite"
        let first = try Self.shoebox(["index", tree.path + "/photos", "--db", database])
        #expect(first.status == 0, "\(first.stderr)")

        let (server, port) = try LiveLibraryTests.startServer(database: database, log: tree.path + "/serve.log")
        defer { Self.stop(server) }
        let pid = server.processIdentifier
        // Whether the server holds a lock that another process's write lock would wait for:
        // SQLite's shared lock of an open WAL connection. Without it, another process closing its
        // last connection believes it is alone, checkpoints and deletes the `-wal` under the server.
        let probe = try LockProbe(path: database)
        func serverHoldsLock() throws -> Bool { try probe.holder() == pid }
        #expect(Self.waitForLibrary(port: port) { $0["photos"] as? Int == 15 } != nil)
        #expect(try serverHoldsLock(), "after start: \(probe.diagnostics(pid: pid))")

        // A watch batch.
        for file in files[15..<30] { try tree.write("photos/" + file.path, file.bytes) }
        let batch = Self.waitForLibrary(port: port) { $0["photos"] as? Int == 30 }
        #expect(batch?["photos"] as? Int == 30, "the watcher's batch is served")
        #expect(try serverHoldsLock(), "after a watch batch: \(probe.diagnostics(pid: pid))")

        // Other commands beside it, each closing its connections when it ends.
        let photos = try Self.shoebox(["photos", "--db", database])
        #expect(photos.status == 0, "\(photos.stderr)")
        #expect(try serverHoldsLock(), "after `shoebox photos`: \(probe.diagnostics(pid: pid))")

        for file in files[30..<45] { try tree.write("photos/" + file.path, file.bytes) }
        let index = try Self.shoebox(["index", tree.path + "/photos", "--db", database])
        #expect(index.status == 0 || index.stderr.contains("already writing"), "done, or refused while the watcher runs: \(index.stderr)")
        #expect(!index.stderr.contains("malformed") && !index.stderr.contains("database is locked"), "\(index.stderr)")
        #expect(try serverHoldsLock(), "after `shoebox index`: \(probe.diagnostics(pid: pid))")

        let backup = try Self.shoebox(["backup", tree.path + "/copy.sqlite", "--db", database])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try serverHoldsLock(), "after `shoebox backup`: \(probe.diagnostics(pid: pid))")

        // The server's answers are right, and so is the file.
        let served = Self.waitForLibrary(port: port) { $0["photos"] as? Int == 45 }
        #expect(served?["photos"] as? Int == 45)
        let (check, rows) = try Self.integrity(database)
        #expect(check == "ok" && rows == 45)
        #expect(try Self.integrity(tree.path + "/copy.sqlite").check == "ok")
        #expect(server.isRunning)
    }

    @Test("`shoebox relocate` while the server watches: the server serves the new folder and its watcher follows",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
    func relocateWhileServing() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 12, seed: 5).write(to: tree.path + "/photos")
        let database = tree.path + "/index.sqlite"
        let first = try Self.shoebox(["index", tree.path + "/photos", "--db", database])
        #expect(first.status == 0, "\(first.stderr)")
        let log = tree.path + "/serve.log"
        let (server, port) = try LiveLibraryTests.startServer(database: database, log: log)
        defer { Self.stop(server) }
        let before = try #require(Self.waitForLibrary(port: port) { $0["photos"] as? Int == 12 })
        let oldRoot = try #require(before["root"] as? String)

        try FileManager.default.moveItem(atPath: tree.path + "/photos", toPath: tree.path + "/moved")
        let relocate = try Self.shoebox(["relocate", tree.path + "/moved", "--db", database])
        #expect(relocate.status == 0, "\(relocate.stderr)")
        let newRoot = URL(fileURLWithPath: tree.path + "/moved").resolvingSymlinksInPath().path
        #expect(newRoot != oldRoot)

        let after = Self.waitForLibrary(port: port) { $0["root"] as? String == newRoot }
        #expect(after?["root"] as? String == newRoot, "the server serves the new folder")
        #expect(after?["photos"] as? Int == 12)
        let end = Date().addingTimeInterval(20)
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        while !logText().contains("watching it instead") && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        let text = logText()
        #expect(text.contains("The library moved to \(newRoot)") && text.contains("watching it instead of \(oldRoot)"), "\(text)")
        #expect(text.components(separatedBy: "watching it instead").count == 2, "said once: \(text)")

        // The watcher follows: a photo added to the new folder is indexed and served.
        let extra = SampleLibrary(count: 13, seed: 6).files()[12]
        try tree.write("moved/later/" + extra.path, extra.bytes)
        let grown = Self.waitForLibrary(port: port) { $0["photos"] as? Int == 13 }
        #expect(grown?["photos"] as? Int == 13, "a photo added to the new folder is watched: \(logText())")
        #expect(server.isRunning)
    }
}
