import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Synchronization
import Testing

/// Runs an index with `prune` and returns the last progress.
private func index(_ root: String, into store: LibraryStore, prune: Bool, settings: IndexSettings = .default) async throws -> IndexProgress {
    var last = IndexProgress()
    for try await progress in try Indexer(root: root, store: store, settings: settings).run(prune: prune) {
        last = progress
    }
    return last
}

@Suite("Data safety: removals, checkpoints, backups, read-only copies")
struct DataSafetyTests {
    @Test("A root that is suddenly empty keeps every row, marked missing; the files coming back clears the mark; --prune removes")
    func emptiedRootKeepsRows() async throws {
        let tree = try TemporaryDirectory()
        let photos = tree.path + "/photos"
        try SampleLibrary(count: 30, seed: 3).write(to: photos)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        _ = try await index(photos, into: store, prune: false)

        // The drive is "unmounted": the folder is there, but empty.
        try FileManager.default.moveItem(atPath: photos, toPath: tree.path + "/away")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: false)
        let empty = try await index(photos, into: store, prune: false)
        #expect(empty.removed == 0)
        #expect(empty.missing == 30)
        #expect(empty.photosBefore == 30)
        #expect(try store.photoCount() == 30)
        #expect(try store.missingCount() == 30)
        var listed: [IndexedPhoto] = []
        try store.forEachPhoto(onlyMissing: true) { listed.append($0) }
        #expect(listed.count == 30 && listed.allSatisfy { $0.missingSince != nil })

        // Mounted again: the rows are plain rows again, and nothing was re-read.
        try FileManager.default.removeItem(atPath: photos)
        try FileManager.default.moveItem(atPath: tree.path + "/away", toPath: photos)
        let back = try await index(photos, into: store, prune: false)
        #expect(back.unchanged == 30 && back.opened == 0 && back.missing == 0)
        #expect(try store.missingCount() == 0)

