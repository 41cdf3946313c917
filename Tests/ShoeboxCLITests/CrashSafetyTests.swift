import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import SeededRandom
import Spawn
import Testing

/// Counts and checks a database from outside, as a user's `sqlite3` would.
func inspect(_ path: String) throws -> (integrity: String?, rows: Int, incomplete: Int, duplicates: Int) {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        // A run killed before its schema was committed leaves a database without tables: no rows.
        guard try db.tableExists("photo") else { return (try String.fetchOne(db, sql: "PRAGMA integrity_check"), 0, 0, 0) }
        return (
            try String.fetchOne(db, sql: "PRAGMA integrity_check"),
            try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? -1,
            // Every generated photo is readable: a row without its size or format was half-written.
            try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE error IS NOT NULL OR width IS NULL OR height IS NULL OR format IS NULL OR captured = ''") ?? -1,
            try Int.fetchOne(db, sql: "SELECT count(*) - count(DISTINCT path) FROM photo") ?? -1
        )
    }
}

@Suite("Crash safety and concurrent use", .serialized)
struct CrashSafetyTests {
    @Test("20 kill -9 at random moments: always consistent, never a duplicate or half-written row; the last run completes")
    func repeatedKills() throws {
        let tree = try TemporaryDirectory()
        let count = 3000
        try SampleLibrary(count: count, seed: 11).write(to: tree.path + "/photos")
        let db = tree.path + "/index.sqlite"
        var rng = SplitMix64(seed: 2024)
        var previous = 0
        for round in 0..<20 {
            // 6 ms a file on 2 readers: 9 s of reading in all, more than the 20 rounds' 8.4 s at
            // most, so that every kill lands while files are still being read.
            let process = try ShoeboxProcess.launch(["index", tree.path + "/photos", "--db", db, "--jobs", "2"], environment: ShoeboxProcess.slowReads(0.006))
            Thread.sleep(forTimeInterval: 0.02 + Double(rng.next() % 400) / 1000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "round \(round): the run ended before the kill")
            guard FileManager.default.fileExists(atPath: db) else { continue }
            let state = try inspect(db)
            #expect(state.integrity == "ok", "round \(round)")
            #expect(state.incomplete == 0, "round \(round)")
            #expect(state.duplicates == 0, "round \(round)")
            #expect(state.rows >= previous, "round \(round): committed rows are never lost")
            #expect(state.rows < count, "round \(round): the kill landed after every file was read")
            previous = state.rows
        }
        #expect(previous > 0, "no kill landed after a commit")
        let final = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(final.status == 0, "\(final.stderr)")
        let state = try inspect(db)
        #expect(state.integrity == "ok")
        #expect(state.rows == count)
        #expect(state.incomplete == 0)
    }

