import Foundation
import LibraryIndex
import PhotoFixtures
import Spawn
import Testing

/// A tree of `count` generated photos indexed into `index.sqlite`, for the CLI safety tests.
private func indexedLibrary(count: Int = 8, seed: UInt64 = 21) throws -> (tree: TemporaryDirectory, db: String) {
    let tree = try TemporaryDirectory()
    try SampleLibrary(count: count, seed: seed).write(to: tree.path + "/photos")
    let db = tree.path + "/index.sqlite"
    let indexed = try ShoeboxProcess.runWithDeadline(["index", tree.path + "/photos", "--db", db])
    #expect(indexed.status == 0, "\(indexed.stderr)")
    return (tree, db)
}

@Suite("shoebox: nothing lost, nothing injected")
struct DataSafetyCLITests {
    @Test("An emptied root: exit 3, rows kept and listed by `photos --missing`, the message says what to type; --prune removes")
    func emptiedRoot() throws {
        let (tree, db) = try indexedLibrary(count: 12)
        let photos = tree.path + "/photos"
        try FileManager.default.moveItem(atPath: photos, toPath: tree.path + "/unmounted")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: false)

        let run = try ShoeboxProcess.runWithDeadline(["index", photos, "--db", db])
        #expect(run.status == 3)
        #expect(run.stdout.contains("0 removed") && run.stdout.contains("12 missing (kept)"), "\(run.stdout)")
        #expect(run.stderr.contains("none of the 12 photos in the index was found"), "\(run.stderr)")
        #expect(run.stderr.contains("shoebox photos --missing") && run.stderr.contains("--prune"))

