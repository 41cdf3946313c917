import Duplicates
import Foundation
import Synchronization
import Thumbnails

/// A thumbnail pass over the corpus as `shoebox thumbnails` makes it (thumbnail and preview, an
/// empty cache, one job per core), then the fingerprints from those thumbnails, both timed in
/// this run: the second over the first is what hashing adds.
struct OverheadRun {
    var corpus: String

    func run() throws {
        let files = corpusFiles(in: corpus)
        let sources = files.enumerated().compactMap { k, path -> ThumbnailSource? in
            stamp(path).map { ThumbnailSource(id: Int64(k + 1), path: path, fileSize: $0.size, modified: $0.modified) }
        }
        let jobs = ProcessInfo.processInfo.activeProcessorCount
        var best = (render: Double.infinity, hash: Double.infinity)
        for round in 1...3 {
            let folder = NSTemporaryDirectory() + "shoebox-overhead-\(getpid())-\(round)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let cache = ThumbnailCache(directory: folder)
            let renderStart = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                for index in stride(from: worker, to: sources.count, by: jobs) {
                    for size in ThumbnailSize.allCases { _ = cache.image(for: sources[index], size: size) }
                }
            }
            let render = seconds(ContinuousClock.now - renderStart)
            let made = Atomic<Int>(0)
            let hashStart = ContinuousClock.now
            DispatchQueue.concurrentPerform(iterations: jobs) { worker in
                for index in stride(from: worker, to: sources.count, by: jobs) where cache.fingerprint(for: sources[index]) != nil {
                    made.add(1, ordering: .relaxed)
                }
            }
            let hash = seconds(ContinuousClock.now - hashStart)
            print(String(format: "Round %d: thumbnail pass %.2f s (%d files), fingerprints %.3f s (%d made) = +%.1f%%",
                         round, render, sources.count, hash, made.load(ordering: .relaxed), 100 * hash / render))
            best = (min(best.render, render), min(best.hash, hash))
        }
        print(String(format: "Best: thumbnail pass %.2f s, fingerprints %.3f s: hashing adds %.1f%%", best.render, best.hash, 100 * best.hash / best.render))
    }
}