    @Test("10 Ctrl-C at random moments: each run reports exactly what it committed; the last run completes")
    func repeatedInterrupts() throws {
        let tree = try TemporaryDirectory()
        let count = 4000
        try SampleLibrary(count: count, seed: 19).write(to: tree.path + "/photos")
        let db = tree.path + "/index.sqlite"
        var rng = SplitMix64(seed: 99)
        var rows = 0
        for round in 0..<10 {
            // 2 ms a file on one reader: 8 s of reading in all, more than the 10 rounds' 3.5 s.
            let process = ShoeboxProcess.start(["index", tree.path + "/photos", "--db", db, "--jobs", "1"], environment: ShoeboxProcess.slowReads(0.002))
            let stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            let runsBefore = try ShoeboxProcess.runCount(db)
            try process.run()
            // From its run row on, the process has its Ctrl-C handler: the signal stops a run.
            try ShoeboxProcess.waitForRunStart(database: db, runsBefore: runsBefore)
            Thread.sleep(forTimeInterval: 0.05 + Double(rng.next() % 300) / 1000)
            kill(process.processIdentifier, SIGINT)
            let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let state = try inspect(db)
            #expect(state.integrity == "ok", "round \(round)")
            #expect(state.incomplete == 0 && state.duplicates == 0, "round \(round)")
            #expect(state.rows < count, "round \(round): the Ctrl-C landed after every file was read")
            #expect(process.terminationReason == .exit && process.terminationStatus == 130, "round \(round): \(output)")
            // "Stopped indexing …  N of M new or changed files were read and committed"
            let committed = output.split(separator: "\n").first { $0.contains("were read and committed") }
                .flatMap { Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0].replacingOccurrences(of: ",", with: "")) }
            #expect(committed.map { rows + $0 } == state.rows, "round \(round): \(output)")
            rows = state.rows
        }
        #expect(try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db]).status == 0)
        #expect(try inspect(db).rows == count)
    }

    @Test("While a crawl runs, `photos` and `sections` in another process always succeed on a consistent snapshot")
    func readersDuringCrawl() throws {
        let tree = try TemporaryDirectory()
        let count = 5000
        try SampleLibrary(count: count, seed: 13).write(to: tree.path + "/photos")
        let db = tree.path + "/index.sqlite"
        // Create the database first so readers have something to open.
        try tree.write("seed/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let crawl = try ShoeboxProcess.launch(["index", tree.path + "/photos", "--db", db, "--jobs", "1"])
        defer { if crawl.isRunning { kill(crawl.processIdentifier, SIGKILL) } }
        let deadline = ContinuousClock.now + .seconds(120)
        while !FileManager.default.fileExists(atPath: db) {
            try #require(ContinuousClock.now < deadline, "the crawl never created its database")
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.2)

        var reads = 0
        var lastCount = 0
        var readsMidCrawl = 0
        while crawl.isRunning || reads < 2 {
            try #require(ContinuousClock.now < deadline, "the crawl did not finish in time")
            let photos = try ShoeboxProcess.run(["photos", "--db", db, "--json"])
            #expect(photos.status == 0, "\(photos.stderr)")
            let rows = try JSONSerialization.jsonObject(with: Data(photos.stdout.utf8)) as? [Any]
            #expect(rows != nil)
            #expect((rows?.count ?? 0) >= lastCount)
            lastCount = rows?.count ?? 0
            if (1..<count).contains(lastCount) { readsMidCrawl += 1 }

            let sections = try ShoeboxProcess.run(["sections", "--level", "coarse", "--db", db, "--json"])
            #expect(sections.status == 0, "\(sections.stderr)")
            let list = try JSONSerialization.jsonObject(with: Data(sections.stdout.utf8)) as? [[String: Any]]
            #expect(list != nil)
            for section in list ?? [] {
                let n = section["count"] as? Int ?? -1
                #expect((section["photos"] as? [Any])?.count == (n <= 10 ? n : min(50, n / 10 * 10)))
            }
            reads += 1
        }
        crawl.waitUntilExit()
        #expect(crawl.terminationStatus == 0)
        #expect(try inspect(db).rows == count)
        // The point of the test: some reads really happened while rows were still arriving.
        #expect(readsMidCrawl > 0, "every read came before the first commit or after the last")
    }

    @Test("A second crawl of the same database refuses with a clear message; the first completes")
    func twoCrawls() throws {
        let tree = try TemporaryDirectory()
        let count = 4000
        try SampleLibrary(count: count, seed: 17).write(to: tree.path + "/photos")
        let db = tree.path + "/index.sqlite"
        // 1 ms a file on one reader: about 4 s, so the first run still holds the database.
        let first = try ShoeboxProcess.launch(["index", tree.path + "/photos", "--db", db, "--jobs", "1"], environment: ShoeboxProcess.slowReads(0.001))
        // Wait until the first run holds the database.
        try ShoeboxProcess.waitForRunStart(database: db, runsBefore: 0)

        let second = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", db])
        #expect(first.isRunning, "the first run ended before the second started")
        #expect(second.status == 1)
        #expect(second.stderr.contains("Another `shoebox index` is already writing"), "\(second.stderr)")
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        let state = try inspect(db)
        #expect(state.integrity == "ok")
        #expect(state.rows == count)
    }
}
