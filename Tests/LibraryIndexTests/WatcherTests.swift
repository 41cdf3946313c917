import Foundation
import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Synchronization
import Testing

/// Collects a watcher's events on a task, and waits for conditions on them with deadlines.
final class WatchRecorder: Sendable {
    private final class Log: Sendable {
        let events = Mutex<[LibraryWatcher.Event]>([])
    }

    private let log = Log()
    private let watcher: LibraryWatcher

    /// Starts `watcher` on its own thread: nothing here waits on the cooperative pool, which other
    /// tests running in parallel may keep busy.
    init(_ watcher: LibraryWatcher) {
        self.watcher = watcher
        let log = self.log
        watcher.start(onEvent: { event in log.events.withLock { $0.append(event) } })
    }

    deinit { watcher.stop() }

    var finishedRuns: [IndexProgress] {
        log.events.withLock { $0.compactMap { if case .runFinished(let p) = $0 { p } else { nil } } }
    }

    var fallbackReasons: [String] {
        log.events.withLock { $0.compactMap { if case .fallback(let reason) = $0 { reason } else { nil } } }
    }

    /// The reasons of every `rootGone` event so far.
    var rootGoneReasons: [String] {
        log.events.withLock { $0.compactMap { if case .rootGone(let reason, _) = $0 { reason } else { nil } } }
    }

    var rootReturns: Int {
        log.events.withLock { $0.count { if case .rootReturned = $0 { true } else { false } } }
    }

    /// Waits until `condition` holds, polling every 20 ms on this thread, at most `seconds`;
    /// returns whether it held.
    func wait(seconds: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }
}

@Suite("Watching a library: new, changed, deleted and renamed files indexed as they happen")
struct WatcherTests {
    let timing = LibraryWatcher.Timing(quiet: .milliseconds(300), maximumDelay: .seconds(2), openFileGrace: .seconds(3), fallbackInterval: .milliseconds(300))

