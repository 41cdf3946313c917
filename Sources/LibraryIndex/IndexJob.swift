import Foundation
import PhotoMetadata
import Synchronization

/// One index run: walk, read new and changed files on several threads, write in batches, remove
/// what disappeared. Everything is committed batch by batch, so a run killed at any point leaves a
/// consistent database and the next run picks up where it stopped.
final class IndexJob: Sendable {
    let root: String
    let store: LibraryStore
    let settings: IndexSettings
    /// Remove rows whose files are gone even past the removal limit.
    let prune: Bool
    let control = RunControl()
    private let openedFiles = Atomic<Int>(0)
    /// Changes this run wrote: none, and an earlier run that completed has linked the Live Photos.
    private let writtenChanges = Atomic<Int>(0)
    /// Reader threads running now, per database path (tests of one run must not see another's).
    package static let liveReaders = Mutex<[String: Int]>([:])

    #if DEBUG
    /// Seconds each reader waits before a file, from `SHOEBOX_TEST_READ_DELAY` (debug builds only):
    /// lets the command-line tests interrupt or kill a run while it is certainly still reading.
    private static let testReadDelay = ProcessInfo.processInfo.environment["SHOEBOX_TEST_READ_DELAY"].flatMap(Double.init)
    #endif

    init(root: String, store: LibraryStore, settings: IndexSettings, prune: Bool) {
        self.root = root
        self.store = store
        self.settings = settings
        self.prune = prune
    }

    /// A file the walk found that must be opened.
    private struct Candidate: Sendable {
        var path: RelativePath
        var known: KnownFile?
    }

    /// The files of the folder the walk is in, until it moves on: a new or changed sidecar
    /// sends the unchanged photos it belongs to back to be read.
    private struct FolderBatch {
        var folder: RelativePath
        /// Records of `KnownFiles`, so that the common case, no changed sidecar, costs no path.
        var unchangedPhotos: [Int] = []
        var changedSidecars: [[UInt8]] = []

        func flush(into candidates: inout [Candidate], known: KnownFiles, progress: inout IndexProgress) {
            guard !changedSidecars.isEmpty else { return }
            for record in unchangedPhotos {
                let path = known.path(record)
                guard !SidecarNames.sidecars(of: path.folderAndName.name, among: changedSidecars).isEmpty else { continue }
                candidates.append(Candidate(path: path, known: known.records[record].knownFile))
                progress.unchanged -= 1
            }
        }
    }

    /// What reading one candidate produced.
    private enum Outcome: Sendable {
        case photo(IndexedPhoto, failed: Bool)
        case notAnImage(RelativePath, FileStamp)
        /// Could not be opened or read; an existing row is left as it was.
        case unreadable(IndexedPhoto?)
        case vanished(RelativePath)
    }

