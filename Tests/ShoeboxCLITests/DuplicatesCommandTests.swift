import Foundation
import PhotoFixtures
import Testing
import Thumbnails

/// A library with one photo in every kind of duplicate, distinct photos, a burst, RAW+JPEG and an edit.
private struct DuplicateLibrary {
    let tree: TemporaryDirectory
    var root: String { tree.path + "/photos" }
    var db: String { tree.path + "/index.sqlite" }
    var environment: [String: String] { ["XDG_CACHE_HOME": tree.path + "/cache"] }

    /// The variants of `original.jpg`, relative to the root.
    static let variants = [
        "copies/original.jpg", "original-caption.jpg", "export/original.png", "mail/original-small.jpg",
        "mail/original-q60.jpg", "web/original.webp", "crop/original-crop.jpg",
    ]

    init() throws {
        tree = try TemporaryDirectory()
        let root = tree.path + "/photos"
        var exif = ExifFields(dateTimeOriginal: "2023:07:14 10:00:00", make: "Canon", model: "EOS R6")
        exif.setPosition(latitude: 48.85, longitude: 2.35)
        try DuplicateFixtures.writePicture(root + "/original.jpg", seed: 1, width: 640, height: 480, exif: exif)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/original.jpg")))
        try FileManager.default.createDirectory(atPath: root + "/copies", withIntermediateDirectories: true)
        try Data(original).write(to: URL(fileURLWithPath: root + "/copies/original.jpg"))
        try Data(DuplicateFixtures.withComment(original)).write(to: URL(fileURLWithPath: root + "/original-caption.jpg"))
        for (folder, file, change) in [
            ("export", "original.png", PictureVariants.Change.png), ("mail", "original-small.jpg", .halfSize),
            ("mail", "original-q60.jpg", .quality60), ("web", "original.webp", .webp), ("crop", "original-crop.jpg", .crop3),
        ] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            try PictureVariants.write(change, of: root + "/original.jpg", to: root + "/" + folder + "/" + file)
        }
        // Distinct photos.
        for seed in 2...6 {
            try DuplicateFixtures.writePicture(root + "/other/\(seed).jpg", seed: UInt64(seed), exif: ExifFields(dateTimeOriginal: "2023:07:1\(seed) 09:00:00"))
        }
        // A burst: near-identical frames 0.2 s apart.
        for frame in 0..<5 {
            try DuplicateFixtures.writePicture(
                root + "/burst/IMG_\(2000 + frame).JPG", seed: 40, shift: frame, noise: 3,
                exif: ExifFields(dateTimeOriginal: "2023:08:01 12:00:0\(frame / 5)", subSecTimeOriginal: "\(frame * 2)00", make: "Apple", model: "iPhone 15"))
        }
        // RAW+JPEG of one shot, and an edit beside its original.
        try FileManager.default.createDirectory(atPath: root + "/raw", withIntermediateDirectories: true)
        try Data(PhotoFixtures.cfaDNG(width: 64, height: 48, dateTime: "2023:09:09 08:30:15")).write(to: URL(fileURLWithPath: root + "/raw/IMG_0001.DNG"))
        try DuplicateFixtures.writePicture(root + "/raw/IMG_0001.JPG", seed: 50, exif: ExifFields(dateTimeOriginal: "2023:09:09 08:30:15", make: "Shoebox", model: "CFA fixture"))
        try DuplicateFixtures.writePicture(root + "/edits/IMG_1234.JPG", seed: 60)
        try PictureVariants.write(.quality60, of: root + "/edits/IMG_1234.JPG", to: root + "/edits/IMG_E1234.JPG")
        // The original is the oldest file.
        try DuplicateFixtures.setModified(root + "/original.jpg", 1_600_000_000)
        for variant in Self.variants { try DuplicateFixtures.setModified(root + "/" + variant, 1_700_000_000) }
        let indexed = try ShoeboxProcess.runWithDeadline(["index", root, "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
    }

    func run(_ arguments: [String]) throws -> ShoeboxProcess.Output {
        try ShoeboxProcess.runWithDeadline(arguments + ["--db", db], environment: environment, deadline: .seconds(180))
    }

    func json(_ arguments: [String]) throws -> Any {
        let output = try run(arguments)
        #expect(output.status == 0, "\(output.stderr)")
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
    }
}

/// The groups of `duplicates --json` as (kind, keep, reason, [(path, match)]).
private func groups(_ value: Any) -> [(kind: String, keep: String, reason: String, photos: [String], matches: [String])] {
    let groups = (value as? [String: Any])?["groups"] as? [[String: Any]] ?? []
    return groups.map { group in
        let photos = group["photos"] as? [[String: Any]] ?? []
        return (group["kind"] as? String ?? "", group["keep"] as? String ?? "", group["reason"] as? String ?? "",
                photos.map { $0["path"] as? String ?? "" }, photos.map { $0["match"] as? String ?? "" })
    }
}

@Suite("shoebox duplicates", .serialized)
struct DuplicatesCommandTests {
    @Test("one group holds the photo and all seven variants; distinct photos, the burst, RAW+JPEG and the edit are in none")
    func tiersAndKeep() throws {
        let library = try DuplicateLibrary()
        let found = groups(try library.json(["duplicates", "--json"]))
        #expect(found.count == 1, "\(found)")
        let group = try #require(found.first)
        #expect(group.kind == "similar")
        #expect(group.keep == "original.jpg")
        #expect(Set(group.photos) == Set(["original.jpg"] + DuplicateLibrary.variants))
        #expect(group.photos.first == "original.jpg")
        #expect(!group.reason.isEmpty)
        let match = Dictionary(uniqueKeysWithValues: zip(group.photos, group.matches))
        #expect(match["original.jpg"] == "keep")
        #expect(match["copies/original.jpg"] == "exact")
        #expect(match["original-caption.jpg"] == "same-picture")
        #expect(match["mail/original-q60.jpg"] == "similar")

        // Tiers: exact finds the copy only; same-picture adds the caption edit.
        let exact = groups(try library.json(["duplicates", "--json", "--tier", "exact"]))
        #expect(exact.map(\.kind) == ["exact"])
        #expect(exact.first.map { Set($0.photos) } == ["original.jpg", "copies/original.jpg"])
        #expect(exact.first?.reason == "oldest file")
        let same = groups(try library.json(["duplicates", "--json", "--tier", "same-picture"]))
        #expect(same.count == 1)
        #expect(same.first.map { Set($0.photos).isSuperset(of: ["original.jpg", "copies/original.jpg", "original-caption.jpg"]) } == true)
        #expect(same.first?.kind == "same-picture")

        // Text for people names the kept file.
        let text = try library.run(["duplicates"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("keep original.jpg"), "\(text.stdout)")
    }

    @Test("the demo photos, one layout in many colours, are in no group (and no group chains them)")
    func demoPhotos() throws {
        let tree = try TemporaryDirectory()
        let root = tree.path + "/photos", db = tree.path + "/index.sqlite"
        for file in DemoLibrary.files() {
            let url = URL(fileURLWithPath: root + "/" + file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        #expect(try ShoeboxProcess.runWithDeadline(["index", root, "--db", db]).status == 0)
        let output = try ShoeboxProcess.runWithDeadline(
            ["duplicates", "--json", "--db", db], environment: ["XDG_CACHE_HOME": tree.path + "/cache"], deadline: .seconds(180))
        #expect(output.status == 0, "\(output.stderr)")
        let found = groups(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)))
        #expect(found.isEmpty, "\(found.map(\.photos))")
    }

    @Test("photos --json: stacks for the burst, RAW+JPEG and the edit; duplicateOf names the kept file")
    func stacksAndDuplicateOf() throws {
        let library = try DuplicateLibrary()
        _ = try library.json(["duplicates", "--json"])
        let photos = try #require(try library.json(["photos", "--json"]) as? [[String: Any]])
        let byPath = Dictionary(uniqueKeysWithValues: photos.map { ($0["path"] as! String, $0) })
        func stack(_ path: String) -> Int? { byPath[path]?["stack"] as? Int }
        let burst = (0..<5).map { stack("burst/IMG_\(2000 + $0).JPG") }
        #expect(burst.allSatisfy { $0 != nil && $0 == burst[0] }, "\(burst)")
        #expect(stack("raw/IMG_0001.DNG") != nil)
        #expect(stack("raw/IMG_0001.DNG") == stack("raw/IMG_0001.JPG"))
        #expect(stack("edits/IMG_E1234.JPG") != nil)
        #expect(stack("edits/IMG_E1234.JPG") == stack("edits/IMG_1234.JPG"))
        #expect(Set([burst[0], stack("raw/IMG_0001.JPG"), stack("edits/IMG_1234.JPG")]).count == 3)
        #expect(stack("original.jpg") == nil)
        #expect(stack("other/2.jpg") == nil)
        // The cover is the stack's id: the JPEG of RAW+JPEG, the burst's first frame.
        #expect((byPath["raw/IMG_0001.JPG"]?["stack"] as? Int) != nil)
        #expect(byPath["original.jpg"]?["duplicateOf"] is NSNull)
        for variant in DuplicateLibrary.variants { #expect(byPath[variant]?["duplicateOf"] as? String == "original.jpg", "\(variant)") }
        #expect(byPath["burst/IMG_2001.JPG"]?["duplicateOf"] is NSNull)

        // Stable across runs: indexing again changes no stack.
        #expect(try library.run(["index", library.root]).status == 0)
        let again = try #require(try library.json(["photos", "--json"]) as? [[String: Any]])
        #expect(again.map { $0["stack"] as? Int } == photos.map { $0["stack"] as? Int })
    }

    @Test("an incremental run finds the stacks of the folders it changed, as a fresh index of the same tree does")
    func stacksAfterIncrementalRuns() throws {
        let library = try DuplicateLibrary()
        let root = library.root
        // A sixth burst frame 0.2 s after the fifth; the RAW of RAW+JPEG gone; a new RAW+JPEG pair at
        // the root (the root's own scope), the other folders untouched.
        try DuplicateFixtures.writePicture(
            root + "/burst/IMG_2005.JPG", seed: 40, shift: 5, noise: 3,
            exif: ExifFields(dateTimeOriginal: "2023:08:01 12:00:01", subSecTimeOriginal: "000", make: "Apple", model: "iPhone 15"))
        try FileManager.default.removeItem(atPath: root + "/raw/IMG_0001.DNG")
        try Data(PhotoFixtures.cfaDNG(width: 64, height: 48, dateTime: "2023:10:10 10:10:10"))
            .write(to: URL(fileURLWithPath: root + "/IMG_0009.DNG"))
        try DuplicateFixtures.writePicture(
            root + "/IMG_0009.JPG", seed: 70, exif: ExifFields(dateTimeOriginal: "2023:10:10 10:10:10", make: "Shoebox", model: "CFA fixture"))
        #expect(try library.run(["index", root, "--prune"]).status == 0)

        /// The stacks as sets of paths, whatever their ids.
        func stacks(_ db: String) throws -> Set<Set<String>> {
            let output = try ShoeboxProcess.runWithDeadline(["photos", "--json", "--db", db], environment: library.environment)
            let photos = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
            var members: [Int: Set<String>] = [:]
            for photo in photos { if let stack = photo["stack"] as? Int { members[stack, default: []].insert(photo["path"] as! String) } }
            return Set(members.values)
        }
        let incremental = try stacks(library.db)
        #expect(incremental.contains(Set((0...5).map { "burst/IMG_\(2000 + $0).JPG" })), "\(incremental)")
        #expect(incremental.contains(["IMG_0009.DNG", "IMG_0009.JPG"]), "\(incremental)")
        #expect(incremental.contains(["edits/IMG_1234.JPG", "edits/IMG_E1234.JPG"]), "\(incremental)")
        #expect(!incremental.contains { $0.contains("raw/IMG_0001.JPG") }, "\(incremental)")

        let fresh = library.tree.path + "/fresh.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", root, "--db", fresh]).status == 0)
        #expect(try stacks(fresh) == incremental)
    }

