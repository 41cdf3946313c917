import WallClock
import Foundation
import GRDB
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Places
import Testing

/// Runs an index to completion and returns the last progress.
@discardableResult
func index(_ root: String, into store: LibraryStore, settings: IndexSettings = .default, places: PlaceTable? = nil) async throws -> IndexProgress {
    var last = IndexProgress()
    for try await progress in try Indexer(root: root, store: store, settings: settings, places: places).run() {
        last = progress
    }
    return last
}

func photosByPath(_ store: LibraryStore) throws -> [String: IndexedPhoto] {
    Dictionary(uniqueKeysWithValues: try store.photos().map { ($0.path.string, $0) })
}

@Suite("Indexer")
struct IndexerTests {
    @Test("A fresh index stores every photo with its EXIF date, display size and format")
    func freshIndex() async throws {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: 60, seed: 7)
        try library.write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)

        let progress = try await index(tree.path + "/photos", into: store)

        #expect(progress.phase == .completed)
        #expect(progress.added == 60)
        #expect(progress.failed == 0)
        let photos = try photosByPath(store)
        #expect(photos.count == 60)
        for file in library.files() {
            let photo = try #require(photos[file.path])
            #expect(photo.captureDate.source == .dateTimeOriginal)
            #expect(photo.captureDate.local.iso8601.prefix(19) == file.captured.replacingOccurrences(of: " ", with: "T").replacingOccurrences(of: ":", with: "-", options: [], range: file.captured.startIndex..<file.captured.index(file.captured.startIndex, offsetBy: 10)))
            #expect(photo.format == .jpeg)
            let pixel = try #require(photo.pixelSize)
            let display = try #require(photo.displaySize)
            if let orientation = photo.orientation, orientation >= 5 {
                #expect(display == pixel.transposed)
            } else {
                #expect(display == pixel)
            }
        }
    }

    @Test("Re-running on an unchanged tree opens no file")
    func unchangedRerunOpensNothing() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 40).write(to: tree.path + "/photos")
        try tree.write("photos/notes.txt", Array("not a photo".utf8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let first = try await index(tree.path + "/photos", into: store)
        #expect(first.opened == 41)
        #expect(first.skipped == 1)

        // Overwrite one photo with garbage of the same size and the same modification time:
        // if the re-run opened it, its row would turn into an error.
        let victim = tree.url("photos/" + SampleLibrary(count: 40).files()[3].path).path
        var before = stat()
        #expect(stat(victim, &before) == 0)
        try Data(repeating: 0xAB, count: Int(before.st_size)).write(to: URL(fileURLWithPath: victim))
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, victim, &times, 0) == 0)

        let second = try await index(tree.path + "/photos", into: store)
        #expect(second.opened == 0)
        #expect(second.unchanged == 40)
        #expect(second.skipped == 1)
        #expect(second.added + second.updated + second.removed + second.failed == 0)
        #expect(try store.photos().allSatisfy { $0.error == nil })
    }

    @Test("Added, modified and deleted files are followed")
    func followsChanges() async throws {
        let tree = try TemporaryDirectory()
        let root = tree.path + "/photos"
        try SampleLibrary(count: 20).write(to: root)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(root, into: store)
        let files = SampleLibrary(count: 20).files()

        try FileManager.default.removeItem(atPath: root + "/" + files[0].path)
        try tree.write("photos/" + files[1].path, PhotoFixtures.jpeg(width: 300, height: 200, exif: ExifFields(dateTimeOriginal: "2024:05:06 07:08:09")))
        try tree.write("photos/new/IMG_20190101_120000.jpg", PhotoFixtures.jpeg(width: 10, height: 10))

        let progress = try await index(root, into: store)
        #expect(progress.added == 1)
        #expect(progress.updated == 1)
        #expect(progress.removed == 1)
        #expect(progress.unchanged == 18)
        let photos = try photosByPath(store)
        #expect(photos.count == 20)
        #expect(photos[files[0].path] == nil)
        #expect(photos[files[1].path]?.displaySize == PixelSize(width: 300, height: 200))
        #expect(photos[files[1].path]?.captureDate.local == LocalDateTime(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9))
        let fromName = try #require(photos["new/IMG_20190101_120000.jpg"])
        #expect(fromName.captureDate.source == .filename)
        #expect(fromName.captureDate.local == LocalDateTime(year: 2019, month: 1, day: 1, hour: 12))
    }

    @Test("A broken photo is a row with its error; a non-image is skipped and counted")
    func brokenAndNonImages() async throws {
        let tree = try TemporaryDirectory()
        let good = PhotoFixtures.jpeg(width: 40, height: 30, exif: ExifFields(dateTimeOriginal: "2020:02:03 04:05:06"))
        try tree.write("good.jpg", good)
        try tree.write("truncated.jpg", Array(good.prefix(5)))
        try tree.write("readme.txt", Array("hello".utf8))
        try tree.write("empty.jpg", [])
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)

        let progress = try await index(tree.path, into: store)

        let photos = try photosByPath(store)
        #expect(Set(photos.keys) == ["good.jpg", "truncated.jpg", "empty.jpg"])
        let broken = try #require(photos["truncated.jpg"])
        #expect(broken.error != nil)
        #expect(broken.captureDate.source == .fileModified)
        #expect(photos["empty.jpg"]?.error == "The file is empty.")
        #expect(progress.failed == 2)
        #expect(progress.skipped == 1)
    }

    @Test("A file that turns from a non-image into a photo, or back, moves between photo and ignored rows")
    func imageAndNonImageSwapPlaces() async throws {
        let tree = try TemporaryDirectory()
        let photo = PhotoFixtures.jpeg(width: 40, height: 30, exif: ExifFields(dateTimeOriginal: "2020:02:03 04:05:06"))
        try tree.write("photos/a.jpg", Array("not a photo yet".utf8))
        try tree.write("photos/b.jpg", photo)
        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)
        try await index(tree.path + "/photos", into: store)
        #expect(Set(try photosByPath(store).keys) == ["b.jpg"])

        try tree.write("photos/a.jpg", photo)
        try tree.write("photos/b.jpg", Array("a photo no longer".utf8))
        let swapped = try await index(tree.path + "/photos", into: store)
        #expect(swapped.added == 1)
        #expect(swapped.removed == 1)
        #expect(swapped.skipped == 1)
        #expect(Set(try photosByPath(store).keys) == ["a.jpg"])
        let ignored = try await DatabaseQueue(path: path).read { db in
            try Data.fetchAll(db, sql: "SELECT path FROM ignoredFile").map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(ignored == ["b.jpg"])

        let again = try await index(tree.path + "/photos", into: store)
        #expect(again.unchanged == 1 && again.skipped == 1 && again.opened == 0)
    }

    @Test("File names that are not UTF-8 are indexed; hidden files and symlinks are not")
    func namesAndLinks() async throws {
        let tree = try TemporaryDirectory()
        let photo = PhotoFixtures.jpeg(width: 8, height: 8)
        try tree.write("a/plain.jpg", photo)
        try tree.write(".hidden/secret.jpg", photo)
        try tree.write("a/.dot.jpg", photo)
        // A name with an invalid UTF-8 byte (0xFF), written through the C API.
        let badName = Array((tree.path + "/a/caf").utf8) + [0xFF] + Array(".jpg".utf8) + [0]
        let fd = badName.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) } }
        #expect(fd >= 0)
        _ = photo.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/a/loop", withDestinationPath: tree.path)
        try FileManager.default.createSymbolicLink(atPath: tree.path + "/a/link.jpg", withDestinationPath: tree.path + "/a/plain.jpg")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)

        try await index(tree.path, into: store)

        let paths = try store.photos().map(\.path)
        #expect(paths.count == 2)
        #expect(paths.contains(RelativePath("a/plain.jpg")))
        #expect(paths.contains(RelativePath(bytes: Array("a/caf".utf8) + [0xFF] + Array(".jpg".utf8))))
    }

    @Test("An unreadable folder keeps its rows, and the run says so")
    func unreadableFolderKeepsRows() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("open/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("locked/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        try tree.write("locked/deeper/c.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try await index(tree.path, into: store)
        #expect(try store.photoCount() == 3)

        // As root, chmod 000 does not stop opendir: the permission case itself runs as an
        // unprivileged user in the CLI tests. Here: whoever runs it, no row may be lost.
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: tree.path + "/locked")
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.path + "/locked") }
        let progress = try await index(tree.path, into: store)
        #expect(try store.photoCount() == 3)
        if getuid() != 0 {
            #expect(progress.unreadableDirectories == [RelativePath("locked")])
        }
        #expect(progress.removed == 0)
    }

    @Test("A database of another program is refused and left untouched")
    func refusesForeignDatabase() throws {
        let tree = try TemporaryDirectory()
        let path = tree.path + "/other.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        #expect(throws: IndexError.self) { try LibraryStore(path: path, mode: .readWrite) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        try tree.write("text.sqlite", Array("just text".utf8))
        let error = #expect(throws: IndexError.self) { try LibraryStore(path: tree.path + "/text.sqlite", mode: .readWrite) }
        #expect(error?.code == .notAShoeboxDatabase)
    }

    @Test("Readers see a consistent database while a crawl writes")
    func readersAreNotBlocked() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 1500).write(to: tree.path + "/photos")
        let databasePath = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: databasePath, mode: .readWrite)
        var settings = IndexSettings.default
        settings.batchSize = 50

        async let crawl = index(tree.path + "/photos", into: store, settings: settings)
        var reads = 0
        var lastCount = 0
        let reader = try LibraryStore(path: databasePath, mode: .readOnly)
        for _ in 0..<50 {
            let count = try reader.photoCount()
            #expect(count >= lastCount)
            lastCount = count
            reads += 1
            try await Task.sleep(for: .milliseconds(5))
        }
        let progress = try await crawl
        #expect(progress.added == 1500)
        #expect(reads == 50)
        #expect(try reader.photoCount() == 1500)
    }
}