    func execute(report: (IndexProgress) -> Void) throws(IndexError) {
        let lock = try IndexLock(databasePath: store.path)
        try store.claimRoot(root)
        var known = try store.knownFiles()
        let lastRunCompleted = try store.lastRunCompleted()
        let runID = try store.beginRun()
        var progress = IndexProgress()
        progress.photosBefore = known.photoCount
        let throttle = ReportThrottle()
        var reappeared: [Int] = []

        // 1. Walk: compare stamps; only new and changed files become candidates, and the unchanged
        // photos of a new or changed sidecar. An unchanged file costs one `fstatat`, one lookup
        // and no allocation.
        var candidates: [Candidate] = []
        var sidecarCandidates: [Candidate] = []
        var sidecars: [RelativePath: [[UInt8]]] = [:]
        var folder = FolderBatch(folder: RelativePath(bytes: []))
        let walker = DirectoryWalker(root: Array(root.utf8), settings: settings, excluding: databaseFilesInsideRoot())
        // Only files the index knows are `stat`ed here; a new file's reader takes its stamp.
        var lookup = known.folder(RelativePath(bytes: []))
        let failures = walker.walkFiles(shouldStop: { control.isStopRequested }) { file in
            if file.folder != lookup.path { lookup = known.folder(file.folder) }
            let record = known.find(in: lookup, name: file.name)
            var stamp: FileStamp?
            if record != nil {
                guard let status = file.stamp() else { return }  // vanished since readdir
                stamp = status
            }
            progress.filesFound += 1
            // The walk reports a folder's files one after the other.
            if file.folder != folder.folder {
                folder.flush(into: &candidates, known: known, progress: &progress)
                folder = FolderBatch(folder: file.folder)
            }
            let isSidecar = SidecarNames.kind(of: file.name) != nil
            if isSidecar { sidecars[file.folder, default: []].append(Array(file.name)) }
            if let record {
                known.markSeen(record)
                let knownFile = known.records[record].knownFile
                if knownFile.stamp == stamp {
                    if knownFile.isPhoto {
                        progress.unchanged += 1
                        folder.unchangedPhotos.append(record)
                    } else {
                        progress.skipped += 1
                    }
                    if knownFile.isMissing { reappeared.append(record) }
                } else if isSidecar {
                    sidecarCandidates.append(Candidate(path: file.path, known: knownFile))
                    folder.changedSidecars.append(Array(file.name))
                } else {
                    candidates.append(Candidate(path: file.path, known: knownFile))
                }
            } else if isSidecar {
                sidecarCandidates.append(Candidate(path: file.path, known: nil))
                folder.changedSidecars.append(Array(file.name))
            } else {
                candidates.append(Candidate(path: file.path, known: nil))
            }
            if progress.filesFound % 256 == 0 && throttle.isDue() {
                progress.toRead = candidates.count + sidecarCandidates.count
                report(progress)
            }
        }
        folder.flush(into: &candidates, known: known, progress: &progress)
        // Everything below works on the rows the walk did not find, usually few.
        let unseen = control.isStopRequested ? [:] : known.unseen()
        progress.unreadableDirectories = failures.map(\.path)
        if !control.isStopRequested {
            try requeuePhotosOfRemovedSidecars(unseen: unseen, candidates: &candidates, progress: &progress)
        }
        progress.toRead = candidates.count + sidecarCandidates.count
        progress.phase = .reading
        report(progress)

        // 2. Read on `jobs` threads; write batches from this thread. The photos first, the sidecars'
        // own stamps after them: a run stopped in between finds the sidecars changed next time,
        // and reads their photos again.
        let context = ReadContext(root: Array(root.utf8) + [UInt8(ascii: "/")], sidecars: sidecars)
        for batch in [candidates, sidecarCandidates] where !control.isStopRequested && !batch.isEmpty {
            try readAndWrite(batch, context: context, progress: &progress, throttle: throttle, report: report)
        }

        // 3. Remove rows whose file is gone, unless the walk did not finish or could not see them,
        //    or so many are gone that the folder is more likely unmounted than emptied.
        if !control.isStopRequested {
            progress.phase = .removing
            report(progress)
            try apply(reappeared.map { IndexChange.found(known.path($0)) })
            let blind = progress.unreadableDirectories
            let gone = unseen.keys.filter { path in !blind.contains { path.isInside($0) } }
            let gonePhotos = gone.count { unseen[$0]?.isPhoto == true }
            if !prune && exceedsRemovalLimit(removing: gonePhotos, of: progress.photosBefore) {
                let since = LibraryStore.timestamp()
                try writeInBatches(gone.filter { unseen[$0]?.isPhoto == true }.map { IndexChange.markMissing($0, since: since) })
                progress.missing = gonePhotos
            } else {
                try writeInBatches(gone.map(IndexChange.remove))
                progress.removed += gonePhotos
            }
        }

        // Pairs depend on the photo rows alone: unchanged since a completed run, they are as it left them.
        if !control.isStopRequested && (writtenChanges.load(ordering: .relaxed) > 0 || !lastRunCompleted) {
            try store.linkLivePhotos()
        }
        progress.phase = control.isStopRequested ? .stopped : .completed
        progress.opened = openedFiles.load(ordering: .relaxed)
        try store.finishRun(runID, progress: progress)
        // Everything into the main file, so that copying the `.sqlite` file alone copies the index.
        store.checkpoint()
        report(progress)
        _ = consume lock
    }