    @Test("thumbnails makes the fingerprints, so duplicates decodes nothing more")
    func thumbnailsMakeFingerprints() throws {
        let library = try DuplicateLibrary()
        let thumbnails = try library.run(["thumbnails"])
        #expect(thumbnails.status == 0, "thumbnails exited \(thumbnails.status): \(thumbnails.stderr.suffix(2000))")
        // With libvips unavailable, duplicates can still group from the stored fingerprints.
        let output = try ShoeboxProcess.runWithDeadline(
            ["duplicates", "--json", "--db", library.db], environment: library.environment.merging(["SHOEBOX_LIBVIPS": "libvips-not-installed.so.42"]) { $1 })
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("libvips could not start"), "\(output.stderr)")
        let found = groups(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)))
        #expect(found.count == 1)
        #expect(found.first?.photos.count == 1 + DuplicateLibrary.variants.count)
    }
}

@Suite("shoebox duplicates --move-extras and --restore", .serialized)
struct DuplicatesMoveTests {
    /// A library of one picture under three names (one with spaces, one not UTF-8) and one changed later.
    static func library() throws -> (tree: TemporaryDirectory, root: String, db: String, names: [[UInt8]], bytes: [UInt8]) {
        let tree = try TemporaryDirectory()
        let root = tree.path + "/photos"
        try DuplicateFixtures.writePicture(root + "/keep me.jpg", seed: 7, exif: ExifFields(dateTimeOriginal: "2020:01:01 10:00:00"))
        try DuplicateFixtures.setModified(root + "/keep me.jpg", 1_500_000_000)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/keep me.jpg")))
        let names: [[UInt8]] = [Array("copy of keep me.jpg".utf8), Array("sub dir/".utf8) + [0x63, 0xFF, 0x20, 0x78, 0x2E, 0x6A, 0x70, 0x67]]
        try FileManager.default.createDirectory(atPath: root + "/sub dir", withIntermediateDirectories: true)
        for name in names {
            let path = Array((root + "/").utf8) + name + [0]
            let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
            try #require(fd >= 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
        let db = tree.path + "/index.sqlite"
        #expect(try ShoeboxProcess.runWithDeadline(["index", root, "--db", db]).status == 0)
        return (tree, root, db, names, bytes)
    }

    static func contents(_ path: [UInt8]) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    @Test("extras leave the tree keeping relative paths, with a manifest; restore puts them back byte for byte")
    func moveAndRestore() throws {
        let (tree, root, db, names, bytes) = try Self.library()
        let environment = ["XDG_CACHE_HOME": tree.path + "/cache"]
        let moved = try ShoeboxProcess.runWithDeadline(["duplicates", "--move-extras", tree.path + "/extras", "--db", db], environment: environment)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("Moved 2 files"), "\(moved.stdout)")
        #expect(Self.contents(Array((root + "/keep me.jpg").utf8)) == bytes)
        for name in names {
            #expect(Self.contents(Array((root + "/").utf8) + name) == nil)
            #expect(Self.contents(Array((tree.path + "/extras/").utf8) + name) == bytes)
        }
        let manifestPath = tree.path + "/extras/shoebox-moved-1.json"
        // One JSON object per line: the header, then each file.
        let lines = try String(contentsOfFile: manifestPath, encoding: .utf8).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2 && header["root"] as? String == root)
        let files = try lines.dropFirst().map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(files.count == 2)
        #expect(files.allSatisfy { ($0["sha256"] as? String)?.count == 64 && ($0["size"] as? Int) == bytes.count && ($0["keptPath"] as? String) == "keep me.jpg" })
        #expect(files.contains { $0["pathBytes"] != nil })

