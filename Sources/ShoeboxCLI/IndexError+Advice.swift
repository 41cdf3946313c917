import LibraryIndex
import PhotoLibrary

extension IndexError {
    /// The message followed by what to type about it, as the command line says it.
    var commandLineMessage: String {
        if code == .indexInProgress, let subject {
            return "Another `shoebox index` is already writing to \(subject); wait for it to finish (or stop it with Ctrl-C), then run again."
        }
        guard let advice else { return message }
        let statement = message.hasSuffix(".") ? String(message.dropLast()) : message
        return statement + "; " + advice
    }

    /// What a person at the command line does about this error, as the end of a sentence.
    private var advice: String? {
        let path = subject ?? "FILE"
        switch code {
        case .databaseIsDirectory: return "give the database a file name, e.g. --db \(path)/library.sqlite."
        case .databaseNotFound: return "run `shoebox index FOLDER` first (or pass the right --db)."
        case .databaseReadOnly: return "reading it works (shoebox photos, sections); to index, copy it to writable storage and pass that copy with --db FILE."
        case .databaseNotWritable: return "choose a writable place with --db FILE."
        case .notAShoeboxDatabase: return "choose another path with --db FILE."
        case .databaseIncomplete: return "copy an index with `shoebox backup FILE`, or index again with `shoebox index FOLDER --db \(path)`."
        case .databaseTooNew: return "update Shoebox to read it."
        case .otherRootIndexed: return "to index \(path) as a separate library, pass another database with --db FILE."
        case .indexInProgress: return "wait for it to finish (or stop it with Ctrl-C), then run again."
        case .diskFull: return "free some space (or choose another place with --db FILE) and run the same command again."
        case .rootNotFound: return "check the path (shoebox index FOLDER)."
        case .rootNotDirectory: return "give the folder that holds your photos."
        case .relocationMismatch: return "check the folder, or pass --force to move the library there anyway."
        case .destinationExists: return "give a new file name."
        case .destinationFolderMissing: return "create it first (mkdir -p \(path)), or give a file in a folder that exists."
        case .destinationIsDatabase: return "give a new file beside it instead, e.g. library-backup.sqlite."
        case .rootUnreadable, .unreadableRow, .databaseFailure, .databaseUnreadable, .invalidSettings, .backupFailed: return nil
        }
    }
}

extension LibraryError {
    /// The message as the command line says it: an index error with its advice.
    var commandLineMessage: String {
        indexError?.commandLineMessage ?? message
    }
}