    /// Whether removing `removing` of `total` photo rows needs `--prune`: all of them, or more than
    /// the limit's share of a library of at least `removalLimitFrom` photos.
    private func exceedsRemovalLimit(removing: Int, of total: Int) -> Bool {
        guard removing > 0 else { return false }
        if removing >= total { return true }
        return total >= settings.removalLimitFrom && Double(removing) > settings.removalLimit * Double(total)
    }

    private func writeInBatches(_ changes: [IndexChange]) throws(IndexError) {
        for start in stride(from: 0, to: changes.count, by: settings.batchSize) {
            try apply(Array(changes[start..<min(start + settings.batchSize, changes.count)]))
        }
    }

    /// Writes one batch, counting it.
    private func apply(_ changes: [IndexChange]) throws(IndexError) {
        try store.apply(changes)
        writtenChanges.add(changes.count, ordering: .relaxed)
    }

    /// Sends the unchanged photos of sidecars that disappeared since the last run back to be read,
    /// so that a date taken from a deleted sidecar does not outlive it.
    private func requeuePhotosOfRemovedSidecars(
        unseen: [RelativePath: KnownFile], candidates: inout [Candidate], progress: inout IndexProgress
    ) throws(IndexError) {
        let blind = progress.unreadableDirectories
        var removed: [RelativePath: [[UInt8]]] = [:]
        for (path, known) in unseen where !known.isPhoto && !blind.contains(where: { path.isInside($0) }) {
            let (folder, name) = path.folderAndName
            if SidecarNames.kind(of: name) != nil { removed[folder, default: []].append(name) }
        }
        guard !removed.isEmpty else { return }
        var queued = Set(candidates.map(\.path))
        for (folder, sidecars) in removed {
            for (path, stamp) in try store.photoStamps(inFolder: folder) where unseen[path] == nil && !queued.contains(path) {
                guard !SidecarNames.sidecars(of: path.folderAndName.name, among: sidecars).isEmpty else { continue }
                candidates.append(Candidate(path: path, known: KnownFile(stamp: stamp, isPhoto: true)))
                queued.insert(path)
                progress.unchanged -= 1
            }
        }
    }

