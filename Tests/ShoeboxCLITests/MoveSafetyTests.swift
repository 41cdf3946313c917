import Foundation
import CDispatch
import Glibc
import PhotoFixtures
import Spawn
import Testing

/// A library of pictures each stored four times (in the root, in `copies/`, in `sub dir/` and in
/// a folder whose name is not UTF-8): three extras per picture at the exact tier.
private struct MoveLibrary {
    let tree: TemporaryDirectory
    var root: String { tree.path + "/photos" }
    var db: String { tree.path + "/index.sqlite" }
    var extras: String { tree.path + "/extras" }
    var manifest: String { extras + "/shoebox-moved-1.json" }
    var environment: [String: String] { ["XDG_CACHE_HOME": tree.path + "/cache"] }
    /// Every file of the library, as it was.
    let before: [[UInt8]: MoveSafetyTests.File]

    static let folders: [[UInt8]] = [[], Array("copies/".utf8), Array("sub dir/".utf8), [0x6E, 0xFF, 0x2F]]

    /// Writes the pictures (owned by `owner` when given, with fixed times) and indexes them as `user`.
    init(pictures: Int, owner: uid_t? = nil, user: String? = nil, tool: URL = ShoeboxProcess.executable) throws {
        tree = try TemporaryDirectory()
        for seed in 1...pictures {
            try DuplicateFixtures.writePicture(tree.path + "/photos/p\(seed).jpg", seed: UInt64(seed), width: 64, height: 48,
                                               exif: ExifFields(dateTimeOriginal: "2020:01:0\(seed % 9 + 1) 10:00:00"))
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: tree.path + "/photos/p\(seed).jpg")))
            for (index, folder) in Self.folders.enumerated() {
                let path = Array((tree.path + "/photos/").utf8) + folder + Array("p\(seed).jpg".utf8)
                if index > 0 { try MoveSafetyTests.write(path, bytes) }
                // The root's copy is the oldest: it is the one kept.
                try MoveSafetyTests.setTimes(path, seconds: 1_500_000_000 + index * 1000 + seed, owner: owner)
            }
        }
        before = MoveSafetyTests.files(under: Array((tree.path + "/photos").utf8))
        var environment = self.environment
        if user != nil {
            // The unprivileged user reads a copy of the config inside the shared folder.
            try FileManager.default.copyItem(at: ShoeboxProcess.packageRoot.appendingPathComponent("config/shoebox.json"), to: tree.url("config.json"))
            _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", tree.path]).waitUntilExit()
            environment["SHOEBOX_CONFIG"] = tree.path + "/config.json"
        }
        let indexed = try ShoeboxProcess.run(["index", tree.path + "/photos", "--db", tree.path + "/index.sqlite"], user: user, environment: environment, executable: tool)
        #expect(indexed.status == 0, "\(indexed.stderr)")
    }

    func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> ShoeboxProcess.Output {
        try ShoeboxProcess.runWithDeadline(arguments + ["--db", db], environment: environment.merging(extra) { $1 }, deadline: .seconds(120))
    }

    func move(_ extra: [String: String] = [:], to folder: String? = nil) throws -> ShoeboxProcess.Output {
        try run(["duplicates", "--tier", "exact", "--move-extras", folder ?? extras], extra)
    }

    func restore(_ manifest: String? = nil) throws -> ShoeboxProcess.Output {
        try run(["duplicates", "--restore", manifest ?? self.manifest])
    }

    /// Whether every file of the library is back at its path with its bytes, and the extras
    /// folder holds nothing but manifests (and the folders emptied).
    func expectWhole(_ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let now = MoveSafetyTests.files(under: Array(root.utf8))
        #expect(now.count == before.count, "\(context): \(now.count) files in the library, \(before.count) before", sourceLocation: sourceLocation)
        for (path, file) in before where now[path]?.bytes != file.bytes {
            Issue.record("\(context): \(String(decoding: path, as: UTF8.self)) is not back byte for byte", sourceLocation: sourceLocation)
        }
        let left = MoveSafetyTests.files(under: Array(extras.utf8)).keys.filter { !$0.starts(with: Array("shoebox-moved-".utf8)) }
        #expect(left.isEmpty, "\(context): left in the extras folder: \(left.map { String(decoding: $0, as: UTF8.self) })", sourceLocation: sourceLocation)
    }
}

