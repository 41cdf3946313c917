import Foundation
import Places
import PhotoMetadata
import Synchronization

/// One stage of a run's reading: candidates come in through `hand` (from the walk, a folder at a
/// time, while it goes on), reader threads read them, and the writer takes their outcomes from
/// `results`.
///
/// Reader threads start as candidates arrive, never more than candidates handed in or the run's
/// `readerThreads`, so a run that finds nothing to read starts none. With the default jobs, a
/// reader whose files come from the disk rather than the page cache starts another, up to
/// `maximumReaderThreads`: a cold first index waits on the disk, a warm one on the cores.
///
/// The feeder holds a producer's place in `results` until `close()`: the writer sees the stage
/// drained only once the last candidate has been handed in and read.
final class ReadStage: Sendable {
    let results: ResultBuffer<(IndexJob.Candidate, IndexJob.Outcome)>
    /// The reader threads and the feeder's own, if it has one: waiting for it leaves no thread running.
    let threads = DispatchGroup()
    private let queue = WorkQueue<IndexJob.Candidate>()
    private let job: IndexJob
    private let readersStarted = Mutex<Int>(0)

    #if DEBUG
    /// Seconds each reader waits before a file, from `SHOEBOX_TEST_READ_DELAY` (debug builds only):
    /// lets the command-line tests interrupt or kill a run while it is certainly still reading.
    private static let testReadDelay = ProcessInfo.processInfo.environment["SHOEBOX_TEST_READ_DELAY"].flatMap(Double.init)
    #endif

    init(job: IndexJob) {
        self.job = job
        results = ResultBuffer(capacity: job.settings.batchSize * 4, producers: 1)
    }

    /// Queues `candidates` for the readers, and starts readers while there are fewer than
    /// candidates handed in so far. Called by the feeder's threads (the walk's), before `close()`.
    func hand(_ candidates: [IndexJob.Candidate]) {
        guard !candidates.isEmpty else { return }
        let handed = queue.append(contentsOf: candidates)
        let wanted = min(job.settings.readerThreads, handed)
        let starting = readersStarted.withLock { started in
            defer { started = max(started, wanted) }
            return max(0, wanted - started)
        }
        for _ in 0..<starting { startReader() }
    }

    /// Every candidate handed in so far.
    var handed: [IndexJob.Candidate] { queue.items }

    /// No more candidates: the readers end once the queue is empty. Called once, by the feeder.
    func close() {
        queue.close()
        results.producerFinished()
    }

    /// Ends the stage at once (the writer gave up): readers take nothing more, and none waits on a
    /// full buffer.
    func cancel() {
        queue.cancel()
        results.cancel()
    }

    /// How many files a reader reads between two looks at its disk reads.
    static let filesPerCheck = 16

    private func startReader() {
        results.addProducers(1)
        threads.enter()
        let database = job.store.path
        IndexJob.liveReaders.withLock { $0[database, default: 0] += 1 }
        let thread = Thread { [self] in
            let reader = MetadataReader()
            var folders = FolderOpener(rootPrefix: job.rootPrefix)
            var disk = DiskReads()
            var sinceCheck = 0
            // Photos with a position read while the places table loads on a thread of its own:
            // this reader reads on, and names them once the table is there.
            var awaitingPlaces: [(IndexJob.Candidate, IndexedPhoto, failed: Bool)] = []
            var placeTable = ReaderPlaceTable()
            while !job.control.isStopRequested, let candidate = queue.next() {
                #if DEBUG
                if let delay = Self.testReadDelay { Thread.sleep(forTimeInterval: delay) }
                #endif
                let outcome = job.timings.measure(.read) { job.read(candidate, reader: reader, folders: &folders) }
                if case .photo(let photo, let failed) = outcome, photo.placePending, !job.places.isSettled {
                    job.places.loadInBackground()
                    awaitingPlaces.append((candidate, photo, failed))
                } else {
                    push(candidate, outcome, placeTable: &placeTable)
                }
                if !awaitingPlaces.isEmpty && job.places.isSettled { pushNamingPlaces(&awaitingPlaces, placeTable: &placeTable) }
                sinceCheck += 1
                if sinceCheck == Self.filesPerCheck {
                    sinceCheck = 0
                    // A page (8 blocks of 512 bytes) or more per file came from the disk rather
                    // than the page cache: the files are cold, not a page of code now and then.
                    if disk.blocksSinceLastCheck() >= 8 * Self.filesPerCheck { grow() }
                }
            }
            // The photos still waiting are named when the table is there; a run that stops meanwhile
            // does not wait for it, and hands them over unnamed, for the next run to name.
            while !awaitingPlaces.isEmpty && !job.places.isSettled && !job.control.isStopRequested {
                _ = job.places.waitUntilSettled(timeout: 0.05)
            }
            if job.places.isSettled {
                pushNamingPlaces(&awaitingPlaces, placeTable: &placeTable)
            } else {
                for (candidate, photo, failed) in awaitingPlaces { results.push((candidate, .photo(photo, failed: failed))) }
            }
            results.producerFinished()
            IndexJob.liveReaders.withLock { $0[database, default: 0] -= 1 }
            threads.leave()
        }
        thread.name = "shoebox.reader"
        thread.start()
    }

