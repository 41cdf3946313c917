import Foundation
import PhotoMetadata
public import Places

/// Indexes one folder tree into a `LibraryStore`.
///
/// ```swift
/// let store = try LibraryStore(path: "library.sqlite", mode: .readWrite)
/// let run = try Indexer(root: "~/Pictures", store: store).run()
/// for try await progress in run { print(progress.read, "/", progress.toRead) }
/// ```
public struct Indexer: Sendable {
    /// The root as given, resolved to an absolute path without symbolic links.
    public let root: String
    public let store: LibraryStore
    public let settings: IndexSettings
    /// Names the place of each photo with a position, and gives a photo without an offset its
    /// place's; loaded only when a photo with a position is read. Without a table, positions are
    /// stored without places, and named by a later run that has one.
    public let places: LazyPlaceTable
    /// Filled with the time of each phase of the runs it starts, for benchmarks; `nil` (the default) measures nothing.
    package var timings: IndexTimings?

    /// Checks that `root` is a readable folder and `settings` are valid.
    public init(root: String, store: LibraryStore, settings: IndexSettings = .default, places: LazyPlaceTable) throws(IndexError) {
        try settings.validate()
        self.root = try Self.resolveRoot(root)
        self.store = store
        self.settings = settings
        self.places = places
    }

    /// An indexer with a table already loaded, or none.
    public init(root: String, store: LibraryStore, settings: IndexSettings = .default, places: PlaceTable? = nil) throws(IndexError) {
        try self.init(root: root, store: store, settings: settings, places: LazyPlaceTable(places))
    }

    /// `root` as an absolute path without symbolic links, or an error saying why it cannot be indexed.
    public static func resolveRoot(_ root: String) throws(IndexError) -> String {
        let expanded = (root as NSString).expandingTildeInPath
        guard case .success(let st) = FileSystem.status(Array(expanded.utf8)) else {
            throw IndexError(.rootNotFound, "There is no folder at \(root).", subject: root)
        }
        guard FileSystem.isDirectory(st) else {
            throw IndexError(.rootNotDirectory, "\(root) is a file, not a folder.", subject: root)
        }
        guard let resolved = realpath(expanded, nil) else {
            throw IndexError(.rootUnreadable, "Cannot resolve \(root): \(Errno(errno)).")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The run as an asynchronous sequence of progress snapshots; the work starts on iteration.
    ///
    /// Stopping the iteration (or cancelling its task) stops the run after committing what was read.
    /// Rows whose files were not found are removed, unless that would remove every photo or more
    /// than `settings.removalLimit` of a library: then they are kept and marked missing
    /// (`IndexProgress.missing`), unless `prune` confirms the removal.
    public func run(prune: Bool = false) -> IndexRun {
        IndexRun(job: IndexJob(root: root, store: store, settings: settings, places: places, prune: prune, timings: timings))
    }
}

/// A running or not-yet-started index run: iterate it for progress; `stop()` ends it early and cleanly.
public struct IndexRun: AsyncSequence, Sendable {
    public typealias Element = IndexProgress
    let job: IndexJob

    /// Asks the run to finish early: no new file is opened, what was read is committed, and the
    /// last progress has phase `.stopped`. Safe to call from a signal handler's queue.
    public func stop() {
        job.control.requestStop()
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<IndexProgress, any Error>.Iterator {
        let job = self.job
        let stream = AsyncThrowingStream<IndexProgress, any Error>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            continuation.onTermination = { termination in
                if case .cancelled = termination { job.control.requestStop() }
            }
            let thread = Thread {
                do {
                    try job.execute { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            thread.name = "shoebox.index"
            thread.start()
        }
        return stream.makeAsyncIterator()
    }
}
