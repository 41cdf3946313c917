import Foundation
@testable import LibraryIndex
import PhotoFixtures
import PhotoMetadata
import Synchronization
import Testing
import WallClock

/// Reading while the walk goes on: the walk hands a folder's files to the readers when it leaves
/// the folder, with the folder's sidecar names.
@Suite("Walk and read overlap")
struct WalkReadOverlapTests {
    /// What the walk's test hook saw at the folder it waited in.
    final class Observation: Sendable {
        let state = Mutex<(foldersLeft: Int, photosWritten: Int?)>((0, nil))
    }

    /// A run of `root` into `store` whose walk, on leaving `folder`, waits (20 s at most) until
    /// `photos` rows are in the database; it records how many it saw.
    static func job(root: String, store: LibraryStore, waitingIn folder: String, for photos: Int) throws -> (IndexJob, Observation) {
        let job = IndexJob(root: try Indexer.resolveRoot(root), store: store, settings: .default, prune: false)
        let observation = Observation()
        job.folderWalkedForTesting.withLock {
            $0 = { left in
                observation.state.withLock { $0.foldersLeft += 1 }
                guard left.string == folder else { return }
                let end = ContinuousClock.now + .seconds(20)
                var written = 0
                while ContinuousClock.now < end {
                    written = (try? store.photoCount()) ?? 0
                    if written >= photos { break }
                    Thread.sleep(forTimeInterval: 0.005)
                }
                observation.state.withLock { $0.photosWritten = written }
            }
        }
        return (job, observation)
    }

    static func run(_ job: IndexJob) async throws -> IndexProgress {
        var last = IndexProgress()
        for try await progress in IndexRun(job: job) { last = progress }
        return last
    }

    @Test("The photos of the first folder are read and written while the walk still has five folders to go", .timeLimit(.minutes(1)))
    func readsWhileWalking() async throws {
        let tree = try TemporaryDirectory()
        // Nested, so that the walk leaves 1 before it lists 1/2, and so on.
        let folders = ["1", "1/2", "1/2/3", "1/2/3/4", "1/2/3/4/5", "1/2/3/4/5/6"]
        for folder in folders {
            for i in 0..<5 { try tree.write("photos/\(folder)/IMG_\(i).jpg", PhotoFixtures.jpeg(width: 8, height: 8)) }
        }
        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let (job, observation) = try Self.job(root: tree.path + "/photos", store: store, waitingIn: "1", for: 5)

        let progress = try await Self.run(job)

        let seen = observation.state.withLock { $0 }
        #expect(seen.photosWritten == 5, "the walk waited in 1 for its 5 photos to be written")
        #expect(seen.foldersLeft == folders.count + 1, "the root and every folder were walked")
        #expect(progress.phase == .completed)
        #expect(progress.filesFound == 30 && progress.toRead == 30 && progress.read == 30 && progress.added == 30)
        #expect(progress.opened == 30)
        #expect(try store.photoCount() == 30)
    }

    @Test("Photos read during the walk take their dates from the sidecars in their folder, listed before or after them", .timeLimit(.minutes(1)))
    func sidecarsInEitherOrder() async throws {
        let tree = try TemporaryDirectory()
        let pairs = 16
        // Written in alternating order, so that readdir lists some sidecars before their photo and some after.
        for i in 0..<pairs {
            let photo = ("photos/a/IMG_\(i).jpg", PhotoFixtures.jpeg(width: 8, height: 8))
            let sidecar = ("photos/a/IMG_\(i).jpg.xmp", SidecarIndexTests.xmp(String(format: "2019-07-04T18:%02d:00", i)))
            for (path, bytes) in i % 2 == 0 ? [photo, sidecar] : [sidecar, photo] { try tree.write(path, bytes) }
        }
        // Walked after a: the walk still has it to go while a's photos are read.
        try tree.write("photos/a/later/IMG_0.jpg", PhotoFixtures.jpeg(width: 8, height: 8))

        var listed: [String] = []
        _ = DirectoryWalker(root: Array((tree.path + "/photos").utf8), settings: .default).walk { listed.append($0.path.string) }
        let sidecarFirst = (0..<pairs).filter { i in
            listed.firstIndex(of: "a/IMG_\(i).jpg.xmp")! < listed.firstIndex(of: "a/IMG_\(i).jpg")!
        }
        #expect(!sidecarFirst.isEmpty && sidecarFirst.count < pairs, "readdir lists sidecars both before and after their photos: \(listed)")

        let store = try LibraryStore(path: tree.path + "/index.sqlite", mode: .readWrite)
        let (job, observation) = try Self.job(root: tree.path + "/photos", store: store, waitingIn: "a", for: pairs)
        let progress = try await Self.run(job)

        #expect(observation.state.withLock { $0.photosWritten } == pairs, "a's photos were written while the walk waited in a")
        #expect(progress.phase == .completed && progress.failed == 0)
        let rows = try photosByPath(store)
        #expect(rows.count == pairs + 1)
        for i in 0..<pairs {
            let date = rows["a/IMG_\(i).jpg"]?.captureDate
            #expect(date?.source == .xmpSidecar, "IMG_\(i).jpg")
            #expect(date?.local.iso8601 == String(format: "2019-07-04T18:%02d:00", i), "IMG_\(i).jpg")
        }
        #expect(rows["a/later/IMG_0.jpg"]?.captureDate.source == .fileModified)
    }
}
