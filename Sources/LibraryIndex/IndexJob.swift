import Foundation
import PhotoMetadata
import Places
import Synchronization

/// One index run: walk and, as the walk goes on, read new and changed files on several threads,
/// write in batches, remove what disappeared. Everything is committed batch by batch, so a run
/// killed at any point leaves a consistent database and the next run picks up where it stopped.
final class IndexJob: Sendable {
    let root: String
    let store: LibraryStore
    let settings: IndexSettings
    /// Names places and gives offsets from them; loaded when a photo with a position needs it.
    let places: LazyPlaceTable
    /// Remove rows whose files are gone even past the removal limit.
    let prune: Bool
    /// Files still being written (the watcher saw them opened for writing and not yet closed):
    /// counted as seen, so their rows stay, but not read until a later run finds them complete.
    let deferred: Set<RelativePath>
    let control = RunControl()
    /// Where the run's time goes, when a benchmark asks.
    let timings: IndexTimings?
    /// The root's bytes followed by `/`.
    let rootPrefix: [UInt8]
    private let openedFiles = Atomic<Int>(0)
    /// Readers this run added to the default jobs because their files came from the disk.
    let readersAdded = Atomic<Int>(0)
    /// Changes this run wrote: none, and an earlier run that completed has linked the Live Photos.
    private let writtenChanges = Atomic<Int>(0)
    /// Whether this run writes no search words per batch but builds the search index at its end
    /// (a first index, or the run after one that was killed before its end).
    private let searchDeferred = Atomic<Bool>(false)
    /// The folders whose files this run changed: stacks are found again in these alone.
    private let changedFolders = Mutex<Set<RelativePath>>([])
    /// Beyond this many changed folders the stacks are found again from every photo at once.
    static let stackFoldersScoped = 256
    /// Reader threads running now, per database path (tests of one run must not see another's).
    package static let liveReaders = Mutex<[String: Int]>([:])

    #if DEBUG
    /// Tests only: called on the walk's thread each time it leaves a folder, after handing the
    /// folder's files to the readers.
    let folderWalkedForTesting = Mutex<(@Sendable (RelativePath) -> Void)?>(nil)
    #endif

    init(
        root: String, store: LibraryStore, settings: IndexSettings, places: LazyPlaceTable = LazyPlaceTable(nil), prune: Bool,
        deferring deferred: Set<RelativePath> = [], timings: IndexTimings? = nil
    ) {
        self.timings = timings
        self.root = root
        self.store = store
        self.settings = settings
        self.places = places
        self.prune = prune
        self.deferred = deferred
        rootPrefix = Array(root.utf8) + [UInt8(ascii: "/")]
    }

    /// A file the walk found that must be opened.
    struct Candidate: Sendable {
        var path: RelativePath
        var known: KnownFile?
        /// The sidecar names in the file's folder, complete: the walk hands a folder's files over
        /// when it leaves the folder.
        var sidecars: [[UInt8]] = []
    }

    /// What reading one candidate produced.
    enum Outcome: Sendable {
        case photo(IndexedPhoto, failed: Bool)
        case notAnImage(RelativePath, FileStamp)
        /// Could not be opened or read; an existing row is left as it was.
        case unreadable(IndexedPhoto?)
        case vanished(RelativePath)
    }

