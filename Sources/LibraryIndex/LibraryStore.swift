import Foundation
import CSQLiteTuning
import GRDB
import GRDBSQLite
import PhotoMetadata
import Synchronization

/// The SQLite file that holds one library's index.
///
/// Opened for writing by the indexer (a `DatabasePool` in WAL mode, so readers in other processes
/// are never blocked) or read-only by the commands that query it. An existing file is checked
/// before anything is written to it: a file that is not a Shoebox database is never touched.
public final class LibraryStore: Sendable {
    public enum Mode: Sendable {
        case readOnly
        case readWrite
    }

    /// Written to the SQLite header (`PRAGMA application_id`) to recognise Shoebox databases: "SHBX".
    static let applicationID: Int32 = 0x5348_4258

    public let path: String
    let writer: DatabasePool?
    let reader: any DatabaseReader
    /// Computes the section tables persisted at the end of each run (see `persistTimeline(with:)`).
    let timelinePersister = Mutex<(any TimelinePersisting)?>(nil)

    /// Opens (and, for `.readWrite`, creates and migrates) the database at `path`.
    public init(path: String, mode: Mode) throws(IndexError) {
        _ = Self.sqliteTuned
        self.path = path
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fileManager.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw IndexError(.databaseIsDirectory, "\(path) is a folder, not a database file.", subject: path)
        }
        if exists { try Self.checkIsShoeboxDatabase(path: path) }
        if !exists && mode == .readOnly {
            throw IndexError(.databaseNotFound, "There is no index at \(path) yet.", subject: path)
        }

        do {
            switch mode {
            case .readOnly:
                reader = try Self.openForReading(path: path)
                writer = nil
            case .readWrite:
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty {
                    try? fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                let folder = directory.isEmpty ? "." : directory
                if !fileManager.isWritableFile(atPath: folder) {
                    if Self.isOnReadOnlyFileSystem(folder) {
                        throw IndexError(.databaseReadOnly, "Cannot write the database at \(path): it is on a read-only file system.", subject: path)
                    }
                    if !exists {
                        throw IndexError(.databaseNotWritable, "Cannot create the database at \(path): the folder is missing or not writable.", subject: path)
                    }
                }
                let pool = try Self.openForWriting(path: path, creating: !exists || Self.isEmptyFile(path))
                writer = pool
                reader = pool
            }
        } catch let error as IndexError {
            throw error
        } catch {
            let code = Self.code(for: error)
            if mode == .readOnly && code == .databaseNotWritable {
                throw IndexError(.databaseUnreadable, "Cannot read the database at \(path) (\((error as? DatabaseError)?.message ?? "\(error)")); check that the file and its folder are readable.", subject: path, underlyingError: error)
            }
            throw IndexError(code, Self.message(for: error, path: path), subject: path, underlyingError: error)
        }
    }

    /// SQLite's memory statistics off, once, before this process's first connection
    /// (`shoebox_sqlite_disable_memory_statistics`): they serialise every allocation of every
    /// connection on one mutex.
    private static let sqliteTuned: Int32 = shoebox_sqlite_disable_memory_statistics()

    deinit {
        try? writer?.close()
        if writer == nil { try? reader.close() }
    }

