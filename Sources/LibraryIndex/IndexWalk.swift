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
/// Made on the run's thread and then used by the walk's thread alone; the writer sees only
/// `status`.
final class IndexWalk: @unchecked Sendable {  // confined to one thread at a time, see above
    let status = Status()
    private let job: IndexJob
    private let walker: DirectoryWalker
    private let stage: ReadStage
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

        fileprivate func publish(_ tally: Tally) {
            state.withLock { $0.tally = tally }
        }

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
            let outcome = Result { () throws(IndexError) in try walk() }
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

    private func walk() throws(IndexError) -> Findings {
        guard var known = known.take() else { preconditionFailure("a walk runs once") }
        var tally = Tally()
        var folder = FolderBatch()
        var lookup = known.folder(RelativePath(bytes: []))
        var sidecarCandidates: [IndexJob.Candidate] = []
        // Only folders with sidecars, for the photos of removed sidecars.
        var sidecarsByFolder: [RelativePath: [[UInt8]]] = [:]
        var reappeared: [Int] = []
        // Only files the index knows are `stat`ed here; a new file's reader takes its stamp.
        let failures = walker.walkFiles(
            shouldStop: { job.control.isStopRequested },
            entered: { directory in
                folder = FolderBatch()
                lookup = known.folder(directory)
            },
            left: { directory in
                let batch = folder.handOver(known: known, tally: &tally)
                if !folder.sidecars.isEmpty { sidecarsByFolder[directory] = folder.sidecars }
                // Counted before the readers can report any of them read.
                status.publish(tally)
                stage.hand(batch)
                #if DEBUG
                job.folderWalkedForTesting.withLock { $0 }?(directory)
                #endif
            }
        ) { file in
            let record = known.find(in: lookup, name: file.name)
            var stamp: FileStamp?
            if record != nil {
                guard let current = file.stamp() else { return }  // vanished since readdir
                stamp = current
            }
            tally.filesFound += 1
            let isSidecar = SidecarNames.kind(of: file.name) != nil
            if isSidecar { folder.sidecars.append(Array(file.name)) }
            if let record {
                known.markSeen(record)
                let knownFile = known.records[record].knownFile
                if knownFile.stamp == stamp {
                    if knownFile.isPhoto {
                        tally.unchanged += 1
                        folder.unchangedPhotos.append(record)
                    } else {
                        tally.skipped += 1
                    }
                    if knownFile.isMissing { reappeared.append(record) }
                } else if isSidecar {
                    sidecarCandidates.append(IndexJob.Candidate(path: file.path, known: knownFile))
                    folder.changedSidecars.append(Array(file.name))
                    tally.toRead += 1
                } else {
                    folder.candidates.append(IndexJob.Candidate(path: file.path, known: knownFile))
                }
            } else if isSidecar {
                sidecarCandidates.append(IndexJob.Candidate(path: file.path, known: nil))
                folder.changedSidecars.append(Array(file.name))
                tally.toRead += 1
            } else {
                folder.candidates.append(IndexJob.Candidate(path: file.path, known: nil))
            }
            if tally.filesFound % 256 == 0 { status.publish(tally) }
        }

        // Everything below works on the rows the walk did not find, usually few.
        let stopped = job.control.isStopRequested
        let unseen = stopped ? [:] : known.unseen()
        let unreadable = failures.map(\.path)
        if !stopped {
            let requeued = try photosOfRemovedSidecars(unseen: unseen, blind: unreadable, sidecars: sidecarsByFolder, tally: &tally)
            status.publish(tally)
            stage.hand(requeued)
        }
        return Findings(
            tally: tally, isComplete: !stopped, unreadableDirectories: unreadable, unseen: unseen,
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
