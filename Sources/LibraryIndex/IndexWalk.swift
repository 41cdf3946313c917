import Foundation
import Synchronization

/// The walk of one index run, on a thread of its own: compares each file's stamp with the index
/// and, when it leaves a folder, hands the folder's new and changed files to the readers together
/// with the folder's sidecar names, so that reading starts while the walk goes on.
///
/// Only new and changed files become candidates, and the unchanged photos of a new or changed
/// sidecar. An unchanged file costs one `fstatat`, one lookup and no allocation. New and changed
/// sidecars are kept for the run's second stage, after every photo.
///
/// The walk lists several folders at once (`threads`), each thread comparing its folders' files
/// with the index on its own and handing them over. Made on the run's thread, then used by the
/// walk's threads; the writer sees only `status`.
final class IndexWalk: @unchecked Sendable {  // confined to one thread at a time, see above
    let status = Status()
    fileprivate let job: IndexJob
    private let walker: DirectoryWalker
    fileprivate let stage: ReadStage
    /// Taken by the walk, so that marking rows seen never copies them.
    private var known: KnownFiles?

    init(job: IndexJob, walker: DirectoryWalker, known: consuming KnownFiles, feeding stage: ReadStage) {
        self.job = job
        self.walker = walker
        self.known = known
        self.stage = stage
    }

    /// The walk's counts, which the run's progress adds to the writer's.
    struct Tally: Sendable {
        var filesFound = 0
        var unchanged = 0
        /// Unchanged files that are not photos.
        var skipped = 0
        /// Candidates handed to the readers so far, and the sidecars kept for after them.
        var toRead = 0

        mutating func add(_ other: Tally) {
            filesFound += other.filesFound
            unchanged += other.unchanged
            skipped += other.skipped
            toRead += other.toRead
        }
    }

    /// What the run needs from a finished walk.
    struct Findings: Sendable {
        var tally: Tally
        /// Whether it went through the whole tree, rather than being stopped.
        var isComplete: Bool
        var unreadableDirectories: [RelativePath]
        /// Rows whose files the walk did not find; none when the run was stopped during the walk.
        var unseen: [RelativePath: KnownFile]
        /// Photo rows marked missing whose files are there again.
        var reappeared: [RelativePath]
        /// New and changed sidecars, to be read after every photo: a run stopped in between finds
        /// them changed next time, and reads their photos again.
        var sidecarCandidates: [IndexJob.Candidate]
    }

    /// What the writer sees of the walk: its counts so far, then what it found.
    final class Status: Sendable {
        private let state = Mutex<(tally: Tally, outcome: Result<Findings, IndexError>?)>((Tally(), nil))

        /// Adds a walk thread's counts.
        fileprivate func add(_ counts: Tally) {
            state.withLock { $0.tally.add(counts) }
        }

        /// The walk's counts so far.
        fileprivate var tally: Tally { state.withLock { $0.tally } }

        fileprivate func finish(_ outcome: Result<Findings, IndexError>) {
            state.withLock { $0.outcome = outcome }
        }

        /// `progress` plus the walk's counts so far, in phase `.walking` until the walk has finished.
        func adding(to progress: IndexProgress) -> IndexProgress {
            let (tally, finished) = state.withLock { ($0.tally, $0.outcome != nil) }
            var total = progress.adding(tally)
            total.phase = finished ? .reading : .walking
            return total
        }

        /// What the walk found, or the error that ended it; call once its stage is drained.
        func findings() throws(IndexError) -> Findings {
            guard let outcome = state.withLock({ $0.outcome }) else { preconditionFailure("the walk has not finished") }
            return try outcome.get()
        }
    }

    /// Starts the walk's thread; it closes the stage when it ends, having published its findings.
    func start() {
        stage.threads.enter()
        let thread = Thread { [self] in
            let outcome = Result { () throws(IndexError) in try job.timings.measure(.walk) { () throws(IndexError) in try walk() } }
            // A failed look-up of the photos to re-read: the readers need not go on either.
            if case .failure = outcome { job.control.requestStop() }
            status.finish(outcome)
            stage.close()
            stage.threads.leave()
        }
        thread.name = "shoebox.walk"
        thread.start()
    }