    /// The database and its companion files, relative to the root, when the user keeps the index
    /// inside the folder it indexes: they change on every run and are not photos.
    private func databaseFilesInsideRoot() -> Set<RelativePath> {
        let url = URL(fileURLWithPath: store.path)
        guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return [] }
        defer { free(folder) }
        let database = String(cString: folder) + "/" + url.lastPathComponent
        guard database.hasPrefix(root + "/") else { return [] }
        let relative = String(database.dropFirst(root.count + 1))
        return Set(["", "-wal", "-shm", "-journal", "-lock"].map { RelativePath(relative + $0) })
    }

    private func readAndWrite(
        _ candidates: [Candidate], context: ReadContext, progress: inout IndexProgress, throttle: ReportThrottle,
        report: (IndexProgress) -> Void
    ) throws(IndexError) {
        let jobs = min(settings.readerThreads, candidates.count)
        let queue = WorkQueue(count: candidates.count)
        let buffer = ResultBuffer<(Candidate, Outcome)>(capacity: settings.batchSize * 4, producers: jobs)
        let readers = DispatchGroup()
        for _ in 0..<jobs {
            readers.enter()
            Self.liveReaders.withLock { $0[store.path, default: 0] += 1 }
            let thread = Thread { [self] in
                let reader = MetadataReader()
                while !control.isStopRequested, let index = queue.next() {
                    #if DEBUG
                    if let delay = Self.testReadDelay { Thread.sleep(forTimeInterval: delay) }
                    #endif
                    buffer.push((candidates[index], read(candidates[index], context: context, reader: reader)))
                }
                buffer.producerFinished()
                Self.liveReaders.withLock { $0[store.path, default: 0] -= 1 }
                readers.leave()
            }
            thread.name = "shoebox.reader"
            thread.start()
        }

        var drained = false
        while !drained {
            let taken = buffer.take(limit: settings.batchSize, until: Date().addingTimeInterval(0.2))
            drained = taken.drained
            var changes: [IndexChange] = []
            changes.reserveCapacity(taken.items.count)
            for (candidate, outcome) in taken.items {
                let hadPhotoRow = candidate.known?.isPhoto == true
                let hadIgnoredRow = candidate.known?.isPhoto == false
                switch outcome {
                case .photo(let photo, let failed):
                    changes.append(.upsertPhoto(photo, wasIgnored: hadIgnoredRow))
                    if failed { progress.failed += 1 }
                    if hadPhotoRow { progress.updated += 1 } else { progress.added += 1 }
                case .notAnImage(let path, let stamp):
                    changes.append(.ignore(path, stamp, wasPhoto: hadPhotoRow))
                    progress.skipped += 1
                    if hadPhotoRow { progress.removed += 1 }
                case .unreadable(let photo):
                    progress.failed += 1
                    if let photo {
                        changes.append(.upsertPhoto(photo, wasIgnored: hadIgnoredRow))
                        progress.added += 1
                    }
                case .vanished(let path):
                    changes.append(.remove(path))
                    if hadPhotoRow { progress.removed += 1 }
                }
            }
            do {
                try apply(changes)
            } catch {
                // A write failed (a full disk): stop the readers, wake any waiting on the full
                // buffer, and let them end before reporting, so a long-lived process keeps no threads.
                control.requestStop()
                buffer.cancel()
                readers.wait()
                throw error
            }
            progress.read += taken.items.count
            if drained || throttle.isDue() {
                progress.opened = openedFiles.load(ordering: .relaxed)
                report(progress)
            }
        }
    }

    /// Opens and reads one file. Runs on a reader thread.
    private func read(_ candidate: Candidate, context: ReadContext, reader: MetadataReader) -> Outcome {
        let path = candidate.path
        let fd: Int32
        switch FileSystem.openForReading(context.root + path.bytes) {
        case .success(let descriptor):
            fd = descriptor
        case .failure(let error) where error.rawValue == ENOENT || error.rawValue == ENOTDIR || error.rawValue == ELOOP:
            return .vanished(path)
        case .failure(let error):
            return .unreadable(candidate.known?.isPhoto == true ? nil : failedPhoto(
                path, stamp: nil, modified: FileSystem.linkStatus(context.root + path.bytes).map { FileStamp($0).modified },
                format: nil, message: "cannot open: \(error)", context: context))
        }
        openedFiles.add(1, ordering: .relaxed)
        defer { close(fd) }

        var st = stat()
        guard fstat(fd, &st) == 0, FileSystem.isRegularFile(st) else { return .vanished(path) }
        let stamp = FileStamp(st)
        // An empty file named like a photo is a photo that lost its bytes (a failed copy): a row
        // with an error, so it shows up, rather than a file silently skipped.
        if stamp.size == 0 && MediaExtensions.isMedia(path.lastComponent) {
            return .photo(failedPhoto(path, stamp: stamp, format: nil, message: "The file is empty.", context: context), failed: true)
        }
        do {
            let metadata = try reader.read(fileDescriptor: fd)
            var note: String?
            let date = metadata.exifDate ?? fallbackDate(path: path, stamp: stamp, context: context, note: &note)
            let error = [metadata.problem?.message, note].compactMap { $0 }.joined(separator: " ")
            return .photo(IndexedPhoto(
                path: path, fileSize: stamp.size, modificationTime: stamp.modified, format: metadata.format,
                captureDate: date, pixelSize: metadata.pixelSize, orientation: metadata.orientation,
                displaySize: metadata.displaySize, cameraMake: metadata.cameraMake, cameraModel: metadata.cameraModel,
                error: error.isEmpty ? nil : error, duration: metadata.duration
            ), failed: metadata.problem != nil)
        } catch {
            switch error.code {
            case .notAnImage:
                return .notAnImage(path, stamp)
            case .unreadable:
                return .unreadable(candidate.known?.isPhoto == true ? nil : failedPhoto(
                    path, stamp: nil, modified: stamp.modified, format: nil, message: error.message, context: context))
            case .truncated, .malformed, .budgetExceeded:
                return .photo(failedPhoto(path, stamp: stamp, format: error.format, message: error.message, context: context), failed: true)
            }
        }
    }

    /// A row for a file that could not be read. Without a stamp the row never matches the file, so
    /// the next run tries it again (e.g. after its permissions are fixed); its date still comes
    /// from the modification time when that could be read (`modified`).
    private func failedPhoto(
        _ path: RelativePath, stamp: FileStamp?, modified: Int64? = nil, format: ImageFormat?, message: String,
        context: ReadContext
    ) -> IndexedPhoto {
        var note: String?
        let date = fallbackDate(path: path, stamp: stamp ?? FileStamp(size: -1, modified: modified ?? 0), context: context, note: &note)
        return IndexedPhoto(
            path: path, fileSize: stamp?.size ?? -1, modificationTime: stamp?.modified ?? -1,
            format: format, captureDate: date, error: [message, note].compactMap { $0 }.joined(separator: " "))
    }

    /// The end of the date chain: a sidecar (XMP, then Takeout JSON), a date in the file name, else
    /// the modification time in local time. A sidecar that cannot be used leaves a `note`.
    private func fallbackDate(path: RelativePath, stamp: FileStamp, context: ReadContext, note: inout String?) -> CaptureDate {
        let (folder, name) = path.folderAndName
        for sidecar in SidecarNames.sidecars(of: name, among: context.sidecars[folder] ?? []) {
            guard let kind = SidecarNames.kind(of: sidecar) else { continue }
            do {
                if let date = try sidecarDate(context.root + folder.appending(sidecar).bytes, kind: kind) { return date }
            } catch {
                note = (note.map { $0 + " " } ?? "") + "Sidecar \(String(decoding: sidecar, as: UTF8.self)) ignored: \(error.message)"
            }
        }
        if let date = CaptureDate.fromFileName(path.lastComponent) { return date }
        var seconds = time_t(stamp.modified / 1_000_000_000)
        var local = tm()
        localtime_r(&seconds, &local)
        return CaptureDate.fromModificationTime(
            secondsSince1970: stamp.modified / 1_000_000_000,
            nanoseconds: Int(stamp.modified % 1_000_000_000),
            utcOffsetSeconds: Int(local.tm_gmtoff))
    }
}

