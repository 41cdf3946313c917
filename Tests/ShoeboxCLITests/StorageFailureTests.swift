import Foundation
import GRDB
import PhotoFixtures
import Spawn
import Testing

/// Whether this process may mount a small tmpfs in a private mount namespace (root on Linux).
let canMountInPrivateNamespace: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
    let probe = ChildProcess()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["-m", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\" && rmdir \"$d\""]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationStatus == 0
}()

/// Runs `script` with `sh` in a private mount namespace, killed past `deadline`; its exit status.
func runWithPrivateMounts(_ script: String, deadline: Duration = .seconds(180)) throws -> Int32 {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = ["-m", "sh", "-c", script]
    return try ShoeboxProcess.finish(process, arguments: ["(mount script)"], stdout: nil, deadline: deadline).status
}

/// The text of a file a script wrote into `folder`, or "(missing NAME)".
func scriptOutput(_ folder: String, _ name: String) -> String {
    (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)) ?? "(missing \(name))"
}

@Suite("Full disk and read-only file system",
       .enabled(if: canMountInPrivateNamespace, "needs root and mount namespaces to make a small or read-only file system"))
struct StorageFailureTests {
    @Test("A full disk stops the run with a clear message; a read-only one is refused; the old index stays intact and readable")
    func fullAndReadOnly() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 600, seed: 31).write(to: tree.path + "/photos")
        try FileManager.default.createDirectory(atPath: tree.path + "/mnt", withIntermediateDirectories: true)
        let tool = ShoeboxProcess.executable.path
        // Small batches: the first ones fit on the small file system however many readers fill the
        // writer's queue before its first transaction (a 500-row first batch may not fit at all).
        // The file system holds the new database's log (its schema, and the first index's dropped
        // map index and search triggers: about 480 KiB) and a few batches after it.
        let config = tree.path + "/config.json"
        try Data(#"{"index": {"batchSize": 50}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let t = tree.path
        // Everything on the small file system happens inside one private mount namespace.
        let script = """
            export SHOEBOX_CONFIG='\(config)'
            mount -t tmpfs -o size=640k tmpfs '\(t)/mnt' || exit 90
            '\(tool)' index '\(t)/photos' --db '\(t)/mnt/i.sqlite' > '\(t)/full.out' 2> '\(t)/full.err'; echo $? > '\(t)/full.rc'
            cp '\(t)'/mnt/i.sqlite* '\(t)/' 2>/dev/null
            mount -o remount,ro '\(t)/mnt'
            '\(tool)' index '\(t)/photos' --db '\(t)/mnt/i.sqlite' > /dev/null 2> '\(t)/ro.err'; echo $? > '\(t)/ro.rc'
            '\(tool)' photos --db '\(t)/mnt/i.sqlite' --json > '\(t)/ro.json' 2> '\(t)/ro-photos.err'; echo $? > '\(t)/ro-photos.rc'
            """
        #expect(try runWithPrivateMounts(script) == 0)
        func read(_ name: String) -> String { scriptOutput(t, name) }
        #expect(read("full.rc").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(read("full.err").contains("is full"), "\(read("full.err"))")

        // The copy taken after the failure is a consistent database holding what was committed.
        let queue = try DatabaseQueue(path: t + "/i.sqlite")
        let (integrity, rows) = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0)
        }
        try queue.close()
        #expect(integrity == "ok")
        #expect(rows > 0 && rows < 600)

        #expect(read("ro.rc").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(read("ro.err").contains("Read-only file system") || read("ro.err").contains("read-only"), "\(read("ro.err"))")
        #expect(read("ro-photos.rc").trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(read("ro-photos.err"))")
        let listed = try JSONSerialization.jsonObject(with: Data(read("ro.json").utf8)) as? [Any]
        #expect(listed?.count == rows)
    }

    @Test("Moving extras to a disk too full for the copy moves nothing, leaves no manifest and no part-copy, and exits 1")
    func moveExtrasOntoAFullDisk() throws {
        let tree = try TemporaryDirectory()
        let root = tree.path + "/photos"
        // One picture and an exact copy, 13,000 bytes each (padding after the picture's end): with
        // the manifest's page written first, the copy does not fit the 16 KiB file system (four 4 KiB pages).
        var bytes = PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2021:02:03 10:00:00"))
        try #require(bytes.count < 13_000)
        bytes += [UInt8](repeating: 0, count: 13_000 - bytes.count)
        try tree.write("photos/a.jpg", bytes)
        try tree.write("photos/copies/a.jpg", bytes)
        try FileManager.default.createDirectory(atPath: tree.path + "/mnt", withIntermediateDirectories: true)
        let db = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", root, "--db", db]).status == 0)
        #expect(try ShoeboxProcess.runWithDeadline(["duplicates", "--tier", "exact", "--db", db]).status == 0)
        let tool = ShoeboxProcess.executable.path, t = tree.path
        let script = """
            mount -t tmpfs -o size=16k tmpfs '\(t)/mnt' || exit 90
            '\(tool)' duplicates --tier exact --move-extras '\(t)/mnt/extras' --db '\(db)' > '\(t)/move.out' 2> '\(t)/move.err'; echo $? > '\(t)/move.rc'
            find '\(t)/mnt' -type f > '\(t)/left.txt'
            """
        #expect(try runWithPrivateMounts(script) == 0)
        func read(_ name: String) -> String { scriptOutput(t, name) }
        #expect(read("move.rc").trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(read("move.out")) \(read("move.err"))")
        #expect(read("move.err").contains("Nothing was moved"), "\(read("move.err"))")
        #expect(read("move.out").contains("not moved: "), "\(read("move.out"))")
        // Nothing left on the full disk (no empty manifest, no copy), both files back, byte for byte.
        #expect(read("left.txt").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(read("left.txt"))")
        for path in ["photos/a.jpg", "photos/copies/a.jpg"] {
            #expect(FileManager.default.contents(atPath: t + "/" + path) == Data(bytes), "\(path)")
        }
    }
}
