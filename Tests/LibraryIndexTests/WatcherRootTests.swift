import Foundation
import LibraryIndex
import PhotoFixtures
import Testing

@Suite("Watching a library whose folder goes away: said once, nothing removed meanwhile, watched again once back")
struct WatcherRootTests {
    /// Short waits for a root that went away, so the tests take seconds.
    let timing = LibraryWatcher.Timing(
        quiet: .milliseconds(300), maximumDelay: .seconds(2), openFileGrace: .seconds(3), fallbackInterval: .milliseconds(300),
        rootCheckInitial: .milliseconds(100), rootCheckMaximum: .milliseconds(400), rootCheckInterval: .milliseconds(200))

    /// A watched library of `count` photos, indexed.
    private func watchedLibrary(count: Int, seed: UInt64, timing: LibraryWatcher.Timing) throws
        -> (tree: TemporaryDirectory, library: SampleLibrary, store: LibraryStore, recorder: WatchRecorder)
    {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: count, seed: seed)
        try library.write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: timing))
        let indexed = try recorder.wait(seconds: 10) { try store.photoCount() == count }
        try #require(indexed, "the catch-up run")
        return (tree, library, store, recorder)
    }

    /// Waits `seconds` while checking that the index keeps `count` rows, none marked missing;
    /// returns the first count that differed, if any.
    private func rowsKept(_ store: LibraryStore, count: Int, for seconds: Double, recorder: WatchRecorder) throws -> String? {
        var changed: String?
        _ = try recorder.wait(seconds: seconds) {
            let (rows, missing) = (try store.photoCount(), try store.missingCount())
            if changed == nil && (rows != count || missing != 0) { changed = "\(rows) rows, \(missing) missing" }
            return false
        }
        return changed
    }

    @Test("Root moved away and back: said once, nothing removed while away, a photo added after its return is indexed")
    func movedAwayAndBack() throws {
        let (tree, _, store, recorder) = try watchedLibrary(count: 20, seed: 7, timing: timing)

        try FileManager.default.moveItem(atPath: tree.path + "/photos", toPath: tree.path + "/away")
        let noticed = recorder.wait(seconds: 5) { !recorder.rootGoneReasons.isEmpty }
        #expect(noticed)
        #expect(recorder.rootGoneReasons.first?.contains("moved") == true, "\(recorder.rootGoneReasons)")
        // Changes in the moved tree, and a while away: the index stays as it was.
        try tree.write("away/while-away.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let changedWhileAway = try rowsKept(store, count: 20, for: 1.5, recorder: recorder)
        #expect(changedWhileAway == nil, "while away: \(changedWhileAway ?? "")")
        #expect(recorder.rootGoneReasons.count == 1, "said once: \(recorder.rootGoneReasons)")

        try FileManager.default.moveItem(atPath: tree.path + "/away", toPath: tree.path + "/photos")
        let back = recorder.wait(seconds: 5) { recorder.rootReturns == 1 }
        #expect(back)
        try tree.write("photos/after/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let paths = { Set(try store.photos().map(\.path.string)) }
        let indexed = try recorder.wait(seconds: 5) { try paths().isSuperset(of: ["after/new.jpg", "while-away.jpg"]) }
        let rows = try store.photoCount()
        #expect(indexed, "\(rows) rows")
        #expect(try store.photoCount() == 22)
        #expect(try store.missingCount() == 0)
    }

    @Test("Root replaced by another folder of the same name: the new folder is watched")
    func replacedByAnotherFolder() throws {
        let (tree, library, store, recorder) = try watchedLibrary(count: 10, seed: 8, timing: timing)

        // A sync tool's swap: the new copy is renamed into place over the old one's name.
        try library.write(to: tree.path + "/incoming")
        try FileManager.default.moveItem(atPath: tree.path + "/photos", toPath: tree.path + "/old")
        try FileManager.default.moveItem(atPath: tree.path + "/incoming", toPath: tree.path + "/photos")
        let back = recorder.wait(seconds: 5) { recorder.rootReturns >= 1 }
        #expect(back, "\(recorder.rootGoneReasons)")

        try tree.write("photos/after/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let indexed = try recorder.wait(seconds: 5) { try store.photos().contains { $0.path.string == "after/new.jpg" } }
        #expect(indexed)
        #expect(try store.photoCount() == 11)
        #expect(try store.missingCount() == 0)
    }

    @Test("Root deleted and recreated: nothing removed while it is gone, its photos and a new one indexed once it is back")
    func deletedAndRecreated() throws {
        let (tree, library, store, recorder) = try watchedLibrary(count: 20, seed: 9, timing: timing)

        try FileManager.default.removeItem(atPath: tree.path + "/photos")
        let noticed = recorder.wait(seconds: 5) { !recorder.rootGoneReasons.isEmpty }
        #expect(noticed)
        let changedWhileAway = try rowsKept(store, count: 20, for: 1.5, recorder: recorder)
        #expect(changedWhileAway == nil, "while deleted: \(changedWhileAway ?? "")")

        // Restored from a backup: the same files, written anew.
        try library.write(to: tree.path + "/photos")
        let back = recorder.wait(seconds: 5) { recorder.rootReturns == 1 }
        #expect(back)
        try tree.write("photos/after/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let indexed = try recorder.wait(seconds: 5) { try store.photos().contains { $0.path.string == "after/new.jpg" } }
        #expect(indexed)
        #expect(try store.photoCount() == 21)
        #expect(try store.missingCount() == 0)
        #expect(recorder.finishedRuns.allSatisfy { $0.removed == 0 })
    }

    @Test("Root back but empty (a mount point without its disk): every row kept, marked missing, as an index run would; new photos still found")
    func backEmpty() throws {
        let (tree, library, store, recorder) = try watchedLibrary(count: 20, seed: 10, timing: timing)

        try FileManager.default.removeItem(atPath: tree.path + "/photos")
        let noticed = recorder.wait(seconds: 5) { !recorder.rootGoneReasons.isEmpty }
        #expect(noticed)
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: false)
        let marked = try recorder.wait(seconds: 5) { try store.missingCount() == 20 }
        let missing = try store.missingCount()
        #expect(marked, "\(missing) marked missing")
        #expect(try store.photoCount() == 20)

        // Watched again: a new photo is found, and the old ones coming back clear their mark.
        try tree.write("photos/after/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let indexed = try recorder.wait(seconds: 5) { try store.photos().contains { $0.path.string == "after/new.jpg" } }
        #expect(indexed)
        try library.write(to: tree.path + "/photos")
        let cleared = try recorder.wait(seconds: 5) { try store.missingCount() == 0 }
        #expect(cleared)
        #expect(try store.photoCount() == 21)
        #expect(recorder.finishedRuns.allSatisfy { $0.removed == 0 })
    }

    @Test("Periodic runs (watches used up) are said once, stop while the root is away, and find new photos once it is back")
    func fallbackWhileAway() throws {
        var limited = timing
        limited.watchLimit = 1
        let (tree, library, store, recorder) = try watchedLibrary(count: 20, seed: 11, timing: limited)
        #expect(recorder.fallbackReasons.count == 1)

        try FileManager.default.removeItem(atPath: tree.path + "/photos")
        let noticed = recorder.wait(seconds: 5) { !recorder.rootGoneReasons.isEmpty }
        #expect(noticed)
        let changedWhileAway = try rowsKept(store, count: 20, for: 1.5, recorder: recorder)
        #expect(changedWhileAway == nil, "while deleted: \(changedWhileAway ?? "")")

        try library.write(to: tree.path + "/photos")
        try tree.write("photos/after/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let indexed = try recorder.wait(seconds: 5) { try store.photos().contains { $0.path.string == "after/new.jpg" } }
        #expect(indexed)
        #expect(try store.missingCount() == 0)
        #expect(recorder.fallbackReasons.count == 1, "said once: \(recorder.fallbackReasons)")
    }
}
