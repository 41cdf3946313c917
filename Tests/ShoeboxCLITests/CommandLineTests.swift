import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import Spawn
import Testing

@Suite("shoebox index and photos")
struct CommandLineTests {
    @Test("`photos --json` has exactly the contract's field names, with explicit nulls")
    func photosJSON() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 40, height: 30, exif: ExifFields(dateTimeOriginal: "2021:03:04 05:06:07", subSecTimeOriginal: "25", offsetTimeOriginal: "+02:00", orientation: 6)))
        try tree.write("photos/b.jpg", Array(PhotoFixtures.jpeg(width: 8, height: 8).prefix(6)))
        let db = tree.path + "/index.sqlite"
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(indexed.stdout.contains("1 added") || indexed.stdout.contains("2 added"))
        #expect(indexed.stderr.isEmpty, "no progress bar when stderr is not a terminal")

        let listed = try ShoeboxProcess.run(["photos", "--db", db, "--json"])
        #expect(listed.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        for row in rows {
            #expect(Set(row.keys) == ["path", "captured", "offset", "dateSource", "width", "height", "format", "error", "mediaType", "duration", "missing", "latitude", "longitude", "offsetSource", "place", "stack", "duplicateOf"])
        }
        let a = try #require(rows.first { $0["path"] as? String == "a.jpg" })
        #expect(a["captured"] as? String == "2021-03-04T05:06:07.250")
        #expect(a["offset"] as? String == "+02:00")
        #expect(a["dateSource"] as? String == "DateTimeOriginal")
        #expect(a["width"] as? Int == 30)
        #expect(a["height"] as? Int == 40)
        #expect(a["format"] as? String == "jpeg")
        #expect(a["error"] is NSNull)
        #expect(a["mediaType"] as? String == "photo")
        #expect(a["duration"] is NSNull)
        let b = try #require(rows.first { $0["path"] as? String == "b.jpg" })
        #expect(b["error"] is String)
        #expect(b["dateSource"] as? String == "fileModified")
        #expect(b["width"] is NSNull)

        let table = try ShoeboxProcess.run(["photos", "--db", db])
        #expect(table.stdout.contains("2021-03-04 05:06:07 +02:00"))
        #expect(table.stdout.contains("30×40"))
    }

    @Test("Bad arguments get one clear sentence, a non-zero exit, and no damage", arguments: [
        (["index"], "Missing expected argument"),
        (["index", "/nonexistent/folder"], "There is no folder at"),
        (["index", "/etc/hostname"], "is a file, not a folder"),
        (["index", ".", "--jobs", "0"], "--jobs takes 1 to 256"),
        (["index", ".", "--db", "/etc/hostname/library.sqlite"], "Cannot"),
        (["photos", "--db", "/nonexistent/index.sqlite"], "There is no index at"),
        (["sections", "--level", "sideways"], "Please provide one of 'years', 'coarse' or 'fine'"),
        (["sections", "--day-start", "25"], "--day-start takes an hour from 0 to 23"),
        (["sections", "--span-days", "0"], "--span-days must be at least 1"),
    ])
    func badArguments(arguments: [String], message: String) throws {
        let output = try ShoeboxProcess.run(arguments)
        #expect(output.status != 0)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }

    @Test("A database of another program is refused and left byte for byte as it was")
    func foreignDatabase() throws {
        let tree = try TemporaryDirectory()
        let path = tree.path + "/notes.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep')") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))

        let output = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("another program"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("An unreadable folder keeps its rows (run as an unprivileged user)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0))
    func unreadableFolder() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/open/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("photos/locked/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("photos/locked/sub/c.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        // The unprivileged user runs copies of the tool and the config inside the shared folder,
        // whatever the permissions of the checkout.
        let tool = tree.url("shoebox")
        try FileManager.default.copyItem(at: ShoeboxProcess.executable, to: tool)
        try FileManager.default.copyItem(at: ShoeboxProcess.packageRoot.appendingPathComponent("config/shoebox.json"), to: tree.url("config.json"))
        _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", tree.path]).waitUntilExit()
        let user = getuid() == 0 ? "65534" : nil  // nobody
        let environment = ["SHOEBOX_CONFIG": tree.path + "/config.json"]
        let db = tree.path + "/index.sqlite"
        let first = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], user: user, environment: environment, executable: tool)
        #expect(first.status == 0, "\(first.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: tree.path + "/photos/locked")
        let again = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], user: user, environment: environment, executable: tool)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Could not read the folder locked"), "\(again.stdout)")
        #expect(again.stdout.contains("0 removed"))
        #expect(try LibraryStore(path: db, mode: .readOnly).photoCount() == 3)
    }

    @Test("kill -9 at any moment leaves a consistent database; the next run finishes the work",
          arguments: [0.3, 0.8, 1.5])
    func killedMidRun(delay: Double) throws {
        let tree = try TemporaryDirectory()
        let count = 4000
        try SampleLibrary(count: count, seed: 3).write(to: tree.path + "/photos")
        let db = tree.path + "/index.sqlite"
        // 2 ms a file on 2 readers: about 4 s of reading, so every kill lands mid-run.
        let process = try ShoeboxProcess.launch(["index", tree.path + "/photos", "--db", db, "--jobs", "2"], environment: ShoeboxProcess.slowReads(0.002))
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the run ended before the kill")

        let queue = try DatabaseQueue(path: db)
        #expect(try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        // On a loaded machine the kill may land before the schema was created: nothing committed then.
        let committed = try queue.read { db in try db.tableExists("photo") ? try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? -1 : 0 }
        #expect(committed < count, "the kill landed after every file was read")
        try queue.close()

        let rerun = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let check = try DatabaseQueue(path: db)
        let (rows, errors) = try check.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM photo"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE error IS NOT NULL"))
        }
        #expect(rows == count)
        #expect(errors == 0)
    }

    @Test("Ctrl-C stops cleanly, commits what was read and says so")
    func interrupted() throws {
        let tree = try TemporaryDirectory()
        let count = 6000
        let db = tree.path + "/index.sqlite"
        // The database made first, by a run of the empty folder, so the polls below never open it
        // while the run creates and migrates it: in loaded full test runs that race left the run
        // with no row committed within 30 s (the likely cause: a reader's lock on the new file while
        // the run turns it to WAL, not confirmed).
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: true)
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        try SampleLibrary(count: count, seed: 5).write(to: tree.path + "/photos")
        // 5 ms a file on one reader: about 30 s of reading, so the Ctrl-C, sent as soon as the first
        // rows are committed (about 2.5 s in), lands mid-read even when a loaded machine (a full
        // parallel test run on two cores) sees that commit seconds late.
        let process = ShoeboxProcess.start(["index", tree.path + "/photos", "--db", db, "--jobs", "1"], environment: ShoeboxProcess.slowReads(0.005))
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until some rows are committed, then interrupt.
        let deadline = Date().addingTimeInterval(30)
        var before = 0
        while Date() < deadline && before == 0 {
            Thread.sleep(forTimeInterval: 0.05)
            if let store = try? LibraryStore(path: db, mode: .readOnly), let n = try? store.photoCount() { before = n }
        }
        #expect(before > 0, "no row was committed within 30 s")
        kill(process.processIdentifier, SIGINT)
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        let committed = try LibraryStore(path: db, mode: .readOnly).photoCount()
        #expect(committed < count, "the Ctrl-C landed after every file was read")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(output.contains("Stopped indexing"))
        // Reading starts during the walk, so the Ctrl-C may land before the walk has found every file.
        #expect(output.contains("  \(committed.grouped) of \(count.grouped) new or changed files were read and committed")
            || output.contains("  \(committed.grouped) new or changed files were read and committed, of "), "\(output)")
        let rerun = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(rerun.status == 0)
        #expect(try LibraryStore(path: db, mode: .readOnly).photoCount() == count)
    }

    @Test("A 2 GB sparse file with a photo extension costs a few kilobytes of reading, not 2 GB")
    func sparseFileReadsOnlyItsHead() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let sparse = tree.url("photos/huge.jpg")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        // A shell's /proc/PID/io includes the reads of the children it waited for.
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" index \"$1\" --db \"$2\" > /dev/null && grep rchar /proc/$$/io",
                             ShoeboxProcess.executable.path, tree.path + "/photos", tree.path + "/index.sqlite"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let bytesRead = Int(text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
        #expect(bytesRead > 0 && bytesRead < 32 << 20, "read \(bytesRead) bytes")
    }

    @Test("A config file with a misspelt key, a wrong type or a bad value gets a message naming it", arguments: [
        (#"{"sections": {"coarse": {"spanDay": 7}}}"#, "unknown key \"sections.coarse.spanDay\""),
        (#"{"zoom": {"fine": {"columns": "four"}}}"#, "expected Int at zoom.fine.columns"),
        (#"{"sections": {"coarse": {"spanDays": 0}}}"#, "spanDays must be at least 1"),
        ("{not json", "not valid"),
    ])
    func badConfiguration(json: String, message: String) throws {
        let tree = try TemporaryDirectory()
        try tree.write("config.json", Array(json.utf8))
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let db = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        let output = try ShoeboxProcess.run(["sections", "--level", "coarse", "--db", db, "--config", tree.path + "/config.json"])
        #expect(output.status == 1)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }

    @Test("`index --help` and docs/commands.md give the default reader jobs that a run uses")
    func defaultJobsDocumented() throws {
        let help = try ShoeboxProcess.runWithDeadline(["index", "--help"])
        #expect(help.status == 0)
        // The help text wraps lines: compare with the spaces collapsed.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("default: one per core and at least 2, here \(IndexSettings.defaultJobs), growing to 8 per core and at least 32, here \(IndexSettings.coldJobs),"), "\(help.stdout)")
        // The configuration's section of the docs says it (the README links there).
        let documented = try String(contentsOf: ShoeboxProcess.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(documented.contains("0, the default, starts one reader thread per core and at least 2"))
        #expect(documented.contains("adds readers, up to 8 per core and at least 32"))
        #expect(IndexSettings.default.jobs == 0 && IndexSettings.defaultJobs == max(2, ProcessInfo.processInfo.activeProcessorCount))
    }

    @Test("config/shoebox.json holds exactly the built-in defaults")
    func configFileMatchesDefaults() throws {
        let path = ShoeboxProcess.packageRoot.appendingPathComponent("config/shoebox.json").path
        let shown = try ShoeboxProcess.run(["config", "--config", path])
        let defaults = try ShoeboxProcess.run(["config", "--defaults"])
        #expect(shown.status == 0)
        #expect(shown.stdout == defaults.stdout)
        #expect(!shown.stdout.isEmpty)
    }
}

extension Int {
    var grouped: String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: self)) ?? String(self)
    }
}