    /// The writer, the schema created or migrated. Creating or migrating happens under the index
    /// lock, waited for: two first runs at once would otherwise both create the tables, and one
    /// would fail with a raw SQLite error ("database is locked", "table already exists").
    private static func openForWriting(path: String, creating: Bool) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            let added = shoebox_sqlite_add_search_words(db.sqliteConnection)
            guard added == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: added), message: "shoebox_search_words") }
        }
        if creating {
            let lock = try IndexLock(databasePath: path, waitingUpTo: .seconds(30))
            let pool = try openAndMigrate(path: path, configuration: configuration)
            _ = consume lock
            return pool
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        // On the writer's connection, which the migrations use too: no reader connection is
        // opened (and left holding the schema from before them) just for this.
        let complete = try pool.writeWithoutTransaction { db in
            try Self.checkSchemaVersion(db, path: path)
            return try migrator.hasCompletedMigrations(db)
        }
        if !complete {
            let lock = try IndexLock(databasePath: path, waitingUpTo: .seconds(30))
            try migrator.migrate(pool)
            _ = consume lock
        }
        return pool
    }

    private static func openAndMigrate(path: String, configuration: Configuration) throws -> DatabasePool {
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { db in
            try Self.checkSchemaVersion(db, path: path)
            _ = try Self.createFromSnapshot(db)
        }
        try migrator.migrate(pool)
        return pool
    }

    /// Whether the file at `path` has no bytes (from `stat`, which opens no descriptor).
    private static func isEmptyFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_size == 0
    }

    /// A read-only connection. On storage where SQLite cannot create the WAL index (`-shm`) beside
    /// the file, such as a read-only mount, the file is opened as immutable instead: nobody can
    /// write it there, so nothing can change under the reader.
    private static func openForReading(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let queue: DatabaseQueue
        do {
            queue = try openCheckingSchema(path: path, configuration: configuration)
        } catch let error as DatabaseError where [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(error.resultCode) {
            let folder = (path as NSString).deletingLastPathComponent
            guard !FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else { throw error }
            let absolute = URL(fileURLWithPath: path).standardizedFileURL
            var components = URLComponents()
            components.scheme = "file"
            components.path = absolute.path
            components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
            let immutable = try DatabaseQueue(path: components.string ?? path, configuration: configuration)
            try immutable.read { db in try checkSchema(db, path: path) }
            return immutable
        }
        return queue
    }

    /// Opens the database and checks its schema. A database that has no tables yet but was written
    /// in the last seconds, or has a journal or write-ahead log beside it, is most likely being
    /// created by an index run that started a moment ago (creating the tables takes some
    /// milliseconds): it is opened again for up to 3 seconds before it is refused, so a viewer or a
    /// command started beside a first index does not fail.
    private static func openCheckingSchema(path: String, configuration: Configuration) throws -> DatabaseQueue {
        let end = ContinuousClock.now + .seconds(3)
        while true {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            do {
                try queue.read { db in try checkSchema(db, path: path) }
                return queue
            } catch let error as IndexError where error.code == .databaseIncomplete {
                try? queue.close()
                guard ContinuousClock.now < end, mayBeBeingCreated(path) else { throw error }
                usleep(50_000)
            }
        }
    }

    private static func mayBeBeingCreated(_ path: String) -> Bool {
        var status = stat()
        if stat(path + "-wal", &status) == 0 || stat(path + "-journal", &status) == 0 { return true }
        guard stat(path, &status) == 0 else { return false }
        return time(nil) - status.st_mtim.tv_sec < 5
    }

    /// Whether `folder` lies on a file system mounted read-only.
    private static func isOnReadOnlyFileSystem(_ folder: String) -> Bool {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Refuses files that are not SQLite, or SQLite databases of another program, without writing.
    ///
    /// The file is read through SQLite only, never through a descriptor of its own: on Linux,
    /// closing any descriptor of a file drops all of the process's POSIX locks on it, SQLite's
    /// included, and another process closing its last connection would then believe it is alone,
    /// checkpoint and delete the write-ahead log under this process's live connections. SQLite
    /// keeps such descriptors open while any of its connections holds a lock, so opening and
    /// closing a connection here is safe beside others. It also reads through the write-ahead log,
    /// where a Shoebox index being written keeps its header page.
    private static func checkIsShoeboxDatabase(path: String, waitForCreation: Bool = true) throws(IndexError) {
        let facts: (applicationID: Int32, objects: Int)
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(5)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            facts = try queue.read { db in
                (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name <> 'grdb_migrations'") ?? 0)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw IndexError(.notAShoeboxDatabase, "\(path) is not a Shoebox database (it is not even an SQLite file).", subject: path)
        } catch {
            // access() opens nothing; other failures (a read-only mount without `-shm`, a lock held
            // for long) are for the real open to report with its own advice.
            if access(path, R_OK) != 0 {
                throw IndexError(.databaseNotWritable, "Cannot open \(path): permission denied.", subject: path)
            }
            return
        }
        // An empty file, or an SQLite file with nothing in it, is a database to create; so is one
        // that another Shoebox run is creating (its migrations' table is written before the schema).
        if facts.applicationID == applicationID || (facts.applicationID == 0 && facts.objects == 0) { return }
        // Another Shoebox run may be creating it, under the index lock: once that is free, look again.
        if waitForCreation, facts.applicationID == 0, (try? IndexLock(databasePath: path, waitingUpTo: .seconds(30))) != nil {
            return try checkIsShoeboxDatabase(path: path, waitForCreation: false)
        }
        throw IndexError(.notAShoeboxDatabase, "\(path) is an SQLite database of another program, not a Shoebox index.", subject: path)
    }

    /// For readers: a database newer than this Shoebox, or a file without an index in it (such as a
    /// copy of the `.sqlite` file made without its `-wal` file), gets a message saying what to do.
    private static func checkSchema(_ db: Database, path: String) throws {
        try checkSchemaVersion(db, path: path)
        guard try db.tableExists("photo") else {
            throw IndexError(.databaseIncomplete, "\(path) holds no index: it is empty, a copy of the .sqlite file made without its -wal file while Shoebox was writing, or an index run that is creating it has stopped.", subject: path)
        }
    }

    private static func checkSchemaVersion(_ db: Database, path: String) throws {
        let applied = try db.tableExists("grdb_migrations")
            ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) {
            throw IndexError(.databaseTooNew, "\(path) was written by a newer Shoebox.", subject: path)
        }
    }

    private static func code(for error: any Error) -> IndexError.Code {
        guard let dbError = error as? DatabaseError else { return .databaseFailure }
        switch dbError.resultCode {
        case .SQLITE_NOTADB: return .notAShoeboxDatabase
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return .databaseNotWritable
        case .SQLITE_CORRUPT: return .databaseIncomplete
        default: return .databaseFailure
        }
    }

    private static func message(for error: any Error, path: String) -> String {
        switch code(for: error) {
        case .notAShoeboxDatabase:
            return "\(path) is not a Shoebox database."
        case .databaseNotWritable:
            return "Cannot write the database at \(path) (\((error as? DatabaseError)?.message ?? "\(error)"))."
        case .databaseIncomplete:
            return "The database at \(path) is damaged or incomplete (\((error as? DatabaseError)?.message ?? "\(error)"))."
        default:
            return "The database at \(path) failed: \(error)."
        }
    }
}
