import ArgumentParser
import Dispatch
import Foundation
import LibraryIndex
import Places
import PhotoLibrary

/// `shoebox index ROOT`: crawl a folder into the database.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index the photos under a folder (again: only new and changed files are read).",
        discussion: """
            Every file whose content is an image becomes a row: capture date (EXIF, else the file \
            name, else the modification time) and where it came from, display size, format, and an \
            error for files that cannot be read. Files that are not images are counted and skipped. \
            Hidden files and folders are skipped; symbolic links are not followed.

            Ctrl-C stops after committing what was read; run the same command again to finish.
            """
    )

    @Argument(help: ArgumentHelp("The folder that holds the photos (a name starting with '-' goes after --).", valueName: "root"))
    var root: String

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "Files read in parallel, 1–\(IndexSettings.maximumJobs) (default: one per core and at least 2, here \(IndexSettings.defaultJobs), growing to 8 per core and at least 32, here \(IndexSettings.coldJobs), while files come from the disk rather than the page cache: reads that wait on the disk leave the cores idle).",
        valueName: "n"))
    var jobs: Int?

    @Flag(help: ArgumentHelp(
        "Remove the rows of files that are gone, even when that is all of them or more than the removal limit.",
        discussion: "Without it, a run that would remove every photo, or more than index.removalLimit (10%) of a library, keeps them and marks them missing: an unmounted drive looks like an empty folder."))
    var prune = false

    @Flag(help: "Keep running: watch the folder and index new, changed, moved and deleted files as they happen (Ctrl-C stops).")
    var watch = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let jobs, !(1...IndexSettings.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs takes 1 to \(IndexSettings.maximumJobs) (e.g. --jobs 4), or leave it out for the default (\(IndexSettings.defaultJobs) here).")
        }
    }

    func run() async throws {
        // Armed first: a Ctrl-C from here on stops the run cleanly, even before it has started.
        let interrupts = InterruptWatcher()
        defer { interrupts.cancel() }
        let configuration = try library.loadConfiguration()
        var settings = configuration.index
        if let jobs { settings.jobs = jobs }
        // Check the root before creating a database for it.
        let storePath = library.databasePath
        _ = try Indexer.resolveRoot(root)
        let places = Self.installedPlaces()
        // A first index reads every photo, and photos with positions are common: the places table
        // loads on the other core while this one creates the database, rather than later, when the
        // readers want both cores. A later run loads it only if a photo it reads has a position.
        if !FileManager.default.fileExists(atPath: storePath) { places.preloadInBackground() }
        let store = try LibraryStore(path: storePath, mode: .readWrite)
        // Each run ends by persisting the sections, so that `sections` and `zoom` need not group every photo.
        store.persistTimeline(with: SectionTablePersister(settings: configuration.sections))
        let indexer = try Indexer(root: root, store: store, settings: settings, places: places)

        if watch {
            try await watchLibrary(root: indexer.root, store: store, settings: settings, places: places, interrupts: interrupts)
            return
        }
        let run = indexer.run(prune: prune)
        interrupts.onInterrupt { run.stop() }
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1)
        var last = IndexProgress()
        for try await progress in run {
            last = progress
            display.show(progress)
        }
        display.finish()
        try Output.line(IndexSummary(progress: last, root: indexer.root, database: storePath, elapsed: display.elapsed).text)
        if last.phase == .stopped { throw ExitCode(130) }
        if last.rootWasUnreadable {
            throw CLIError("Cannot read the folder \(indexer.root): nothing in the index was changed. Check its permissions (ls -ld \(indexer.root)).")
        }
        if last.missing > 0 {
            Output.note(Self.missingWarning(last, root: indexer.root))
            throw ExitCode(Self.missingExitCode)
        }
    }

    /// The installed places table, loaded when a photo with a position needs a place; without
    /// one, says so once on standard error then, and photos keep their positions without names.
    static func installedPlaces() -> LazyPlaceTable {
        LazyPlaceTable.installed { Output.note($0.message) }
    }

    /// Indexes changes as they happen until Ctrl-C, one line per run that changed something.
    private func watchLibrary(
        root: String, store: LibraryStore, settings: IndexSettings, places: LazyPlaceTable, interrupts: InterruptWatcher
    ) async throws {
        let watcher = try LibraryWatcher(root: root, store: store, settings: settings, places: places)
        interrupts.onInterrupt { watcher.stop() }
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1)
        let clock = DateFormatter()
        clock.dateFormat = "HH:mm:ss"
        for await event in watcher.events() {
            let time = clock.string(from: Date())
            switch event {
            case .watching(let folders):
                try Output.line("\(time)  Watching \(folders.counted("folder")) under \(root.terminalSafe) (Ctrl-C to stop)")
            case .fallback(let reason):
                try Output.line("\(time)  Cannot watch for changes: \(reason)")
            case .eventsOverflowed:
                try Output.line("\(time)  Too many changes at once: some were not reported; a full run catches up")
            case .rootGone(let reason, let waitsForMount):
                let until = waitsForMount ? "something is mounted there again" : "it is back"
                try Output.line("\(time)  \(root.terminalSafe) \(reason): nothing is removed; waiting until \(until)")
            case .rootReturned:
                try Output.line("\(time)  \(root.terminalSafe) is back: catching up and watching again")
            case .runStarted:
                break
            case .progress(let progress):
                display.show(progress)
            case .runFinished(let p):
                display.finish()
                if p.added + p.updated + p.removed + p.failed + p.missing > 0 {
                    var line = "\(time)  \(p.added.grouped) added, \(p.updated.grouped) updated, \(p.removed.grouped) removed, \(p.failed.grouped) failed"
                    if p.missing > 0 { line += ", \(p.missing.grouped) missing (kept; shoebox photos --missing)" }
                    try Output.line(line)
                }
            case .runFailed(let error):
                display.finish()
                try Output.line("\(time)  Could not index (trying again): \(error.commandLineMessage.terminalSafe)")
            }
        }
        try Output.line("Stopped watching; everything read was committed.")
        throw ExitCode(130)
    }

    /// The exit status of a run that kept rows whose files were not found.
    static let missingExitCode: Int32 = 3

    static func missingWarning(_ progress: IndexProgress, root: String) -> String {
        let all = progress.missing >= progress.photosBefore
        let share = progress.photosBefore > 0 ? Double(progress.missing) / Double(progress.photosBefore) * 100 : 100
        let how = all ? "none of the \(progress.photosBefore.counted("photo")) in the index"
            : "\(progress.missing.grouped) of the \(progress.photosBefore.counted("photo")) in the index (\(String(format: "%.0f", share))%) were not"
        return """
            Warning: \(all ? how + " was" : how) found under \(root.terminalSafe). They were kept and marked missing, \
            in case the folder is on a drive that is not mounted or a share that is offline.
              List them:                 shoebox photos --missing
              If they are really gone:   shoebox index \(Self.shellQuoted(root)) --prune
            """
    }

    /// `path` quoted for a POSIX shell when it needs it.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0) }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
