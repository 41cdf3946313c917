import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import Spawn
import Testing

/// Several `shoebox` processes on one database, and backups aimed at the wrong place.
@Suite("shoebox: one database, several commands")
struct DatabaseSharingCLITests {
    /// Raw SQLite errors that must never reach a person.
    static let rawErrors = ["database is locked", "no such table", "already exists", "SQLite error", "malformed"]

    @Test("Two first `shoebox index` runs on a new database at once: one indexes, the other waits or says another run is writing; never a raw SQLite error",
          arguments: 0..<24)
    func concurrentFirstRuns(round: Int) throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 10, seed: UInt64(40 + round)).write(to: tree.path + "/photos")
        let database = tree.path + "/new/index.sqlite"
        let arguments = ["index", tree.path + "/photos", "--db", database]
        // Both started back to back from one thread, so that they meet while creating the tables.
        let processes = [ShoeboxProcess.start(arguments), ShoeboxProcess.start(arguments)]
        let errors = [Pipe(), Pipe()]
        let finished = DispatchGroup()
        for (process, pipe) in zip(processes, errors) {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = pipe
            finished.enter()
            process.terminationHandler = { _ in finished.leave() }
        }
        for process in processes { try process.run() }
        nonisolated(unsafe) var texts = ["", ""]
        let textsLock = NSLock()
        let drained = DispatchGroup()
        for (i, pipe) in errors.enumerated() {
            DispatchQueue.global().async(group: drained) {
                let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                textsLock.withLock { texts[i] = text }
            }
        }
        var failures: [String] = []
        if finished.wait(timeout: .now() + 90) == .timedOut {
            for process in processes where process.isRunning { kill(process.processIdentifier, SIGKILL) }
            finished.wait()
            failures.append("the runs did not finish within 90 s")
        }
        drained.wait()
        let runs = processes.indices.map {
            ShoeboxProcess.Output(status: processes[$0].terminationStatus, stdout: "", stderr: texts[$0])
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(runs.contains { $0.status == 0 }, "one run indexes: \(runs.map(\.stderr))")
        for run in runs {
            #expect(run.status == 0 || run.stderr.contains("Another `shoebox index` is already writing to"), "\(run.stderr)")
            for raw in Self.rawErrors { #expect(!run.stderr.contains(raw), "\(run.stderr)") }
        }
        #expect(try LibraryStore(path: database, mode: .readOnly).photoCount() == 10)
    }

    @Test("`backup` into a folder that does not exist names that folder and says what to do, not the database")
    func backupToMissingFolder() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 6, seed: 3).write(to: tree.path + "/photos")
        let database = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", tree.path + "/photos", "--db", database]).status == 0)

        let missing = tree.path + "/no/such/folder"
        let backup = try ShoeboxProcess.runWithDeadline(["backup", missing + "/copy.sqlite", "--db", database])
        #expect(backup.status != 0)
        #expect(backup.stderr.contains("the folder \(missing) does not exist"), "\(backup.stderr)")
        #expect(backup.stderr.contains("mkdir -p \(missing)"), "\(backup.stderr)")
        #expect(!backup.stderr.contains("index.sqlite"), "the database is not blamed: \(backup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("`backup` onto the database or its own -wal, -shm, -journal or -lock name is refused and changes nothing",
          arguments: ["", "-wal", "-shm", "-journal", "-lock"])
    func backupOntoTheDatabase(suffix: String) throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 6, seed: 4).write(to: tree.path + "/photos")
        let database = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", tree.path + "/photos", "--db", database]).status == 0)
        let target = database + suffix
        let existed = FileManager.default.fileExists(atPath: target)

        // Spelled through another path to the same folder, too.
        for spelling in [target, tree.path + "/photos/../index.sqlite" + suffix] {
            let backup = try ShoeboxProcess.runWithDeadline(["backup", spelling, "--db", database])
            #expect(backup.status != 0)
            #expect(backup.stderr.contains("Cannot back up to") && backup.stderr.contains("it is the database"), "\(backup.stderr)")
            #expect(backup.stderr.contains("give a new file"), "\(backup.stderr)")
        }
        // A reader (the backup's own connection to the database) may leave the -shm it made; never a copy.
        if !suffix.isEmpty {
            let head = FileManager.default.contents(atPath: target).map { Data($0.prefix(16)) }
            #expect(head != Data("SQLite format 3\0".utf8), "no copy was written under \(target)")
        }
        if suffix == "-journal" || suffix == "-lock" {
            #expect(FileManager.default.fileExists(atPath: target) == existed, "nothing was written under \(target)")
        }
        #expect(try LibraryStore(path: database, mode: .readOnly).photoCount() == 6)
        let queue = try DatabaseQueue(path: database, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        #expect(try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }
}
