import ArgumentParser
import Dispatch
import Foundation
import LibraryIndex
import PhotoLibrary
import PhotoMetadata
import Synchronization
import Thumbnails

/// `shoebox thumbnails`: make every thumbnail and preview ahead of time, so the viewer never waits.
struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Make the thumbnails and previews the viewer shows, ahead of time (the server makes missing ones on demand).",
        discussion: """
            Both sizes for every photo: thumbnail (short edge 320 px) and preview (long edge 1600 px), \
            JPEG, orientation applied, never upscaled. They are kept in $XDG_CACHE_HOME/shoebox/thumbnails \
            (~/.cache/shoebox/thumbnails), keyed by photo, size, file size and modification time; \
            entries of photos that changed or left the library are removed. Running it again makes only \
            what is missing.
            """
    )

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Photos rendered in parallel (default: one per core).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs takes 1 to 64 (e.g. --jobs 2), or leave it out to use every core.") }
    }

    func run() async throws {
        let library = try self.library.open()
        guard let root = try library.root() else {
            throw CLIError("The index at \(library.databasePath) has no folder yet; run `shoebox index FOLDER` first.")
        }
        var rows: [(id: Int64, path: RelativePath)] = []
        try library.store.forEachPhoto { photo in
            if let id = photo.id { rows.append((id, photo.path)) }
        }
        if let problem = ThumbnailCache.decoderProblem {
            throw CLIError("Cannot make thumbnails: libvips could not start: \(problem).")
        }
        let cache = ThumbnailCache(directory: LibraryPaths.cacheDirectory() + "/thumbnails", maxPixels: library.configuration.thumbnails.maxPixels)
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1)
        let counts = Mutex((done: 0, placeholders: 0, missing: 0))
        let sources = Mutex<[ThumbnailSource]>([])
        let start = ContinuousClock.now
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let total = rows.count
        let items = rows
        let fingerprints = FingerprintRecorder(databasePath: self.library.databasePath)
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            for index in stride(from: worker, to: items.count, by: jobs) {
                let row = items[index]
                guard let file = OpenedFile(root: root, relative: row.path) else {
                    counts.withLock { $0.done += 1; $0.missing += 1 }
                    continue
                }
                let source = ThumbnailSource(id: row.id, path: file.procPath, fileSize: file.size, modified: file.modified)
                var placeholder = false
                for size in ThumbnailSize.allCases {
                    placeholder = cache.image(for: source, size: size).isPlaceholder || placeholder
                }
                fingerprints.record(source, cache: cache)
                sources.withLock { $0.append(source) }
                let done = counts.withLock { counts in
                    counts.done += 1
                    if placeholder { counts.placeholders += 1 }
                    return counts.done
                }
                if worker == 0 { display.show(line: ProgressDisplay.bar("Rendering", done: done, total: total, since: start, unit: "photos")) }
            }
        }
        display.finish()
        fingerprints.finish()
        let swept = (try? cache.sweep(keeping: sources.withLock { $0 })) ?? 0
        let result = counts.withLock { $0 }
        let statistics = cache.statistics
        var lines = ["Thumbnails and previews for \(total.counted("photo")) in \(String(format: "%.1f", (ContinuousClock.now - start).seconds)) s"]
        lines.append("  \(statistics.generated.grouped) made, \(statistics.hits.grouped) already there, \(result.placeholders.counted("photo")) shown as placeholders (cannot be decoded), \(result.missing.counted("file")) missing, \(swept.counted("stale entry", "stale entries")) removed")
        lines.append("  Cache: \(cache.directory.terminalSafe)")
        try Output.line(lines.joined(separator: "\n"))
    }
}