        let restored = try ShoeboxProcess.runWithDeadline(["duplicates", "--restore", manifestPath, "--db", db], environment: environment)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("Put back 2 files"), "\(restored.stdout)")
        for name in names {
            #expect(Self.contents(Array((root + "/").utf8) + name) == bytes)
            #expect(Self.contents(Array((tree.path + "/extras/").utf8) + name) == nil)
        }
    }

    @Test("a file changed after it was hashed is not moved, and the output says so; a folder inside the library is refused")
    func changedFile() throws {
        let (tree, root, db, names, bytes) = try Self.library()
        let environment = ["XDG_CACHE_HOME": tree.path + "/cache"]
        #expect(try ShoeboxProcess.runWithDeadline(["duplicates", "--db", db], environment: environment).status == 0)
        let changed = root + "/copy of keep me.jpg"
        try Data(bytes + [0x00, 0x01]).write(to: URL(fileURLWithPath: changed))
        let moved = try ShoeboxProcess.runWithDeadline(["duplicates", "--move-extras", tree.path + "/extras", "--db", db], environment: environment)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.contains("not moved: copy of keep me.jpg: it changed since it was hashed"), "\(moved.stdout)")
        #expect(Self.contents(Array(changed.utf8)) == bytes + [0x00, 0x01])
        #expect(Self.contents(Array((tree.path + "/extras/").utf8) + names[1]) == bytes)

        let inside = try ShoeboxProcess.runWithDeadline(["duplicates", "--move-extras", root + "/dups", "--db", db], environment: environment)
        #expect(inside.status != 0)
        #expect(inside.stderr.contains("inside the library folder"), "\(inside.stderr)")
    }
}