        // Really gone: --prune confirms.
        try FileManager.default.removeItem(atPath: photos)
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: false)
        let pruned = try await index(photos, into: store, prune: true)
        #expect(pruned.removed == 30 && pruned.missing == 0)
        #expect(try store.photoCount() == 0)
    }

    @Test("Removing more than the limit's share of a large library needs --prune; a few deletions do not",
          arguments: [(removed: 11, total: 100, held: true), (removed: 10, total: 100, held: false), (removed: 5, total: 20, held: false)])
    func removalLimit(removed: Int, total: Int, held: Bool) async throws {
        let tree = try TemporaryDirectory()
        let photos = tree.path + "/photos"
        let library = SampleLibrary(count: total, seed: 11)
        try library.write(to: photos)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        _ = try await index(photos, into: store, prune: false)
        for file in library.files().prefix(removed) {
            try FileManager.default.removeItem(atPath: photos + "/" + file.path)
        }
        let run = try await index(photos, into: store, prune: false)
        #expect(run.missing == (held ? removed : 0))
        #expect(run.removed == (held ? 0 : removed))
        #expect(try store.photoCount() == (held ? total : total - removed))
    }

    @Test("The removal limit comes from the settings, and bad settings are refused before a run starts",
          arguments: [
            (IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: 0, batchSize: 0), "batchSize"),
            (IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: 0, batchSize: -1), "batchSize"),
            (IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: -1, batchSize: 10), "jobs"),
            (IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: 0, batchSize: 10, removalLimit: 1.5), "removalLimit"),
            (IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: 0, batchSize: 10, removalLimit: .nan), "removalLimit"),
          ])
    func invalidSettings(settings: IndexSettings, key: String) throws {
        let tree = try TemporaryDirectory()
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let error = #expect(throws: IndexError.self) { try Indexer(root: tree.path, store: store, settings: settings) }
        #expect(error?.code == .invalidSettings)
        #expect(error?.message.contains(key) == true, "\(error?.message ?? "")")
    }

    @Test("After a run the .sqlite file alone holds the whole index; a copy made without its -wal gets a clear message")
    func checkpointAndIncompleteCopy() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 25, seed: 5).write(to: tree.path + "/photos")
        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)

        // Mid-write (the data still in the -wal): copying the main file alone loses the index.
        try FileManager.default.copyItem(atPath: path, toPath: tree.path + "/early.sqlite")
        let early = #expect(throws: IndexError.self) { try LibraryStore(path: tree.path + "/early.sqlite", mode: .readOnly) }
        #expect(early?.code == .databaseIncomplete)
        #expect(early?.message.contains("without its -wal file") == true, "\(early?.message ?? "")")

        _ = try await index(tree.path + "/photos", into: store, prune: false)
        let walSize = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? -1
        #expect(walSize == 0, "the run ends with a TRUNCATE checkpoint")
        try FileManager.default.copyItem(atPath: path, toPath: tree.path + "/copy.sqlite")
        #expect(try LibraryStore(path: tree.path + "/copy.sqlite", mode: .readOnly).photoCount() == 25)
        // The run copies the log itself at its end; SQLite's automatic checkpoints are on again
        // after it, for a long-lived process's next writes.
        #expect(try store.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") } == 1000)
    }

    @Test("`backup` writes a consistent single file while another connection is writing, and never overwrites")
    func backupDuringWrite() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 40, seed: 9).write(to: tree.path + "/photos")
        let path = tree.path + "/index.sqlite"
        let store = try LibraryStore(path: path, mode: .readWrite)
        _ = try await index(tree.path + "/photos", into: store, prune: false)
        let reader = try LibraryStore(path: path, mode: .readOnly)

        // A writer in the middle of a transaction, as a crawl is between the rows of a batch.
        let writer = try DatabaseQueue(path: path)
        try writer.inTransaction { db in
            try db.execute(sql: "DELETE FROM photo WHERE id % 2 = 0")
            try reader.backup(to: tree.path + "/during.sqlite")
            return .rollback
        }
        try writer.close()
        #expect(!FileManager.default.fileExists(atPath: tree.path + "/during.sqlite-wal"))
        let copy = try LibraryStore(path: tree.path + "/during.sqlite", mode: .readOnly)
        #expect(try copy.photoCount() == 40, "the copy holds the last committed state")
        #expect(try copy.root() == (try store.root()))

        let again = #expect(throws: IndexError.self) { try reader.backup(to: tree.path + "/during.sqlite") }
        #expect(again?.code == .destinationExists)
        #expect(try LibraryStore(path: tree.path + "/during.sqlite", mode: .readOnly).photoCount() == 40, "not overwritten")
    }

    @Test("Moving the library to a new root keeps every row; a folder without its photos is refused")
    func relocate() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 20, seed: 4).write(to: tree.path + "/old")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        _ = try await index(tree.path + "/old", into: store, prune: false)
        try FileManager.default.createDirectory(atPath: tree.path + "/elsewhere", withIntermediateDirectories: true)
        let wrong = #expect(throws: IndexError.self) { try store.relocate(to: tree.path + "/elsewhere") }
        #expect(wrong?.code == .relocationMismatch)

        try FileManager.default.moveItem(atPath: tree.path + "/old", toPath: tree.path + "/new")
        let check = try store.relocate(to: tree.path + "/new")
        #expect(check.found == 20 && check.sampled == 20)
        let rerun = try await index(tree.path + "/new", into: store, prune: false)
        #expect(rerun.unchanged == 20 && rerun.opened == 0 && rerun.removed == 0)
    }
}

@Suite("A failed write ends the run's reader threads")
struct WriteFailureTests {
    @Test("A run whose writes fail (disk full) throws diskFull and leaves no reader thread behind")
    func readersEndWhenWritesFail() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 1500, seed: 19).write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        try store.limitSize(toPages: 30)
        let settings = IndexSettings(skipFolders: [], skipFiles: [], skipHidden: true, jobs: 4, batchSize: 10)
        let error = await #expect(throws: IndexError.self) {
            for try await _ in try Indexer(root: tree.path + "/photos", store: store, settings: settings).run() {}
        }
        #expect(error?.code == .diskFull, "\(String(describing: error))")
        // The buffer holds 40 results; 1,500 files keep 4 readers blocked on it unless they are released.
        #expect(IndexDiagnostics.liveReaderThreads(database: store.path) == 0)
    }
}

@Suite("Empty files")
struct EmptyFileTests {
    @Test("An empty file named like a photo is a row with the error \"The file is empty.\"; an empty notes.txt is skipped")
    func emptyPhoto() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("photos/empty.jpg", [])
        try tree.write("photos/EMPTY.HEIC", [])
        try tree.write("photos/notes.txt", [])
        try tree.write("photos/ok.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let progress = try await index(tree.path + "/photos", into: store)
        let rows = try photosByPath(store)
        #expect(Set(rows.keys) == ["empty.jpg", "EMPTY.HEIC", "ok.jpg"])
        #expect(rows["empty.jpg"]?.error == "The file is empty.")
        #expect(rows["EMPTY.HEIC"]?.error == "The file is empty.")
        #expect(progress.failed == 2 && progress.skipped == 1)
    }
}
