import ArgumentParser
import Foundation
import LibraryIndex
import PhotoLibrary

/// `shoebox backup FILE`: a consistent single-file copy of the index, even while a run writes.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the index to a new file, consistently, even while `shoebox index` is running.",
        discussion: """
            Uses SQLite's online backup. The copy is one self-contained file (no -wal beside it), \
            written under a temporary name and renamed when complete; an existing file is never \
            overwritten. Restore by passing the copy with --db, or by copying it back.
            """
    )

    @Argument(help: ArgumentHelp("The new file to write (a name starting with '-' goes after --).", valueName: "file"))
    var destination: String

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let store = try LibraryStore(path: library.databasePath, mode: .readOnly)
        let target = LibraryPaths.absolute(destination)
        try store.backup(to: target)
        let photos = try LibraryStore(path: target, mode: .readOnly).photoCount()
        try Output.line("Backed up \(photos.counted("photo")) from \(library.databasePath.terminalSafe) to \(target.terminalSafe)")
    }
}