    /// The files of the folder the walk is in, until it leaves it.
    private struct FolderBatch {
        /// New and changed files other than sidecars.
        var candidates: [IndexJob.Candidate] = []
        /// Every sidecar name in the folder, the unchanged ones too.
        var sidecars: [[UInt8]] = []
        /// Records of `KnownFiles`, so that the common case, no changed sidecar, costs no path.
        var unchangedPhotos: [Int] = []
        var changedSidecars: [[UInt8]] = []

        /// What the readers get when the walk leaves the folder: its new and changed files, and
        /// the unchanged photos of a new or changed sidecar, each with the folder's sidecar names.
        func handOver(known: KnownFiles, tally: inout Tally) -> [IndexJob.Candidate] {
            var batch = candidates
            if !changedSidecars.isEmpty {
                for record in unchangedPhotos {
                    let path = known.path(record)
                    guard !SidecarNames.sidecars(of: path.folderAndName.name, among: changedSidecars).isEmpty else { continue }
                    batch.append(IndexJob.Candidate(path: path, known: known.records[record].knownFile))
                    tally.unchanged -= 1
                }
            }
            if !sidecars.isEmpty {
                for i in batch.indices { batch[i].sidecars = sidecars }
            }
            tally.toRead += batch.count
            return batch
        }
    }

    /// How many folders the walk lists at once: a `stat` per known file is most of an unchanged
    /// re-run, and it scales with the cores (two threads take about half the time of one on two).
    static var threads: Int { min(max(IndexSettings.cores, 2), 8) }

    /// One thread's share of the walk: the folders it lists, compared with the index, and what it
    /// found, merged when every thread is done. `known` is shared and read only; the rows a thread
    /// finds are marked seen after the walk.
    private final class Visitor: FolderVisitor, @unchecked Sendable {  // used by one thread at a time
        let known: KnownFiles
        let walk: IndexWalk
        var folder = FolderBatch()
        var lookup: KnownFiles.Folder
        /// Counts not yet added to the walk's status.
        var tally = Tally()
        var seen: [Int] = []
        var reappeared: [Int] = []
        var sidecarCandidates: [IndexJob.Candidate] = []
        /// Only folders with sidecars, for the photos of removed sidecars.
        var sidecarsByFolder: [RelativePath: [[UInt8]]] = [:]

        init(known: KnownFiles, walk: IndexWalk) {
            self.known = known
            self.walk = walk
            lookup = known.folder(RelativePath(bytes: []))
        }

        func entered(_ directory: RelativePath) {
            folder = FolderBatch()
            lookup = known.folder(directory)
        }

        // Only files the index knows are `stat`ed here; a new file's reader takes its stamp.
        func found(_ file: borrowing DirectoryWalker.FoundFile) {
            let record = known.find(in: lookup, name: file.name)
            var stamp: FileStamp?
            if record != nil {
                guard let current = file.stamp() else { return }  // vanished since readdir
                stamp = current
            }
            tally.filesFound += 1
            let isSidecar = SidecarNames.kind(of: file.name) != nil
            if isSidecar { folder.sidecars.append(Array(file.name)) }
            let knownFile = record.map { known.records[$0].knownFile }
            if let record { seen.append(record) }
            // Still being written: its row (if any) stays as it is; a later run reads it complete.
            if !walk.job.deferred.isEmpty && walk.job.deferred.contains(file.path) { return }
            if let record, let knownFile, knownFile.stamp == stamp {
                if knownFile.isPhoto {
                    tally.unchanged += 1
                    folder.unchangedPhotos.append(record)
                } else {
                    tally.skipped += 1
                }
                if knownFile.isMissing { reappeared.append(record) }
            } else if isSidecar {
                // New or changed: the sidecar's own stamp after every photo, its photos again now.
                sidecarCandidates.append(IndexJob.Candidate(path: file.path, known: knownFile))
                folder.changedSidecars.append(Array(file.name))
                tally.toRead += 1
            } else {
                folder.candidates.append(IndexJob.Candidate(path: file.path, known: knownFile))
            }
            if tally.filesFound % 256 == 0 { publish() }
        }

