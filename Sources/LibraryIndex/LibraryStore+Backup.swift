import Foundation
import GRDB

extension LibraryStore {
    /// Moves everything in the write-ahead log into the main file and empties the log, so that the
    /// `.sqlite` file alone holds the whole index. Best effort: a reader that keeps an old snapshot
    /// open can hold part of the log back until the next run.
    func checkpoint() {
        _ = try? writer?.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Copies what it can of the write-ahead log into the main file without waiting for anyone
    /// and without emptying the log: for a writer with nothing else to do while readers work.
    /// Best effort.
    func copyLogAhead() {
        _ = try? writer?.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    /// Turns SQLite's automatic checkpoints of the writer off (`false`) or back on at its default
    /// of 1,000 pages. An index run turns them off for its end, where a commit that crossed the
    /// limit stalled the run with a copy of the whole log, and copies the log itself while its
    /// readers compute the stored tables (``copyLogAhead()``).
    func automaticCheckpoints(_ on: Bool) {
        _ = try? writer?.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(on ? 1000 : 0)") }
    }

    /// Writes a consistent copy of the index to `destination` with SQLite's online backup, even
    /// while a run is writing. The copy is a single file, written under a temporary name and renamed
    /// into place when complete; an existing file at `destination` is never overwritten.
    ///
    /// Refused, before anything is written: a destination that is the database or one of its
    /// companion files (`-wal`, `-shm`, `-journal`, `-lock`; a file appearing under the `-journal`
    /// name would be taken by SQLite for a hot journal and rolled back into the database), and a
    /// destination whose folder does not exist.
    public func backup(to destination: String) throws(IndexError) {
        let fileManager = FileManager.default
        if let name = Self.companionName(of: path, matching: destination) {
            throw IndexError(.destinationIsDatabase, "Cannot back up to \(destination): it is \(name), not a new file.", subject: destination)
        }
        let destinationFolder = (destination as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if !fileManager.fileExists(atPath: destinationFolder.isEmpty ? "." : destinationFolder, isDirectory: &isFolder) || !isFolder.boolValue {
            throw IndexError(
                .destinationFolderMissing, "Cannot back up to \(destination): the folder \(destinationFolder) does not exist.",
                subject: destinationFolder)
        }
        if fileManager.fileExists(atPath: destination) {
            throw IndexError(.destinationExists, "\(destination) already exists; a backup never overwrites a file.", subject: destination)
        }
        let folder = (destination as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((destination as NSString).lastPathComponent).partial-\(getpid())"
        do {
            do {
                let copy = try DatabaseQueue(path: temporary)
                try reader.backup(to: copy)
                try copy.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                }
                try copy.close()
            }
            guard link(temporary, destination) == 0 else {
                let error = Errno(errno)
                throw IndexError(.backupFailed, "Cannot write \(destination): \(error).")
            }
            unlink(temporary)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
            if let error = error as? IndexError { throw error }
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
                throw IndexError(.diskFull, "The disk holding \(destination) is full; nothing was written.", subject: destination, underlyingError: error)
            }
            throw IndexError(.backupFailed, "Cannot back up to \(destination): \((error as? DatabaseError)?.message ?? "\(error)").", underlyingError: error)
        }
    }

    /// Which of the database's own files `destination` names ("the database itself", "its
    /// write-ahead log", ...), comparing real folders, so that another spelling of the same folder
    /// (a symbolic link, `..`) is caught; `nil` for any other file.
    static func companionName(of database: String, matching destination: String) -> String? {
        guard let target = resolvingFolder(of: destination), let base = resolvingFolder(of: database) else { return nil }
        if let match = ownFileSuffixes.first(where: { base + $0.suffix == target }) { return match.name }
        // A hard link to the database under another name.
        if let file = FileIdentity(path: destination), file == FileIdentity(path: database) {
            return "the database itself (another name for the same file)"
        }
        return nil
    }
}
