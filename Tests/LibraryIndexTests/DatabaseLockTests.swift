import Foundation
import LibraryIndex
import PhotoFixtures
import Testing

/// SQLite's POSIX locks on the database survive every store the process opens and closes beside
/// a live one (on Linux, closing any descriptor of a file drops all of the process's POSIX locks on it).
@Suite("The database's SQLite locks within one process")
struct DatabaseLockTests {
    @Test("A reader's lock survives a writer, another reader and a backup opened and closed beside it (as `serve --watch` opens them)")
    func lockSurvivesOtherStores() async throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 6, seed: 8).write(to: tree.path + "/photos")
        let database = tree.path + "/index.sqlite"
        do {
            let store = try LibraryStore(path: database, mode: .readWrite)
            for try await _ in try Indexer(root: tree.path + "/photos", store: store).run() {}
        }

        // Opened before the checks and closed after the last (its close drops the locks too).
        let probe = try LockProbe(path: database)
        func heldHere() throws -> Bool { try probe.holder() == getpid() }
        let reader = try LibraryStore(path: database, mode: .readOnly)
        #expect(try reader.photoCount() == 6)
        #expect(try heldHere(), "an open WAL connection holds a shared lock")

        let writer = try LibraryStore(path: database, mode: .readWrite)
        #expect(try heldHere(), "after a writer opened beside the reader")
        do {
            let other = try LibraryStore(path: database, mode: .readOnly)
            #expect(try other.photoCount() == 6)
        }
        #expect(try heldHere(), "after another reader opened and closed")
        try reader.backup(to: tree.path + "/copy.sqlite")
        #expect(try heldHere(), "after a backup")
        #expect(try writer.photoCount() == 6 && reader.photoCount() == 6)
    }
}

/// A viewer or a command started beside a first index may open the database while the run is
/// still creating its tables.
@Suite("A reader beside a database being created")
struct ReaderDuringCreationTests {
    @Test("A reader opening a database whose tables are still being created waits for them; an old empty file is refused at once")
    func readerWaitsForTheTables() async throws {
        let tree = try TemporaryDirectory()
        let database = tree.path + "/index.sqlite"
        // What a run that has just started leaves for a moment: the file, no tables yet.
        #expect(FileManager.default.createFile(atPath: database, contents: nil))
        let creator = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            _ = try? LibraryStore(path: database, mode: .readWrite)
        }
        creator.start()
        // Without waiting, this open would throw "holds no index".
        let reader = try LibraryStore(path: database, mode: .readOnly)
        #expect(try reader.photoCount() == 0)

        // A file left empty an hour ago is no creation in progress: refused without waiting.
        let old = tree.path + "/old.sqlite"
        #expect(FileManager.default.createFile(atPath: old, contents: nil))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: old)
        let refused = ContinuousClock.now
        #expect { try LibraryStore(path: old, mode: .readOnly) } throws: { error in
            (error as? IndexError)?.code == .databaseIncomplete
        }
        #expect(ContinuousClock.now - refused < .seconds(2.5), "less than the 3 s a creation is waited for")
    }
}