    func execute(report: (IndexProgress) -> Void) throws(IndexError) {
        let lock = try IndexLock(databasePath: store.path)
        let started = ContinuousClock.now
        try store.claimRoot(root)
        let known = try store.knownFiles()
        timings?.add(ContinuousClock.now - started, to: .start)
        var progress = IndexProgress()
        progress.photosBefore = known.photoCount
        let throttle = ReportThrottle()

        // 1. Walk and read at once: the walk, on threads of its own, hands each folder's new and
        // changed files to the reader threads when it leaves the folder; this thread writes. The
        // phase stays `.walking` while the walk goes on, though files are read meanwhile.
        let photos = ReadStage(job: self)
        let walker = DirectoryWalker(root: Array(root.utf8), settings: settings, excluding: store.ownFiles(inside: root))
        let walk = IndexWalk(job: self, walker: walker, known: consume known, feeding: photos)
        walk.start()
        // The run's row is written while the walk starts: before any of the run's changes, which
        // this thread writes after it.
        let lastRunCompleted: Bool
        let runID: Int64
        do {
            lastRunCompleted = try store.lastRunCompleted()
            // A first index builds its search index and the map's index at its end, each in one
            // statement; so does the run after a first one that was killed.
            var deferSearch = try store.searchWordsDeferred()
            if !deferSearch { deferSearch = try store.hasNoPhotos() }
            if deferSearch {
                try store.deferSearchWords()
                try store.deferMapIndex()
            }
            searchDeferred.store(deferSearch, ordering: .relaxed)
            runID = try store.beginRun()
        } catch {
            stop(photos)
            throw error
        }
        try write(photos, walk: walk.status, progress: &progress, throttle: throttle, report: report)
        let found = try walk.status.findings()
        progress = progress.adding(found.tally)
        progress.walkCompleted = found.isComplete
        progress.unreadableDirectories = found.unreadableDirectories
        progress.phase = .reading
        report(progress)
        let finishing = ContinuousClock.now

        // 2. The sidecars' own stamps after every photo: a run stopped in between finds the
        // sidecars changed next time, and reads their photos again.
        if !control.isStopRequested && !found.sidecarCandidates.isEmpty {
            let sidecars = ReadStage(job: self)
            sidecars.hand(found.sidecarCandidates)
            sidecars.close()
            try write(sidecars, walk: nil, progress: &progress, throttle: throttle, report: report)
        }

        // 3. Remove rows whose file is gone, unless the walk did not finish or could not see them,
        //    or so many are gone that the folder is more likely unmounted than emptied.
        if !control.isStopRequested {
            progress.phase = .removing
            report(progress)
            try apply(found.reappeared.map(IndexChange.found))
            let unseen = found.unseen
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

        // 4. Places for the photos read while no places table was at hand, if one is now.
        if !control.isStopRequested {
            writtenChanges.add(try store.namePendingPlaces(with: places, batchSize: settings.batchSize), ordering: .relaxed)
        }

        // From here on (a few large transactions: the search index, the stored tables) this thread
        // copies the log into the main file itself while the readers compute the stored tables,
        // rather than in whichever commit crosses SQLite's limit.
        store.automaticCheckpoints(false)
        defer { store.automaticCheckpoints(true) }

        // Pairs depend on the photo rows alone: unchanged since a completed run, they are as it left them.
        var stacks: Concurrently<LibraryStore.StackPlan>?
        if !control.isStopRequested && (writtenChanges.load(ordering: .relaxed) > 0 || !lastRunCompleted) {
            try timings.measure(.pairsAndStacks) { () throws(IndexError) in try store.linkLivePhotos() }
            // Stacks (RAW+JPEG, bursts, edits) depend on the photo rows of their folder alone:
            // after a completed run, only the folders this run changed can have new ones. They are
            // found on a reader connection while this thread builds the search index.
            let folders = changedFolders.withLock { $0 }
            let scope = lastRunCompleted && folders.count <= Self.stackFoldersScoped ? folders : nil
            stacks = Concurrently { [store, timings] () throws(IndexError) in
                try timings.measure(.pairsAndStacks) { () throws(IndexError) in try store.planStacks(inFolders: scope) }
            }
        }
        // The places' days depend on the photo rows and their pairs alone, as now committed: they
        // are counted on a reader connection while this thread builds the search index.
        let placeDays = !control.isStopRequested && writtenChanges.load(ordering: .relaxed) > 0
            ? Concurrently { [store] () throws(IndexError) in try store.countPlaceDays() } : nil
        // The search index of a first index, stopped or not, so that search finds what was written.
        if searchDeferred.load(ordering: .relaxed) { try store.rebuildSearchWords(timings: timings) }
        if let stacks {
            let plan = try stacks.value()
            try timings.measure(.pairsAndStacks) { () throws(IndexError) in try store.storeStacks(plan) }
        }
        progress.phase = control.isStopRequested ? .stopped : .completed
        progress.opened = openedFiles.load(ordering: .relaxed)
        let rowsChanged = writtenChanges.load(ordering: .relaxed) > 0
        // The timeline's tables and the map's cells are computed from the rows and stacks as now
        // committed, each on a reader connection, while this thread copies the log into the main
        // file and stores the places' days.
        let recompute = rowsChanged && !control.isStopRequested
        let timeline = recompute ? Concurrently { [store] () throws(IndexError) in try store.computeTimeline() } : nil
        let mapCells = recompute ? Concurrently { [store] () throws(IndexError) in try store.countMapCells() } : nil
        if recompute { store.copyLogAhead() }
        try store.finishRun(
            runID, progress: progress, rowsChanged: rowsChanged,
            computed: .init(placeDays: placeDays, timeline: timeline, mapCells: mapCells), timings: timings)
        // Everything into the main file, so that copying the `.sqlite` file alone copies the index.
        store.checkpoint()
        timings?.add(ContinuousClock.now - finishing, to: .finish)
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
        let deferred = searchDeferred.load(ordering: .relaxed)
        try timings.measure(.insert) { () throws(IndexError) in try store.apply(changes, timings: timings, searchDeferred: deferred) }
        writtenChanges.add(changes.count, ordering: .relaxed)
        changedFolders.withLock { folders in
            // A batch holds runs of files of one folder: each run's folder is made and hashed once.
            var last: ArraySlice<UInt8>?
            for change in changes {
                let folder = change.path.folderBytes
                guard folder != last else { continue }
                last = folder
                folders.insert(RelativePath(bytes: Array(folder)))
            }
        }
    }

    /// Stops the walk and the readers of `stage`, wakes any waiting on its full buffer, and lets
    /// them end, so that a run that fails (a full disk) leaves no thread in a long-lived process.
    private func stop(_ stage: ReadStage) {
        control.requestStop()
        stage.cancel()
        stage.threads.wait()
    }

    /// Writes the outcomes of `stage` batch by batch until it is drained. While `walk` goes on,
    /// the reports add its counts.
    private func write(
        _ stage: ReadStage, walk: IndexWalk.Status?, progress: inout IndexProgress, throttle: ReportThrottle,
        report: (IndexProgress) -> Void
    ) throws(IndexError) {
        var drained = false
        while !drained {
            let taken = stage.results.take(limit: settings.batchSize, until: Date().addingTimeInterval(0.2))
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
                // A write failed (a full disk): stop the walk and the readers, wake any waiting on the
                // full buffer, and let them end before reporting, so a long-lived process keeps no threads.
                stop(stage)
                throw error
            }
            progress.read += taken.items.count
            if drained || throttle.isDue() {
                progress.opened = openedFiles.load(ordering: .relaxed)
                report(walk?.adding(to: progress) ?? progress)
            }
        }
        stage.threads.wait()
    }