        let missing = try ShoeboxProcess.runWithDeadline(["photos", "--missing", "--db", db])
        #expect(missing.stdout.contains("12 files") && missing.stdout.contains("(missing since "), "\(missing.stdout)")
        let json = try ShoeboxProcess.runWithDeadline(["photos", "--missing", "--json", "--db", db])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 12 && rows.allSatisfy { $0["missing"] as? Bool == true })

        let pruned = try ShoeboxProcess.runWithDeadline(["index", photos, "--db", db, "--prune"])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.contains("12 removed"))
        #expect(try LibraryStore(path: db, mode: .readOnly).photoCount() == 0)
    }

    @Test("A root that cannot be read exits non-zero and changes nothing; an unreadable file is dated by its modification time",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0))
    func unreadableRootAndFile() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("photos/locked.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let tool = tree.url("shoebox")
        try FileManager.default.copyItem(at: ShoeboxProcess.executable, to: tool)
        try FileManager.default.copyItem(at: ShoeboxProcess.packageRoot.appendingPathComponent("config/shoebox.json"), to: tree.url("config.json"))
        _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", tree.path]).waitUntilExit()
        let locked = tree.path + "/photos/locked.jpg"
        let mtime = Date(timeIntervalSince1970: 1_588_672_800)  // 2020-05-05 10:00:00 UTC
        try FileManager.default.setAttributes([.modificationDate: mtime, .posixPermissions: 0], ofItemAtPath: locked)
        let user = getuid() == 0 ? "65534" : nil
        let environment = ["SHOEBOX_CONFIG": tree.path + "/config.json", "TZ": "UTC"]
        let db = tree.path + "/index.sqlite"

        let first = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], user: user, environment: environment, executable: tool)
        #expect(first.status == 0, "\(first.stderr)")
        let listed = try ShoeboxProcess.run(["photos", "--db", db], user: user, environment: environment, executable: tool)
        let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("locked.jpg") })
        #expect(line.hasPrefix("2020-05-05 10:00:00 +00:00  fileModified"), "\(line)")
        #expect(line.contains("Permission denied"))
        #expect(!listed.stdout.contains("1970"))

        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: tree.path + "/photos")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.path + "/photos") }
        let blind = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db], user: user, environment: environment, executable: tool)
        #expect(blind.status == 1)
        #expect(blind.stderr.contains("Cannot read the folder") && blind.stderr.contains("nothing in the index was changed"), "\(blind.stderr)")
        #expect(try LibraryStore(path: db, mode: .readOnly).photoCount() == 2)
    }

    @Test("Config values are checked like the flags: no hang, no crash, a sentence naming the key", arguments: [
        (#"{"index":{"batchSize":0}}"#, ["index", "photos"], "batchSize must be 1 to 100000 (got 0)"),
        (#"{"index":{"batchSize":-1}}"#, ["index", "photos"], "batchSize must be 1 to 100000 (got -1)"),
        (#"{"index":{"removalLimit":2}}"#, ["config"], "removalLimit must be a share from 0 to 1"),
        (#"{"sections":{"coarse":{"spanDays":-5}}}"#, ["config"], "spanDays must be at least 1 (got -5)"),
        (#"{"sections":{"coarse":{"seed":-1}}}"#, ["config"], "sections.coarse.seed must be a whole number ≥ 0 (got -1)"),
        (#"{"zoom":{"fine":{"columns":0}}}"#, ["sections"], "columns"),
    ])
    func invalidConfiguration(json: String, command: [String], message: String) throws {
        let tree = try TemporaryDirectory()
        let config = try tree.write("config.json", Array(json.utf8)).path
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        var arguments = command
        if command == ["index", "photos"] { arguments = ["index", tree.path + "/photos", "--db", tree.path + "/i.sqlite"] }
        let output = try ShoeboxProcess.runWithDeadline(arguments + ["--config", config], deadline: .seconds(20))
        #expect(output.status == 1)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(!output.stderr.contains("not valid JSON"))
    }

    @Test("Output to a full disk fails with one clear line, for text, JSON and config", arguments: [
        ["photos"], ["photos", "--json"], ["sections"], ["sections", "--json"], ["config"],
        ["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--json"],
        ["zoom", "--from", "coarse", "--section", "0", "--item", "0"],
    ])
    func fullDisk(arguments: [String]) throws {
        let (tree, db) = try indexedLibrary()
        defer { withExtendedLifetime(tree) {} }
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let output = try ShoeboxProcess.runWithDeadline(arguments + ["--db", db], stdout: full)
        #expect(output.status == 1)
        #expect(output.stderr == "Error: Cannot write the output: No space left on device.\n", "\(output.stderr)")
    }

    @Test("File names with control characters cannot split rows or reach the terminal raw; invalid UTF-8 names stay apart")
    func hostileNames() throws {
        let tree = try TemporaryDirectory()
        let jpeg = PhotoFixtures.jpeg(width: 8, height: 8, exif: ExifFields(dateTimeOriginal: "2022:02:02 10:00:00"))
        let names: [[UInt8]] = [
            Array("new\nline.jpg".utf8), Array("tab\there.jpg".utf8), Array("cr\rfake.jpg".utf8),
            Array("esc\u{1B}[31mred.jpg".utf8), [0x61, 0xFF, 0x2E, 0x6A, 0x70, 0x67], [0x61, 0xFE, 0x2E, 0x6A, 0x70, 0x67],
        ]
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: true)
        for name in names {
            let path = Array((tree.path + "/photos/").utf8) + name + [0]
            let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
            try #require(fd >= 0)
            _ = jpeg.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        let db = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", tree.path + "/photos", "--db", db]).status == 0)

        let table = try ShoeboxProcess.runWithDeadline(["photos", "--db", db])
        let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1 + names.count + 1 + 1, "a header, one row per file, the footer, the final newline:\n\(table.stdout)")
        for output in [table.stdout, try ShoeboxProcess.runWithDeadline(["sections", "--section", "0", "--db", db]).stdout] {
            #expect(!output.contains("\u{1B}") && !output.contains("\r") && !output.contains("\t"))
            for escaped in [#"new\nline.jpg"#, #"tab\there.jpg"#, #"cr\rfake.jpg"#, #"esc\x1b[31mred.jpg"#, #"a\xff.jpg"#, #"a\xfe.jpg"#] {
                #expect(output.contains(escaped), "\(escaped) in\n\(output)")
            }
        }

        let json = try ShoeboxProcess.runWithDeadline(["photos", "--json", "--db", db])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["path"] as? String }).count == names.count, "every path distinct")
        let exact = Set(rows.compactMap { ($0["pathBytes"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) })
        #expect(exact == [[0x61, 0xFF, 0x2E, 0x6A, 0x70, 0x67], [0x61, 0xFE, 0x2E, 0x6A, 0x70, 0x67]])
        #expect(rows.first { $0["path"] as? String == "new\nline.jpg" }?["pathBytes"] == nil, "valid UTF-8 names need no bytes")

        let message = try ShoeboxProcess.runWithDeadline(["index", tree.path + "/no\u{1B}[2Jsuch", "--db", db])
        #expect(message.status == 1)
        #expect(!message.stderr.contains("\u{1B}") && message.stderr.contains(#"no\x1b[2Jsuch"#), "\(message.stderr)")
        let parserMessage = try ShoeboxProcess.runWithDeadline(["sections", "--level", "x\u{1B}[31m", "--db", db])
        #expect(parserMessage.status != 0)
        #expect(!parserMessage.stderr.contains("\u{1B}") && parserMessage.stderr.contains(#"x\x1b[31m"#), "\(parserMessage.stderr)")
    }

    @Test("A database on a read-only mount is read (WAL, no -shm); indexing into it says what to do",
          .enabled(if: canMountInPrivateNamespace, "needs root and mount namespaces to make a read-only bind mount"))
    func readOnlyMount() throws {
        let (tree, db) = try indexedLibrary(count: 10)
        // A cleanly closed WAL database: the main file alone, as on a copied-then-mounted medium.
        for suffix in ["-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        let t = tree.path
        let tool = ShoeboxProcess.executable.path
        let config = ShoeboxProcess.packageRoot.appendingPathComponent("config/shoebox.json").path
        try FileManager.default.createDirectory(atPath: t + "/ro", withIntermediateDirectories: true)
        let script = """
            export SHOEBOX_CONFIG='\(config)'
            mount --bind '\(t)' '\(t)/ro' && mount -o remount,bind,ro '\(t)/ro' || exit 90
            '\(tool)' photos --db '\(t)/ro/index.sqlite' > '\(t)/photos.out' 2>&1; echo $? > '\(t)/photos.rc'
            '\(tool)' sections --db '\(t)/ro/index.sqlite' > '\(t)/sections.out' 2>&1; echo $? > '\(t)/sections.rc'
            '\(tool)' index '\(t)/photos' --db '\(t)/ro/index.sqlite' > /dev/null 2> '\(t)/index.err'; echo $? > '\(t)/index.rc'
            """
        #expect(try runWithPrivateMounts(script) == 0)
        func read(_ name: String) -> String { scriptOutput(t, name) }
        #expect(read("photos.rc") == "0\n", "\(read("photos.out"))")
        #expect(read("photos.out").contains("10 files"))
        #expect(read("sections.rc") == "0\n", "\(read("sections.out"))")
        #expect(read("index.rc") == "1\n")
        #expect(read("index.err").contains("read-only file system"), "\(read("index.err"))")
    }

    @Test("Bad numbers and mixed flags get a sentence with the range", arguments: [
        (["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--offset", "nan"], "--offset takes a finite number"),
        (["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--offset", "inf", "--json"], "--offset takes a finite number"),
        (["zoom", "--from", "coarse", "--focal-y", "-inf"], "--focal-y takes a finite number"),
        (["zoom", "--from", "coarse", "--section", "0", "--item", "0", "--focal-y", "100"], "not both"),
        (["zoom", "--from", "coarse", "--section", "-1", "--item", "0"], "--section takes a section number from 0 (got -1)"),
        (["sections", "--section", "-1"], "--section takes a section number from 0 (got -1)"),
        (["index", ".", "--jobs", "-1"], "--jobs takes 1 to 256"),
        (["index", "-dash"], "shoebox index -- -dash"),
    ])
    func badNumbers(arguments: [String], message: String) throws {
        let (tree, db) = try indexedLibrary()
        defer { withExtendedLifetime(tree) {} }
        let output = try ShoeboxProcess.runWithDeadline(arguments + ["--db", db])
        #expect(output.status != 0)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(!output.stderr.contains("Missing value"))
    }

    @Test("A relative $SHOEBOX_DB is resolved and shown; a missing $SHOEBOX_CONFIG is an error")
    func environmentPaths() throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let run = try ShoeboxProcess.runWithDeadline(["index", "photos"], environment: ["SHOEBOX_DB": "sub/../lib.sqlite"], directory: tree.path)
        #expect(run.status == 0, "\(run.stderr)")
        let resolved = URL(fileURLWithPath: tree.path).resolvingSymlinksInPath().path
        #expect(run.stdout.contains("Database: \(tree.path)/lib.sqlite") || run.stdout.contains("Database: \(resolved)/lib.sqlite"), "\(run.stdout)")
        #expect(FileManager.default.fileExists(atPath: tree.path + "/lib.sqlite"))

        let config = try ShoeboxProcess.runWithDeadline(["config"], environment: ["SHOEBOX_CONFIG": tree.path + "/nope.json"])
        #expect(config.status == 1)
        #expect(config.stderr.contains("There is no configuration file at \(tree.path)/nope.json (from $SHOEBOX_CONFIG)"), "\(config.stderr)")
    }

    @Test("`backup` makes a single-file copy; `relocate` follows a moved root keeping every row")
    func backupAndRelocate() throws {
        let (tree, db) = try indexedLibrary(count: 15)
        let backup = try ShoeboxProcess.runWithDeadline(["backup", tree.path + "/copy.sqlite", "--db", db])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("Backed up 15 photos"))
        #expect(!FileManager.default.fileExists(atPath: tree.path + "/copy.sqlite-wal"))
        let again = try ShoeboxProcess.runWithDeadline(["backup", tree.path + "/copy.sqlite", "--db", db])
        #expect(again.status == 1 && again.stderr.contains("already exists"))

        // A copy of the main file made mid-write (simulated: an SQLite file without the index's tables).
        try tree.write("incomplete.sqlite", [])
        let incomplete = try ShoeboxProcess.runWithDeadline(["photos", "--db", tree.path + "/incomplete.sqlite"])
        #expect(incomplete.status == 1)
        #expect(incomplete.stderr.contains("holds no index") && incomplete.stderr.contains("shoebox backup FILE"), "\(incomplete.stderr)")

        try FileManager.default.moveItem(atPath: tree.path + "/photos", toPath: tree.path + "/moved")
        let relocate = try ShoeboxProcess.runWithDeadline(["relocate", tree.path + "/moved", "--db", db])
        #expect(relocate.status == 0, "\(relocate.stderr)")
        let rerun = try ShoeboxProcess.runWithDeadline(["index", tree.path + "/moved", "--db", db])
        #expect(rerun.status == 0)
        #expect(rerun.stdout.contains("15 unchanged, 0 removed"), "\(rerun.stdout)")
    }

    @Test("A Ctrl-C right after start is never lost: the run does not complete as if nothing happened")
    func earlyInterrupt() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 3000, seed: 8).write(to: tree.path + "/photos")
        for delay in [0.0, 0.005, 0.02, 0.05] {
            let db = tree.path + "/index-\(delay).sqlite"
            // Slowed reads (about 2 s on 8 readers): the run is still going when the signal comes.
            let process = try ShoeboxProcess.launch(["index", tree.path + "/photos", "--db", db], environment: ShoeboxProcess.slowReads(0.005))
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let completed = process.terminationReason == .exit && process.terminationStatus == 0
            #expect(!completed, "a SIGINT after \(delay) s was lost")
            if process.terminationReason == .exit {
                #expect(process.terminationStatus == 130)
            }
        }
    }
}