    /// Hands `outcome` to the writer, a photo with a position named first. Called only once the
    /// places table has settled, or for an outcome that needs no place.
    private func push(_ candidate: IndexJob.Candidate, _ outcome: IndexJob.Outcome, placeTable: inout ReaderPlaceTable) {
        guard case .photo(var photo, let failed) = outcome, photo.placePending else {
            results.push((candidate, outcome))
            return
        }
        job.namePlace(of: &photo, in: placeTable.settled(job.places))
        results.push((candidate, .photo(photo, failed: failed)))
    }

    /// Names and hands over the photos that waited for the places table, once it has settled.
    private func pushNamingPlaces(_ awaiting: inout [(IndexJob.Candidate, IndexedPhoto, failed: Bool)], placeTable: inout ReaderPlaceTable) {
        for (candidate, photo, failed) in awaiting { push(candidate, .photo(photo, failed: failed), placeTable: &placeTable) }
        awaiting.removeAll()
    }

    /// The places table as one reader sees it: taken from the run's lazy table the first time a
    /// photo needs it after it has settled, then kept, so that naming a place takes no lock and
    /// copies no table per photo.
    struct ReaderPlaceTable {
        private var table: PlaceTable?
        private var taken = false

        mutating func settled(_ places: LazyPlaceTable) -> PlaceTable? {
            if !taken {
                table = places.table
                taken = true
            }
            return table
        }
    }

    /// Starts one more reader, when the run's readers may grow (the default jobs) and there are
    /// more files than readers: reads that wait on the disk leave the cores idle, and a disk
    /// serves more requests at once about as fast as one.
    private func grow() {
        let settings = job.settings
        guard settings.growsReaders else { return }
        let limit = min(settings.maximumReaderThreads, queue.count)
        let starting = readersStarted.withLock { started -> Bool in
            guard started < limit else { return false }
            started += 1
            return true
        }
        if starting {
            job.readersAdded.add(1, ordering: .relaxed)
            startReader()
        }
    }
}

/// The blocks a thread has read from a disk, rather than found in the page cache, by the kernel's
/// own count (`getrusage(RUSAGE_THREAD)`'s `ru_inblock`; always 0 where there is no such count).
struct DiskReads {
    private var last = DiskReads.blocksReadByThisThread()

    /// Blocks read since the last call (or since this value was made).
    mutating func blocksSinceLastCheck() -> Int {
        let now = Self.blocksReadByThisThread()
        defer { last = now }
        return now - last
    }

    static func blocksReadByThisThread() -> Int {
        #if os(Linux)
        let thread: Int32 = 1  // RUSAGE_THREAD, which Glibc's module does not export
        var usage = rusage()
        return getrusage(thread, &usage) == 0 ? usage.ru_inblock : 0
        #else
        return 0
        #endif
    }
}