    /// Opens (through `folders`, the reader's) and reads one file. Runs on a reader thread.
    func read(_ candidate: Candidate, reader: MetadataReader, folders: inout FolderOpener) -> Outcome {
        let path = candidate.path
        let fd: Int32
        switch folders.open(path) {
        case .success(let descriptor):
            fd = descriptor
        case .failure(let error) where error.rawValue == ENOENT || error.rawValue == ENOTDIR || error.rawValue == ELOOP:
            return .vanished(path)
        case .failure(let error):
            return .unreadable(candidate.known?.isPhoto == true ? nil : failedPhoto(
                path, stamp: nil, modified: FileSystem.linkStatus(rootPrefix + path.bytes).map { FileStamp($0).modified },
                format: nil, message: "cannot open: \(error)", sidecars: candidate.sidecars))
        }
        openedFiles.add(1, ordering: .relaxed)
        defer { close(fd) }

        var st = stat()
        guard fstat(fd, &st) == 0, FileSystem.isRegularFile(st) else { return .vanished(path) }
        let stamp = FileStamp(st)
        // An empty file named like a photo is a photo that lost its bytes (a failed copy): a row
        // with an error, so it shows up, rather than a file silently skipped.
        if stamp.size == 0 && MediaExtensions.isMedia(path.lastComponent) {
            return .photo(failedPhoto(path, stamp: stamp, format: nil, message: "The file is empty.", sidecars: candidate.sidecars), failed: true)
        }
        do {
            let metadata = try reader.read(regularFile: fd, size: Int(stamp.size))
            var note: String?
            // An XMP sidecar is an editor's word: its date (with its offset) and position beat the
            // file's own. A Takeout JSON is opened only for what both lack.
            let editor = sidecarContents(path: path, sidecars: candidate.sidecars, note: &note, kind: .xmp)
            var sidecar = SidecarContents()
            let ownDate = editor.date ?? metadata.exifDate
            if ownDate == nil || (editor.position ?? metadata.position) == nil {
                // A sidecar read only for a position is not worth a note when it cannot be used.
                var sidecarNote: String?
                sidecar = sidecarContents(path: path, sidecars: candidate.sidecars, note: &sidecarNote, kind: .takeoutJSON)
                if ownDate == nil, let sidecarNote { note = note.map { $0 + " " + sidecarNote } ?? sidecarNote }
            }
            let date = editor.date?.withOffset(fromGPSTime: metadata.gpsTimestamp) ?? metadata.exifDate
                ?? fallbackDate(path: path, stamp: stamp, sidecar: sidecar).withOffset(fromGPSTime: metadata.gpsTimestamp)
            let position = editor.position ?? metadata.position ?? sidecar.position
            let error = [metadata.problem?.message, note].compactMap { $0 }.joined(separator: " ")
            var photo = IndexedPhoto(
                path: path, fileSize: stamp.size, modificationTime: stamp.modified, format: metadata.format,
                captureDate: date, pixelSize: metadata.pixelSize, orientation: metadata.orientation,
                displaySize: metadata.displaySize, cameraMake: metadata.cameraMake, cameraModel: metadata.cameraModel,
                error: error.isEmpty ? nil : error, duration: metadata.duration, position: position)
            // Named by `namePlace(of:)`, once the places table is at hand.
            photo.placePending = position != nil
            return .photo(photo, failed: metadata.problem != nil)
        } catch {
            switch error.code {
            case .notAnImage:
                return .notAnImage(path, stamp)
            case .unreadable:
                return .unreadable(candidate.known?.isPhoto == true ? nil : failedPhoto(
                    path, stamp: nil, modified: stamp.modified, format: nil, message: error.message, sidecars: candidate.sidecars))
            case .truncated, .malformed, .budgetExceeded:
                return .photo(failedPhoto(
                    path, stamp: stamp, format: error.format, message: error.message, sidecars: candidate.sidecars), failed: true)
            }
        }
    }