    @Test("300 photos copied in 5 bursts: all indexed within 5 s of the last file, each read once")
    func bursts() throws {
        let tree = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: true)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: timing))
        let caughtUp = recorder.wait(seconds: 10) { recorder.finishedRuns.count >= 1 }
        #expect(caughtUp, "the catch-up run")

        let files = SampleLibrary(count: 300, seed: 41).files()
        for burst in 0..<5 {
            // Each burst lands in a new dated folder, as a card import does.
            for file in files[(burst * 60)..<(burst * 60 + 60)] {
                try tree.write("photos/import-\(burst)/" + file.path, file.bytes)
            }
            Thread.sleep(forTimeInterval: 0.15)
        }
        let lastFile = ContinuousClock.now
        let indexed = try recorder.wait(seconds: 5) { try store.photoCount() == 300 }
        let count = try store.photoCount()
        #expect(indexed, "\(count) of 300 indexed \(ContinuousClock.now - lastFile) after the last file")
        // Let any trailing run finish, then count how often files were opened.
        _ = recorder.wait(seconds: 2) { false }
        let opened = recorder.finishedRuns.reduce(0) { $0 + $1.opened }
        #expect(opened == 300, "each photo read once, not \(opened) reads over \(recorder.finishedRuns.count) runs")
        #expect(recorder.finishedRuns.count <= 8, "debounced: \(recorder.finishedRuns.count) runs for 5 bursts")
    }

    @Test("A deleted file's row goes; a renamed file moves; a new folder of photos is found")
    func deleteRenameAndNewFolder() throws {
        let tree = try TemporaryDirectory()
        let library = SampleLibrary(count: 40, seed: 5)
        try library.write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: timing))
        let done1 = try recorder.wait(seconds: 10) { try store.photoCount() == 40 }
        #expect(done1)

        let files = library.files()
        try FileManager.default.removeItem(atPath: tree.path + "/photos/" + files[0].path)
        let renamedFrom = tree.path + "/photos/" + files[1].path
        try FileManager.default.moveItem(atPath: renamedFrom, toPath: renamedFrom + ".moved.jpg")
        try FileManager.default.createDirectory(atPath: tree.path + "/photos/new/deeper", withIntermediateDirectories: true)
        try tree.write("photos/new/deeper/a.jpg", PhotoFixtures.jpeg(width: 8, height: 8))

        func paths() throws -> Set<String> { Set(try store.photos().map(\.path.string)) }
        let settled = try recorder.wait(seconds: 5) {
            let now = try paths()
            return !now.contains(files[0].path) && !now.contains(files[1].path)
                && now.contains(files[1].path + ".moved.jpg") && now.contains("new/deeper/a.jpg")
        }
        let rows = try paths().count
        #expect(settled, "\(rows) rows")
        #expect(try store.photoCount() == 40)

        // A file added later in the new folder is seen too: the folder is watched.
        try tree.write("photos/new/deeper/b.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let done2 = try recorder.wait(seconds: 5) { try paths().contains("new/deeper/b.jpg") }
        #expect(done2)
    }

    @Test("An index kept inside the folder it watches: its own writes start no run, and a new photo is one run")
    func databaseInsideRoot() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 10, seed: 12).write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/photos/index.sqlite", mode: .readWrite)
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: timing))
        let caughtUp = try recorder.wait(seconds: 10) { try store.photoCount() == 10 && recorder.finishedRuns.count >= 1 }
        #expect(caughtUp, "the catch-up run")

        let runsBefore = recorder.finishedRuns.count
        try tree.write("photos/new.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        // The row is written before its run is recorded as finished: wait for both.
        let indexed = try recorder.wait(seconds: 5) { try store.photoCount() == 11 && recorder.finishedRuns.count > runsBefore }
        #expect(indexed)
        // Quiet (300 ms) and the longest delay (2 s) have passed several times over: a watcher
        // that took the run's own writes for changes would have run again by now, and again.
        let runs = recorder.finishedRuns.count
        Thread.sleep(forTimeInterval: 3)
        #expect(recorder.finishedRuns.count == runs, "runs started by the index's own writes: \(recorder.finishedRuns.count - runs)")
        #expect(try store.photos().allSatisfy { !$0.path.string.hasPrefix("index.sqlite") })
    }

    @Test("A file written slowly is read once, when its writer closes it: never half-read into a row, and other files are not held back meanwhile")
    func slowWrite() throws {
        let tree = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: tree.path + "/photos", withIntermediateDirectories: true)
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: timing))
        let caughtUp = recorder.wait(seconds: 10) { recorder.finishedRuns.count >= 1 }
        #expect(caughtUp)

        // One open, as a camera import or a slow copy makes it: half the photo, a pause longer
        // than the quiet period and than `openFileGrace`, the rest, then the close.
        let bytes = PhotoFixtures.jpeg(width: 64, height: 48, exif: ExifFields(dateTimeOriginal: "2020:01:02 03:04:05"))
        let descriptor = open(tree.path + "/photos/slow.jpg", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
        // A complete photo beside it is indexed meanwhile: the open file holds back only itself.
        try tree.write("photos/other.jpg", PhotoFixtures.jpeg(width: 8, height: 8))

        // Watch the rows all through the pause: any row for slow.jpg now is a half-read.
        var rowsWhileWriting: Set<String> = []
        func slowRow() throws -> IndexedPhoto? { try store.photos().first { $0.path.string == "slow.jpg" } }
        let pause = timing.openFileGrace + .milliseconds(800)
        let otherIndexed = try recorder.wait(seconds: pause.secondsForTests) {
            if let row = try slowRow() { rowsWhileWriting.insert(row.error ?? "a row without error") }
            return false
        } || (try store.photos().contains { $0.path.string == "other.jpg" })
        #expect(otherIndexed, "other.jpg indexed while slow.jpg was still being written")
        #expect(rowsWhileWriting.isEmpty, "slow.jpg read before it was complete: \(rowsWhileWriting.sorted())")

        try handle.write(contentsOf: bytes.suffix(from: bytes.count / 2))
        try handle.close()
        let done = try recorder.wait(seconds: 5) { try slowRow() != nil }
        #expect(done)
        let row = try #require(try slowRow())
        #expect(row.error == nil)
        #expect(row.captureDate.source == .dateTimeOriginal)
        #expect(row.displaySize == PixelSize(width: 64, height: 48))
        // Settled: each file was opened once, slow.jpg only when complete.
        _ = recorder.wait(seconds: 1) { false }
        let opened = recorder.finishedRuns.reduce(0) { $0 + $1.opened }
        #expect(opened == 2, "\(opened) files opened for slow.jpg and other.jpg")
        #expect(try store.photoCount() == 2)
    }

    @Test("When watches run out, the watcher says so once and falls back to periodic runs that still find changes")
    func watchesExhausted() throws {
        let tree = try TemporaryDirectory()
        try SampleLibrary(count: 30, seed: 6).write(to: tree.path + "/photos")
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        var limited = timing
        limited.watchLimit = 2
        let recorder = WatchRecorder(try LibraryWatcher(root: tree.path + "/photos", store: store, timing: limited))
        let done4 = try recorder.wait(seconds: 10) { try store.photoCount() == 30 }
        #expect(done4)
        try tree.write("photos/late/added.jpg", PhotoFixtures.jpeg(width: 8, height: 8))
        let done5 = try recorder.wait(seconds: 5) { try store.photoCount() == 31 }
        #expect(done5)
        #expect(recorder.fallbackReasons.count == 1, "\(recorder.fallbackReasons)")
        #expect(recorder.fallbackReasons.first?.contains("limit") == true)
    }
}

extension Duration {
    /// In seconds, for the recorder's deadlines.
    var secondsForTests: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