        func left(_ directory: RelativePath) {
            let batch = folder.handOver(known: known, tally: &tally)
            if !folder.sidecars.isEmpty { sidecarsByFolder[directory] = folder.sidecars }
            // Counted before the readers can report any of them read.
            publish()
            walk.stage.hand(batch)
            #if DEBUG
            walk.job.folderWalkedForTesting.withLock { $0 }?(directory)
            #endif
        }

        private func publish() {
            walk.status.add(tally)
            tally = Tally()
        }
    }

    private func walk() throws(IndexError) -> Findings {
        guard known != nil else { preconditionFailure("a walk runs once") }
        var visitors = (0..<Self.threads).map { _ in Visitor(known: known!, walk: self) }
        let failures = walker.walkFiles(visitors: visitors, shouldStop: { [job] in job.control.isStopRequested })
        let sidecarsByFolder = visitors.reduce(into: [:]) { $0.merge($1.sidecarsByFolder) { $1 } }
        let sidecarCandidates = visitors.flatMap(\.sidecarCandidates)
        let reappeared = visitors.flatMap(\.reappeared)
        let seen = visitors.map(\.seen)
        // The visitors' copies of the index go first, so that marking rows seen copies nothing.
        visitors.removeAll()
        guard var known = known.take() else { preconditionFailure("a walk runs once") }
        for rows in seen {
            for record in rows { known.markSeen(record) }
        }

        // Everything below works on the rows the walk did not find, usually few.
        let stopped = job.control.isStopRequested
        let unseen = stopped ? [:] : known.unseen()
        let unreadable = failures.map(\.path)
        var tally = Tally()
        if !stopped {
            let requeued = try photosOfRemovedSidecars(unseen: unseen, blind: unreadable, sidecars: sidecarsByFolder, tally: &tally)
            status.add(tally)
            stage.hand(requeued)
        }
        return Findings(
            tally: status.tally, isComplete: !stopped, unreadableDirectories: unreadable, unseen: unseen,
            reappeared: reappeared.map { known.path($0) }, sidecarCandidates: sidecarCandidates)
    }

    /// The unchanged photos of sidecars that disappeared since the last run, to be read again so
    /// that a date taken from a deleted sidecar does not outlive it. Needs the complete walk.
    private func photosOfRemovedSidecars(
        unseen: [RelativePath: KnownFile], blind: [RelativePath], sidecars: [RelativePath: [[UInt8]]], tally: inout Tally
    ) throws(IndexError) -> [IndexJob.Candidate] {
        var removed: [RelativePath: [[UInt8]]] = [:]
        for (path, known) in unseen where !known.isPhoto && !blind.contains(where: { path.isInside($0) }) {
            let (folder, name) = path.folderAndName
            if SidecarNames.kind(of: name) != nil { removed[folder, default: []].append(name) }
        }
        guard !removed.isEmpty else { return [] }
        var queued = Set(stage.handed.map(\.path))
        var requeued: [IndexJob.Candidate] = []
        for (folder, removedSidecars) in removed {
            for (path, stamp) in try job.store.photoStamps(inFolder: folder) where unseen[path] == nil && !queued.contains(path) {
                guard !SidecarNames.sidecars(of: path.folderAndName.name, among: removedSidecars).isEmpty else { continue }
                requeued.append(IndexJob.Candidate(
                    path: path, known: KnownFile(stamp: stamp, isPhoto: true), sidecars: sidecars[folder] ?? []))
                queued.insert(path)
                tally.unchanged -= 1
                tally.toRead += 1
            }
        }
        return requeued
    }
}

extension IndexProgress {
    /// These counts plus the walk's.
    func adding(_ tally: IndexWalk.Tally) -> IndexProgress {
        var total = self
        total.filesFound += tally.filesFound
        total.unchanged += tally.unchanged
        total.skipped += tally.skipped
        total.toRead += tally.toRead
        return total
    }
}