/// What every reader thread needs besides the file: where the root is, and the sidecars the walk saw.
private struct ReadContext: Sendable {
    /// The root's bytes followed by `/`.
    var root: [UInt8]
    /// Sidecar file names by folder.
    var sidecars: [RelativePath: [[UInt8]]]
}

extension IndexJob {
    /// The date in the sidecar at `absolutePath`; opened as the photos are, never following a link.
    fileprivate func sidecarDate(_ absolutePath: [UInt8], kind: SidecarReader.Kind) throws(MetadataError) -> CaptureDate? {
        switch FileSystem.openForReading(absolutePath) {
        case .success(let descriptor):
            defer { close(descriptor) }
            return try SidecarReader().date(fileDescriptor: descriptor, kind: kind)
        case .failure(let error):
            throw MetadataError(.unreadable, "The sidecar cannot be opened: \(error).")
        }
    }
}

/// Lets progress through at most every 100 ms.
private final class ReportThrottle {
    private var last = ContinuousClock.now

    func isDue() -> Bool {
        let now = ContinuousClock.now
        guard now - last >= .milliseconds(100) else { return false }
        last = now
        return true
    }
}

/// What tests may observe of the indexer's threads.
package enum IndexDiagnostics {
    /// Reader threads running now in runs of this process that write the database at `path`.
    package static func liveReaderThreads(database path: String) -> Int {
        IndexJob.liveReaders.withLock { $0[path] ?? 0 }
    }
}

/// File name extensions of photos and videos, for telling a damaged photo from any other file.
enum MediaExtensions {
    static let all: Set<String> = [
        "jpg", "jpeg", "jpe", "heic", "heif", "hif", "avif", "png", "webp", "tif", "tiff", "gif",
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "pef", "raf", "mrw", "x3f", "iiq", "srw", "3fr",
        "mp4", "mov", "m4v", "3gp", "avi", "mkv", "webm", "mts", "m2ts", "ts",
    ]

    static func isMedia(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return all.contains(name[name.index(after: dot)...].lowercased())
    }
}
