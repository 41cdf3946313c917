import ArgumentParser
import Dispatch
import Foundation
import LibraryIndex

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

    @Argument(help: ArgumentHelp("The folder that holds the photos.", valueName: "root"))
    var root: String

    @Option(name: .long, help: ArgumentHelp("Files read in parallel (default: one per core).", valueName: "n"))
    var jobs: Int?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1 (e.g. --jobs 4), or left out to use every core.")
        }
    }

    func run() async throws {
        var settings = try library.loadConfiguration().index
        if let jobs { settings.jobs = jobs }
        // Check the root before creating a database for it.
        let storePath = library.databasePath
        let store: LibraryStore
        let indexer: Indexer
        do {
            _ = try Indexer.resolveRoot(root)
            store = try LibraryStore(path: storePath, mode: .readWrite)
            indexer = try Indexer(root: root, store: store, settings: settings)
        }

        let run = indexer.run()
        let interrupts = InterruptHandler { run.stop() }
        defer { interrupts.cancel() }
        let display = ProgressDisplay(enabled: isatty(STDERR_FILENO) == 1)
        var last = IndexProgress()
        for try await progress in run {
            last = progress
            display.show(progress)
        }
        display.finish()
        print(IndexSummary(progress: last, root: indexer.root, database: storePath, elapsed: display.elapsed).text)
        if last.phase == .stopped { throw ExitCode(130) }
    }
}

/// Turns the first Ctrl-C into a clean stop; a second one quits at once.
final class InterruptHandler {
    private let source: any DispatchSourceSignal

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        nonisolated(unsafe) var count = 0
        source.setEventHandler {
            count += 1
            if count > 1 { _exit(130) }
            let clearLine = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[2K" : "\n"
            FileHandle.standardError.write(Data("\(clearLine)Stopping: committing what was read (Ctrl-C again to quit at once)…\n".utf8))
            onInterrupt()
        }
        source.resume()
        self.source = source
    }

    func cancel() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