@Suite("Moving extras: never outside the library, never unrecoverable", .serialized)
struct MoveSafetyTests {
    struct File: Equatable {
        var bytes: [UInt8]
        var modified: Int64
        var owner: uid_t
        var isLink: Bool
    }

    /// Every file and link under `folder`, by path relative to it (bytes).
    static func files(under folder: [UInt8]) -> [[UInt8]: File] {
        var found: [[UInt8]: File] = [:]
        func walk(_ relative: [UInt8]) {
            let path = relative.isEmpty ? folder : folder + [0x2F] + relative
            guard let directory = (path + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == [0x2E] || name == [0x2E, 0x2E] { continue }
                let child = relative.isEmpty ? name : relative + [0x2F] + name
                var status = stat()
                guard (folder + [0x2F] + child + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) } }) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: walk(child)
                case S_IFREG, S_IFLNK:
                    let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
                    let isLink = status.st_mode & S_IFMT == S_IFLNK
                    found[child] = File(bytes: isLink ? [] : contents(folder + [0x2F] + child), modified: modified, owner: status.st_uid, isLink: isLink)
                default: break
                }
            }
        }
        walk([])
        return found
    }

    static func contents(_ path: [UInt8]) -> [UInt8] {
        DuplicatesMoveTests.contents(path) ?? []
    }

    /// Writes `bytes` at `path`, making its folders by their bytes (names need not be UTF-8).
    static func write(_ path: [UInt8], _ bytes: [UInt8]) throws {
        func create() -> Int32 {
            (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        }
        var fd = create()
        if fd < 0 {
            for (index, byte) in path.enumerated() where byte == 0x2F && index > 0 {
                _ = (Array(path[..<index]) + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
            }
            fd = create()
        }
        try #require(fd >= 0)
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }

    static func setTimes(_ path: [UInt8], seconds: Int, owner: uid_t?) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 123_456_789), timespec(tv_sec: seconds, tv_nsec: 123_456_789)]
        let c = path + [0]
        if let owner { _ = c.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { lchown($0.baseAddress!, owner, owner) } } }
        #expect(c.withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { utimensat(AT_FDCWD, $0.baseAddress!, &times, 0) } } == 0)
    }

    static func killedBySignal(_ process: ChildProcess) -> Bool {
        process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    @Test("kill -9 at an exact moment of a move (entry synced, file renamed), then --restore: every file back byte for byte",
          arguments: [(1, "journaled"), (1, "moved"), (4, "journaled"), (5, "moved"), (9, "moved")])
    func killedAtAMoment(file: Int, point: String) throws {
        let library = try MoveLibrary(pictures: 3)
        let process = try ShoeboxProcess.launch(
            ["duplicates", "--tier", "exact", "--move-extras", library.extras, "--db", library.db],
            environment: library.environment.merging(["SHOEBOX_TEST_MOVE_KILL": "\(file):\(point)"]) { $1 })
        process.waitUntilExit()
        #expect(Self.killedBySignal(process), "the run was not killed at \(file):\(point)")
        let moved = Self.files(under: Array(library.extras.utf8)).count - 1
        #expect(moved == (point == "moved" ? file : file - 1), "\(moved) files in the extras folder")

        let restored = try library.restore()
        #expect(restored.status == (moved == 0 ? 1 : 0), "\(restored.stdout) \(restored.stderr)")
        #expect(restored.stdout.contains("Put back \(moved == 1 ? "1 file" : "\(moved) files")"), "\(restored.stdout)")
        if moved == 0 { #expect(restored.stderr.contains("Nothing to put back"), "\(restored.stderr)") }
        library.expectWhole("killed at \(file):\(point)")
    }

    @Test("kill -9 from outside once 2, 5 and 8 files have moved, then --restore: every file back byte for byte", arguments: [2, 5, 8])
    func killedFromOutside(after count: Int) throws {
        let library = try MoveLibrary(pictures: 3)
        let process = try ShoeboxProcess.launch(
            ["duplicates", "--tier", "exact", "--move-extras", library.extras, "--db", library.db],
            environment: library.environment.merging(["SHOEBOX_TEST_MOVE_DELAY": "0.15"]) { $1 })
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end, process.isRunning, Self.files(under: Array(library.extras.utf8)).count - 1 < count {
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(Self.killedBySignal(process), "the run ended before the kill")
        let restored = try library.restore()
        #expect(restored.status == 0, "\(restored.stdout) \(restored.stderr)")
        library.expectWhole("killed after \(count) files")
    }

    @Test("A second run while one is moving is refused at once; nothing is lost, nothing left twice; the first run's manifest restores all")
    func twoRunsAtOnce() throws {
        let library = try MoveLibrary(pictures: 3)
        let first = try ShoeboxProcess.launch(
            ["duplicates", "--tier", "exact", "--move-extras", library.extras, "--db", library.db],
            environment: library.environment.merging(["SHOEBOX_TEST_MOVE_DELAY": "0.2"]) { $1 })
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end, !FileManager.default.fileExists(atPath: library.manifest) { Thread.sleep(forTimeInterval: 0.005) }
        let second = try library.move(to: library.tree.path + "/extras-2")
        first.waitUntilExit()
        #expect(second.status == 1)
        #expect(second.stderr.contains("Another `shoebox duplicates --move-extras` or `--restore` is running"), "\(second.stderr)")
        #expect(Self.files(under: Array((library.tree.path + "/extras-2").utf8)).isEmpty)
        #expect(first.terminationStatus == 0)
        // Each picture's three extras moved once; the kept ones stayed.
        #expect(Self.files(under: Array(library.extras.utf8)).count == 9 + 1)
        #expect(Self.files(under: Array(library.root.utf8)).count == 3)
        let restored = try library.restore()
        #expect(restored.stdout.contains("Put back 9 files"), "\(restored.stdout)")
        library.expectWhole("two runs")
    }

    @Test("A move that moves nothing and a restore that puts back nothing exit 1 with a message; the parent folder is refused and made nothing")
    func exitCodes() throws {
        let library = try MoveLibrary(pictures: 1)
        let parent = try library.move(to: library.tree.path)
        #expect(parent.status == 1 && parent.stderr.contains("holds the library folder"), "\(parent.stderr)")
        let inside = try library.move(to: library.root + "/dups/deeper")
        #expect(inside.status == 1 && inside.stderr.contains("inside the library folder"), "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library.root + "/dups"))

        #expect(try library.move().status == 0)
        #expect(try library.restore().status == 0)
        let again = try library.restore()
        #expect(again.status == 1 && again.stderr.contains("Nothing to put back"), "\(again.stderr)")
        // The index still lists the moved files' copies as duplicates, but none has moved: they are back.
        // Change every extra so that none matches its hash any more: nothing moves.
        for (path, file) in library.before where !path.elementsEqual(Array("p1.jpg".utf8)) {
            try Self.write(Array((library.root + "/").utf8) + path, file.bytes + [0])
        }
        let nothing = try library.move(to: library.tree.path + "/extras-2")
        #expect(nothing.status == 1 && nothing.stderr.contains("Nothing was moved"), "\(nothing.stderr)")
        #expect(nothing.stdout.contains("it changed since it was hashed"), "\(nothing.stdout)")
        #expect(Self.files(under: Array((library.tree.path + "/extras-2").utf8)).isEmpty, "a manifest was left for nothing")
    }

    @Test("A symlinked library folder and symlinks in the extras folder are not followed by move or restore")
    func symlinks() throws {
        let library = try MoveLibrary(pictures: 1)
        let t = library.tree.path
        #expect(try library.run(["duplicates", "--tier", "exact"]).status == 0)
        // `sub dir` is replaced by a link to an outside copy of it (same names, bytes and times).
        _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/cp"), arguments: ["-a", library.root + "/sub dir", t + "/outside"]).waitUntilExit()
        try FileManager.default.moveItem(atPath: library.root + "/sub dir", toPath: t + "/sub dir away")
        try FileManager.default.createSymbolicLink(atPath: library.root + "/sub dir", withDestinationPath: t + "/outside")
        let moved = try library.move()
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("Moved 2 files"), "\(moved.stdout)")
        #expect(moved.stdout.contains("not moved: sub dir/p1.jpg: sub dir is a symbolic link"), "\(moved.stdout)")
        #expect(FileManager.default.fileExists(atPath: t + "/outside/p1.jpg"))
        #expect(!FileManager.default.fileExists(atPath: library.extras + "/sub dir"))

        // In the extras folder, the moved `copies/p1.jpg` is replaced by a link to an outside file of the same bytes.
        try FileManager.default.moveItem(atPath: library.extras + "/copies/p1.jpg", toPath: t + "/outside/taken.jpg")
        try FileManager.default.createSymbolicLink(atPath: library.extras + "/copies/p1.jpg", withDestinationPath: t + "/outside/taken.jpg")
        let restored = try library.restore()
        #expect(restored.stdout.contains("Put back 1 file"), "\(restored.stdout)")
        #expect(restored.stdout.contains("not restored: copies/p1.jpg: it is a symbolic link in the extras folder"), "\(restored.stdout)")
        #expect(FileManager.default.fileExists(atPath: t + "/outside/taken.jpg"))
        #expect(!FileManager.default.fileExists(atPath: library.root + "/copies/p1.jpg"))
    }

    @Test("An edited manifest: another library's root or an unknown version is refused in one line, and nothing is written")
    func editedManifest() throws {
        let library = try MoveLibrary(pictures: 1)
        #expect(try library.move().status == 0)
        let original = try String(contentsOfFile: library.manifest, encoding: .utf8)
        let other = library.tree.path + "/other"
        for (edited, says) in [
            (original.replacingOccurrences(of: library.root, with: other), "not out of this index's library"),
            (original.replacingOccurrences(of: "\"version\":2", with: "\"version\":3"), "version 3"),
        ] {
            try edited.write(toFile: library.manifest, atomically: true, encoding: .utf8)
            let restored = try library.restore()
            #expect(restored.status == 1 && restored.stderr.contains(says), "\(restored.stderr)")
            #expect(restored.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1, "\(restored.stderr)")
            #expect(!FileManager.default.fileExists(atPath: other))
            #expect(Self.files(under: Array(library.extras.utf8)).count == 3 + 1)
        }
        try original.write(toFile: library.manifest, atomically: true, encoding: .utf8)
        #expect(try library.restore().status == 0)
        library.expectWhole("after the edited manifests")
    }

    @Test("Read-only folders (as an unprivileged user): their files stay, with no link or copy left; a restore into one puts back the rest, then all",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0))
    func readOnlyFolders() throws {
        let user = getuid() == 0 ? "65534" : nil  // nobody
        let staging = try TemporaryDirectory()
        let tool = staging.url("shoebox")
        try FileManager.default.copyItem(at: ShoeboxProcess.executable, to: tool)
        _ = try ChildProcess.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", staging.path]).waitUntilExit()
        let library = try MoveLibrary(pictures: 2, user: user, tool: tool)
        let environment = library.environment.merging(["SHOEBOX_CONFIG": library.tree.path + "/config.json"]) { $1 }
        func run(_ arguments: [String]) throws -> ShoeboxProcess.Output {
            try ShoeboxProcess.run(arguments + ["--db", library.db], user: user, environment: environment, executable: tool)
        }
        let move = ["duplicates", "--tier", "exact", "--move-extras", library.extras]
        func setMode(_ mode: mode_t, _ folders: [[UInt8]]) {
            for folder in folders {
                let path = Array((library.root + "/").utf8) + folder + [0]
                #expect(path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { chmod($0.baseAddress!, mode) } } == 0)
            }
        }
        let subfolders = MoveLibrary.folders.dropFirst().map { Array($0.dropLast()) }

        // Every source folder read-only: nothing moves, nothing is left in the extras folder.
        setMode(0o555, subfolders)
        let none = try run(move)
        #expect(none.status == 1 && none.stderr.contains("Nothing was moved"), "\(none.stdout) \(none.stderr)")
        #expect(none.stdout.contains("Permission denied"), "\(none.stdout)")
        #expect(Self.files(under: Array(library.extras.utf8)).isEmpty, "left in the extras folder")

        // `copies` read-only: the others move.
        setMode(0o777, subfolders)
        setMode(0o555, [Array("copies".utf8)])
        let some = try run(move)
        #expect(some.status == 0, "\(some.stderr)")
        #expect(some.stdout.contains("Moved 4 files"), "\(some.stdout)")
        #expect(Self.files(under: Array((library.extras + "/copies").utf8)).isEmpty)
        let listed = try String(contentsOfFile: library.manifest, encoding: .utf8)
        #expect(listed.split(separator: "\n").count == 1 + 4 && !listed.contains("copies/"), "\(listed)")

        // A restore into a read-only folder puts back what it can, and the rest later.
        setMode(0o777, [Array("copies".utf8)])
        setMode(0o555, [Array("sub dir".utf8)])
        let partly = try run(["duplicates", "--restore", library.manifest])
        #expect(partly.status == 0 && partly.stdout.contains("Put back 2 files"), "\(partly.stdout) \(partly.stderr)")
        #expect(partly.stdout.contains("not restored: sub dir/p1.jpg"), "\(partly.stdout)")
        setMode(0o777, [Array("sub dir".utf8)])
        let rest = try run(["duplicates", "--restore", library.manifest])
        #expect(rest.status == 0 && rest.stdout.contains("Put back 2 files") && rest.stdout.contains("2 files already in the library"), "\(rest.stdout)")
        library.expectWhole("read-only folders")
    }

    @Test("Across disks (a tmpfs): copies keep time and owner both ways; kill -9 between a copy and its original's removal, then --restore: every file back",
          .enabled(if: canMountInPrivateNamespace, "needs root and mount namespaces to mount a second file system"))
    func acrossDisks() throws {
        let library = try MoveLibrary(pictures: 2, owner: 65534)
        let t = library.tree.path, tool = ShoeboxProcess.executable.path, db = library.db
        try FileManager.default.createDirectory(atPath: t + "/mnt", withIntermediateDirectories: true)
        let script = """
            export XDG_CACHE_HOME='\(t)/cache'
            mount -t tmpfs -o size=64m tmpfs '\(t)/mnt' || exit 90
            SHOEBOX_TEST_MOVE_KILL=3:copied '\(tool)' duplicates --tier exact --move-extras '\(t)/mnt/extras' --db '\(db)' > /dev/null 2>&1; echo $? > '\(t)/kill.rc'
            find '\(t)/mnt/extras' -type f | wc -l > '\(t)/killed.count'
            '\(tool)' duplicates --restore '\(t)/mnt/extras/shoebox-moved-1.json' --db '\(db)' > '\(t)/restore1.out' 2>&1; echo $? > '\(t)/restore1.rc'
            find '\(t)/mnt/extras' -type f ! -name 'shoebox-moved-*' > '\(t)/left.txt'
            '\(tool)' duplicates --tier exact --move-extras '\(t)/mnt/extras2' --db '\(db)' > '\(t)/move.out' 2>&1; echo $? > '\(t)/move.rc'
            find '\(t)/mnt/extras2' -type f ! -name 'shoebox-moved-*' -printf '%T@ %U\\n' > '\(t)/moved.txt'
            '\(tool)' duplicates --restore '\(t)/mnt/extras2/shoebox-moved-1.json' --db '\(db)' > '\(t)/restore2.out' 2>&1; echo $? > '\(t)/restore2.rc'
            """
        #expect(try runWithPrivateMounts(script) == 0)
        func read(_ name: String) -> String { scriptOutput(t, name).trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(read("kill.rc") == "137", "the move was not killed")
        // The manifest, two moved files, and the third's checked copy (its original still in the library).
        #expect(read("killed.count") == "4")
        #expect(read("restore1.rc") == "0" && read("restore1.out").contains("Put back 3 files"), "\(read("restore1.out"))")
        #expect(read("left.txt").isEmpty, "\(read("left.txt"))")
        #expect(read("move.rc") == "0", "\(read("move.out"))")
        // On the other disk each copy has its original's time (to the second here) and owner.
        let seconds = Set(library.before.values.map { String($0.modified / 1_000_000_000) })
        let moved = read("moved.txt").split(separator: "\n")
        #expect(moved.count == 6, "\(moved)")
        for line in moved {
            let fields = line.split(separator: " ")
            #expect(fields.count == 2 && seconds.contains(String(fields[0].prefix { $0 != "." })) && fields[1] == "65534", "\(line)")
        }
        #expect(read("restore2.rc") == "0" && read("restore2.out").contains("Put back 6 files"), "\(read("restore2.out"))")
        library.expectWhole("across disks")
        // Back in the library every file has its time to the nanosecond and its owner: the next index reads none again.
        let now = Self.files(under: Array(library.root.utf8))
        for (path, file) in library.before {
            #expect(now[path]?.modified == file.modified && now[path]?.owner == 65534, "\(String(decoding: path, as: UTF8.self))")
        }
    }
}
