import Foundation
import GRDB
import PhotoMetadata

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

    /// Opens (and, for `.readWrite`, creates and migrates) the database at `path`.
    public init(path: String, mode: Mode) throws(IndexError) {
        self.path = path
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = fileManager.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw IndexError(.databaseIsDirectory, "\(path) is a folder; give the database a file name, e.g. --db \(path)/library.sqlite.")
        }
        if exists {
            try Self.checkIsShoeboxDatabase(path: path)
        } else if mode == .readOnly {
            throw IndexError(.databaseNotFound, "There is no index at \(path) yet; run `shoebox index FOLDER` first (or pass the right --db).")
        }

        do {
            switch mode {
            case .readOnly:
                var configuration = Configuration()
                configuration.readonly = true
                configuration.busyMode = .timeout(10)
                reader = try DatabaseQueue(path: path, configuration: configuration)
                writer = nil
                try reader.read { db in try Self.checkSchemaVersion(db, path: path) }
            case .readWrite:
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty {
                    try? fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                if !exists && !fileManager.isWritableFile(atPath: directory.isEmpty ? "." : directory) {
                    throw IndexError(.databaseNotWritable, "Cannot create the database at \(path): the folder is missing or not writable; choose another place with --db FILE.")
                }
                var configuration = Configuration()
                configuration.busyMode = .timeout(10)
                configuration.prepareDatabase { db in
                    try db.execute(sql: "PRAGMA synchronous = NORMAL")
                }
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.read { db in try Self.checkSchemaVersion(db, path: path) }
                try Self.migrator.migrate(pool)
                // The reader that checked the version holds the schema from before the migration.
                pool.invalidateReadOnlyConnections()
                writer = pool
                reader = pool
            }
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(Self.code(for: error), Self.message(for: error, path: path), underlyingError: error)
        }
    }

    /// Refuses files that are not SQLite, or SQLite databases of another program, without writing.
    private static func checkIsShoeboxDatabase(path: String) throws(IndexError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw IndexError(.databaseNotWritable, "Cannot open \(path): permission denied; choose another database with --db FILE.")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        if header.isEmpty { return }  // an empty file: a database to create
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw IndexError(.notAShoeboxDatabase, "\(path) is not a Shoebox database (it is not even an SQLite file); choose another path with --db FILE.")
        }
        let id = header[68..<72].reduce(Int32(0)) { ($0 << 8) | Int32($1) }
        if id == applicationID { return }
        // An SQLite file without our id: only acceptable if it holds nothing (size of one page).
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > max(pageSize, 512) || id != 0 {
            throw IndexError(.notAShoeboxDatabase, "\(path) is an SQLite database of another program, not a Shoebox index; choose another path with --db FILE.")
        }
    }

    private static func checkSchemaVersion(_ db: Database, path: String) throws {
        let applied = try db.tableExists("grdb_migrations")
            ? try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations") : []
        let known = Set(migrator.migrations)
        if !applied.isSubset(of: known) {
            throw IndexError(.databaseTooNew, "\(path) was written by a newer Shoebox; update Shoebox to read it.")
        }
    }

    private static func code(for error: any Error) -> IndexError.Code {
        guard let dbError = error as? DatabaseError else { return .databaseFailure }
        switch dbError.resultCode {
        case .SQLITE_NOTADB: return .notAShoeboxDatabase
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM: return .databaseNotWritable
        default: return .databaseFailure
        }
    }

    private static func message(for error: any Error, path: String) -> String {
        switch code(for: error) {
        case .notAShoeboxDatabase:
            return "\(path) is not a Shoebox database; choose another path with --db FILE."
        case .databaseNotWritable:
            return "Cannot write the database at \(path) (\((error as? DatabaseError)?.message ?? "\(error)")); choose a writable place with --db FILE."
        default:
            return "The database at \(path) failed: \(error)."
        }
    }
}