    /// Names the place of a photo read with a position (`placePending`) from `table` (the run's
    /// places table once it has settled) and gives its date that place's offset; without a table
    /// the photo stays pending, for a later run that has one (`LibraryStore.namePendingPlaces`).
    func namePlace(of photo: inout IndexedPhoto, in table: PlaceTable?) {
        guard photo.placePending, let position = photo.position else { return }
        let place = timings.measure(.placeLookup) { table?.nearest(latitude: position.latitude, longitude: position.longitude) }
        photo.captureDate.takeOffset(from: place)
        photo.place = place.map(PhotoPlace.init)
        photo.placePending = table == nil
    }

    /// A row for a file that could not be read. Without a stamp the row never matches the file, so
    /// the next run tries it again (e.g. after its permissions are fixed); its date still comes
    /// from the modification time when that could be read (`modified`).
    private func failedPhoto(
        _ path: RelativePath, stamp: FileStamp?, modified: Int64? = nil, format: ImageFormat?, message: String,
        sidecars: [[UInt8]]
    ) -> IndexedPhoto {
        var note: String?
        let sidecar = sidecarContents(path: path, sidecars: sidecars, note: &note)
        let date = fallbackDate(path: path, stamp: stamp ?? FileStamp(size: -1, modified: modified ?? 0), sidecar: sidecar)
        return IndexedPhoto(
            path: path, fileSize: stamp?.size ?? -1, modificationTime: stamp?.modified ?? -1,
            format: format, captureDate: date, error: [message, note].compactMap { $0 }.joined(separator: " "),
            position: sidecar.position)
    }

    /// What the photo's sidecars say, best sidecar first (XMP, then Takeout JSON; only those of
    /// `kind` when given): the first date found, and the first position. A sidecar that cannot be
    /// used before a date is found leaves a `note`. `sidecars` are the sidecar names in the file's folder.
    private func sidecarContents(
        path: RelativePath, sidecars: [[UInt8]], note: inout String?, kind only: SidecarReader.Kind? = nil
    ) -> SidecarContents {
        var found = SidecarContents()
        guard !sidecars.isEmpty else { return found }
        let (folder, name) = path.folderAndName
        for sidecar in SidecarNames.sidecars(of: name, among: sidecars) {
            guard let kind = SidecarNames.kind(of: sidecar), only == nil || kind == only else { continue }
            do {
                let contents = try sidecarContents(rootPrefix + folder.appending(sidecar).bytes, kind: kind)
                found.date = found.date ?? contents.date
                found.position = found.position ?? contents.position
                if found.date != nil && found.position != nil { break }
            } catch where found.date == nil {
                note = (note.map { $0 + " " } ?? "") + "Sidecar \(String(decoding: sidecar, as: UTF8.self)) ignored: \(error.message)"
            } catch {
                continue
            }
        }
        return found
    }

    /// The end of the date chain: a sidecar's date, a date in the file name, else the modification
    /// time in local time.
    private func fallbackDate(path: RelativePath, stamp: FileStamp, sidecar: SidecarContents) -> CaptureDate {
        if let date = sidecar.date { return date }
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

extension IndexJob {
    /// The date and position in the sidecar at `absolutePath`; opened as the photos are, never
    /// following a link.
    fileprivate func sidecarContents(_ absolutePath: [UInt8], kind: SidecarReader.Kind) throws(MetadataError) -> SidecarContents {
        switch FileSystem.openForReading(absolutePath) {
        case .success(let descriptor):
            defer { close(descriptor) }
            return try SidecarReader().contents(fileDescriptor: descriptor, kind: kind)
        case .failure(let error):
            throw MetadataError(.unreadable, "The sidecar cannot be opened: \(error).")
        }
    }
}

typealias SidecarContents = SidecarReader.Contents

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
