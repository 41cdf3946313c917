import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Testing

@Suite("File system edge cases")
struct FileSystemEdgeCaseTests {
    let photo = PhotoFixtures.jpeg(width: 16, height: 12, exif: ExifFields(dateTimeOriginal: "2022:02:02 02:02:02"))

    @Test("Odd names: a newline, 255 bytes, spaces and accents")
    func oddNames() async throws {
        let tree = try TemporaryDirectory()
        let long = String(repeating: "x", count: 251) + ".jpg"
        let names = ["line\nbreak.jpg", long, "été à Noël.jpg", "  spaced  .jpg"]
        for name in names { try tree.write("p/" + name, photo) }
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        try await index(tree.path + "/p", into: store)
        #expect(Set(try store.photos().map(\.path.string)) == Set(names))
    }

    @Test("A folder 200 levels deep")
    func deepFolder() async throws {
        let tree = try TemporaryDirectory()
        let deep = Array(repeating: "d", count: 200).joined(separator: "/")
        try tree.write("p/" + deep + "/deep.jpg", photo)
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        try await index(tree.path + "/p", into: store)
        #expect(try store.photos().map(\.path.string) == [deep + "/deep.jpg"])
    }

    @Test("A 0-byte photo is a row saying it is empty; a 2 GB sparse file of zeros is skipped quickly")
    func emptyAndSparse() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("p/empty.jpg", [])
        let sparse = tree.url("p/huge.jpg")
        #expect(FileManager.default.createFile(atPath: sparse.path, contents: nil))
        let handle = try FileHandle(forWritingTo: sparse)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/p", into: store)
        #expect(progress.skipped == 1)
        #expect(try store.photos().map(\.error) == ["The file is empty."])
        // That only the head of the 2 GB file is read is measured on the tool, in the CLI tests.
    }

    @Test("The root may be relative, end with a slash, or be a symlink: it is the same library", arguments: ["relative", "slash", "symlink"])
    func rootSpellings(spelling: String) async throws {
        let tree = try TemporaryDirectory()
        try tree.write("p/a.jpg", photo)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/link", withDestinationPath: tree.path + "/p")
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        try await index(tree.path + "/p", into: store)

        let root: String
        switch spelling {
        case "relative":
            // Relative to the working directory, spelled through `..` so cwd stays untouched.
            let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
            root = String(repeating: "../", count: depth) + String(tree.path.dropFirst()) + "/p"
        case "slash": root = tree.path + "/p/"
        default: root = tree.path + "/link"
        }
        let again = try await index(root, into: store)
        #expect(again.unchanged == 1)
        #expect(again.removed == 0 && again.added == 0)
    }

    @Test("While another run holds the database, a crawl is refused with a clear message and changes nothing")
    func secondCrawlRefused() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 30).write(to: tree.path + "/p")
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        try await index(tree.path + "/p", into: store)

        // Another run's lock, held the way `shoebox index` holds it (the CLI tests race two real runs).
        let lock = open(tree.path + "/i.sqlite-lock", O_RDWR | O_CREAT, 0o644)
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        try FileManager.default.removeItem(atPath: tree.path + "/p/" + SampleLibrary(count: 30).files()[0].path)
        await #expect {
            try await index(tree.path + "/p", into: store)
        } throws: { error in
            (error as? IndexError)?.code == .indexInProgress && "\(error)".contains("already writing")
        }
        #expect(try store.photoCount() == 30)
        close(lock)
        #expect(try await index(tree.path + "/p", into: store).removed == 1)
    }
}

@Suite("Files changing under the crawler")
struct ChangingFilesTests {
    @Test("Files deleted, truncated or replaced while the crawl runs: no crash, and the next run matches the disk")
    func filesChangeDuringCrawl() async throws {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: 2000, seed: 23)
        try library.write(to: tree.path + "/p")
        let files = library.files().map { tree.path + "/p/" + $0.path }
        let store = try LibraryStore(path: tree.path + "/i.sqlite", mode: .readWrite)
        var settings = IndexSettings.default
        settings.jobs = 1
        settings.batchSize = 20
        settings.removalLimit = 1  // a seventh of the tree is deleted on purpose: no --prune needed

        let deleted = Set(stride(from: 0, to: files.count, by: 7).map { files[$0] })
        let truncated = Set(stride(from: 3, to: files.count, by: 7).map { files[$0] })
        let replaced = Set(stride(from: 5, to: files.count, by: 7).map { files[$0] })
        let replacement = PhotoFixtures.jpeg(width: 321, height: 123, exif: ExifFields(dateTimeOriginal: "2030:01:01 00:00:00"))
        let vandal = Task.detached {
            // Interleave the three kinds of change over the tree, in file order, as the reader goes.
            for path in files {
                if deleted.contains(path) { try? FileManager.default.removeItem(atPath: path) }
                if truncated.contains(path) { truncate(path, 10) }
                if replaced.contains(path) { try? Data(replacement).write(to: URL(fileURLWithPath: path)) }
                if path.hasSuffix("0.jpg") { try await Task.sleep(for: .microseconds(200)) }
            }
        }
        let during = try await index(tree.path + "/p", into: store, settings: settings)
        _ = await vandal.result
        #expect(during.phase == .completed)

        let after = try await index(tree.path + "/p", into: store, settings: settings)
        #expect(after.phase == .completed)
        let photos = try photosByPath(store)
        #expect(photos.count == files.count - deleted.count)
        for path in files {
            let relative = String(path.dropFirst(tree.path.count + 3))
            if deleted.contains(path) {
                #expect(photos[relative] == nil)
            } else if truncated.contains(path) {
                #expect(photos[relative]?.error != nil, "\(relative) was cut to 10 bytes")
            } else if replaced.contains(path) {
                #expect(photos[relative]?.displaySize == PixelSize(width: 321, height: 123))
            } else {
                #expect(photos[relative]?.error == nil)
            }
        }
    }
}
