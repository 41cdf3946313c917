import Foundation
@testable import LibraryIndex
import PhotoFixtures
import Synchronization
import Testing

/// With the default jobs, a run adds readers while their files come from the disk rather than the
/// page cache; files are sent out of the page cache with `posix_fadvise(POSIX_FADV_DONTNEED)`.
@Suite("Readers that wait on the disk")
struct ColdReadTests {
    /// Writes `count` photos under `root/photos`, flushed to the disk.
    static func writePhotos(_ count: Int, in tree: TemporaryDirectory) throws {
        for i in 0..<count {
            try tree.write("photos/\(i % 8)/IMG_\(i).jpg", PhotoFixtures.jpeg(width: 16, height: 12))
        }
    }

    /// Drops the files' pages from the page cache (flushed first: dirty pages stay).
    static func evict(_ root: String) {
        let walker = DirectoryWalker(root: Array(root.utf8), settings: .default)
        _ = walker.walk(wantsStamp: { _ in false }) { entry in
            let fd = open(root + "/" + entry.path.string, O_RDONLY)
            guard fd >= 0 else { return }
            fsync(fd)
            posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(fd)
        }
    }

    static func run(_ root: String, jobs: Int) async throws -> (IndexProgress, added: Int) {
        var settings = IndexSettings.default
        settings.jobs = jobs
        let store = try LibraryStore(path: root + "/../index-\(jobs).sqlite", mode: .readWrite)
        let job = IndexJob(root: try Indexer.resolveRoot(root), store: store, settings: settings, prune: false)
        var last = IndexProgress()
        for try await progress in IndexRun(job: job) { last = progress }
        return (last, job.readersAdded.load(ordering: .relaxed))
    }

    @Test("A file read from the disk counts blocks; the same file from the page cache counts none")
    func diskReadsAreCounted() throws {
        let tree = try TemporaryDirectory()
        let bytes = [UInt8](repeating: 7, count: 256 * 1024)
        try tree.write("big.bin", bytes)
        func readAll() -> Int {
            var disk = DiskReads()
            let fd = open(tree.path + "/big.bin", O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: bytes.count)
            _ = read(fd, &buffer, buffer.count)
            close(fd)
            return disk.blocksSinceLastCheck()
        }
        Self.evict(tree.path)
        #expect(readAll() >= 256 * 1024 / 512 / 2, "a cold read goes to the disk")
        #expect(readAll() == 0, "a warm read does not")
    }

    @Test("Default jobs: cold files add readers, warm files add none", .timeLimit(.minutes(1)))
    func coldFilesAddReaders() async throws {
        let tree = try TemporaryDirectory()
        try Self.writePhotos(600, in: tree)
        let root = tree.path + "/photos"
        Self.evict(root)
        let (cold, added) = try await Self.run(root, jobs: 0)
        #expect(cold.added == 600)
        #expect(added > 0, "readers whose files came from the disk started more")
        #expect(IndexSettings.defaultJobs + added <= IndexSettings.coldJobs)

        // The same files, now in the page cache, into a new index.
        try FileManager.default.removeItem(atPath: tree.path + "/index-0.sqlite")
        let (warm, none) = try await Self.run(root, jobs: 0)
        #expect(warm.added == 600)
        #expect(none == 0)
    }

    @Test("Jobs set by the user stay as they are, even on a cold disk", .timeLimit(.minutes(1)))
    func chosenJobsDoNotGrow() async throws {
        let tree = try TemporaryDirectory()
        try Self.writePhotos(400, in: tree)
        let root = tree.path + "/photos"
        Self.evict(root)
        let (progress, added) = try await Self.run(root, jobs: 2)
        #expect(progress.added == 400)
        #expect(added == 0)
    }
}
