import ArgumentParser
import Foundation
import LibraryIndex

/// `shoebox relocate NEWROOT`: the photos moved; follow them, keeping every row.
struct RelocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relocate",
        abstract: "Point the index at the folder the photos were moved to, keeping every row.",
        discussion: """
            After moving the photo folder (a new drive, a renamed share), run this once, then \
            `shoebox index NEWROOT` as usual: files whose size and modification time survived the \
            move are not read again. Refuses when none of a sample of indexed photos is under \
            NEWROOT, unless --force.
            """
    )

    @Argument(help: ArgumentHelp("The folder that now holds the photos.", valueName: "new-root"))
    var newRoot: String

    @Flag(help: "Move the library even if no indexed photo is found under the new folder.")
    var force = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        guard let oldRoot = try store.root() else {
            throw CLIError("The index at \(library.databasePath) has no folder yet; run `shoebox index FOLDER` instead.")
        }
        let writable = try LibraryStore(path: library.databasePath, mode: .readWrite)
        let check = try writable.relocate(to: newRoot, force: force)
        let newRootResolved = try Indexer.resolveRoot(newRoot)
        try Output.line("""
            Moved the library from \(oldRoot.terminalSafe) to \(newRootResolved.terminalSafe) \
            (\(check.found) of \(check.sampled) sampled photos found there).
            Next: shoebox index \(IndexCommand.shellQuoted(newRootResolved))
            """)
    }
}
