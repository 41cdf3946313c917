import Foundation
import GRDB
@testable import LibraryIndex
import PhotoFixtures
import Testing

/// A new database is made from `LibraryStore.SchemaSnapshot` in one transaction rather than by
/// the migrations one by one: the two must make the same database.
@Suite("Schema snapshot")
struct SchemaSnapshotTests {
    /// The statements of `sqlite_schema` as the snapshot holds them, and the migrations applied.
    private static func schema(_ db: Database) throws -> (statements: [String], migrations: [String]) {
        let statements = try String.fetchAll(db, sql: #"""
            SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'photoSearch\_%' ESCAPE '\'
            ORDER BY rowid
            """#)
        return (statements, try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"))
    }

    /// Everything a new database holds: its schema objects, its application id and the rows of
    /// its ordinary tables (the migrations' record, the search table's configuration).
    private static func contents(_ db: Database) throws -> [String] {
        var lines = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
            .map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as String? ?? "-")" }
        lines.append("application_id \(try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0)")
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
        for table in tables {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") { lines.append("\(table): \(row)") }
        }
        return lines
    }

    @Test("the snapshot is the schema the migrations make (SHOEBOX_WRITE_SCHEMA_SNAPSHOT=1 writes it again)")
    func snapshotMatchesMigrations() throws {
        let queue = try DatabaseQueue()
        try LibraryStore.migrator.migrate(queue)
        let migrated = try queue.read(Self.schema)
        if ProcessInfo.processInfo.environment["SHOEBOX_WRITE_SCHEMA_SNAPSHOT"] != nil {
            let file = URL(filePath: #filePath).deletingLastPathComponent()
                .appending(path: "../../Sources/LibraryIndex/LibraryStore+SchemaSnapshot.swift").standardized
            try Self.source(statements: migrated.statements, migrations: migrated.migrations).write(to: file, atomically: true, encoding: .utf8)
        }
        #expect(migrated.migrations == LibraryStore.migrator.migrations)
        #expect(migrated.migrations == LibraryStore.SchemaSnapshot.migrations,
                "a migration was added: run SHOEBOX_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests")
        let differing = Self.firstDifference(migrated.statements, LibraryStore.SchemaSnapshot.statements)
        #expect(differing == nil, "the migrations make another schema (\(differing ?? "")): run SHOEBOX_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests")
    }

    @Test("a new database made from the snapshot holds exactly what the migrations make")
    func newDatabaseEqualsMigrated() throws {
        let folder = try TemporaryDirectory()
        let made = folder.path + "/made.sqlite", migrated = folder.path + "/migrated.sqlite"
        let store = try LibraryStore(path: made, mode: .readWrite)
        let queue = try DatabaseQueue(path: migrated)
        try LibraryStore.migrator.migrate(queue)
        let expected = try queue.read(Self.contents)
        try queue.close()

        let check = try DatabaseQueue(path: made)
        let contents = try check.read(Self.contents)
        let differing = Self.firstDifference(expected, contents)
        #expect(differing == nil, "the new database differs from a migrated one: \(differing ?? "")")
        #expect(contents.contains("application_id \(LibraryStore.applicationID)"))
        #expect(try check.read(LibraryStore.migrator.hasCompletedMigrations))
        try check.close()
        // And the store made that way indexes.
        #expect(try store.photoCount() == 0)
    }

    @Test("the snapshot is made only in an empty database, whole, with the migrations after it still applied")
    func snapshotOnlyInEmptyDatabase() throws {
        let queue = try DatabaseQueue()
        #expect(try queue.writeWithoutTransaction(LibraryStore.createFromSnapshot))
        // A second time the database has a schema: nothing changes.
        let before = try queue.read(Self.contents)
        #expect(try !queue.writeWithoutTransaction(LibraryStore.createFromSnapshot))
        #expect(try queue.read(Self.contents) == before)

        // A migration registered after the snapshot's is applied on top of it.
        var migrator = LibraryStore.migrator
        migrator.registerMigration("test-after-snapshot") { db in try db.execute(sql: "CREATE TABLE later (id INTEGER PRIMARY KEY)") }
        try migrator.migrate(queue)
        #expect(try queue.read { db in try db.tableExists("later") })

        // A database with another object is left alone.
        let other = try DatabaseQueue()
        try other.write { db in try db.execute(sql: "CREATE TABLE mine (x)") }
        #expect(try !other.writeWithoutTransaction(LibraryStore.createFromSnapshot))
        #expect(try other.read { db in try !db.tableExists("photo") })
    }

    /// The first line where `expected` and `actual` differ, both sides, or nil when they are equal.
    private static func firstDifference(_ expected: [String], _ actual: [String]) -> String? {
        guard expected != actual else { return nil }
        let index = (0..<min(expected.count, actual.count)).first { expected[$0] != actual[$0] } ?? min(expected.count, actual.count)
        let line = { (lines: [String]) in index < lines.count ? lines[index] : "(nothing)" }
        return "line \(index + 1): expected \(line(expected)), got \(line(actual))"
    }

    /// The source of `LibraryStore+SchemaSnapshot.swift` for `statements` and `migrations`.
    private static func source(statements: [String], migrations: [String]) -> String {
        var lines = [
            "import GRDB",
            "",
            "// Written from a database the migrations made, by",
            "// `SHOEBOX_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`; the same tests fail",
            "// when a migration changes the schema and this file does not follow. Not edited by hand.",
            "",
            "extension LibraryStore {",
            "    /// The schema every migration up to ``SchemaSnapshot/migrations`` makes, as SQLite stores it:",
            "    /// a new database is made from it in one transaction (``createFromSnapshot(_:)``), not by",
            "    /// replaying the migrations one transaction each.",
            "    enum SchemaSnapshot {",
            "        /// The migrations the statements stand for, in order.",
            "        static let migrations = [",
        ]
        lines += migrations.map { "            \"\($0)\"," }
        lines += [
            "        ]",
            "",
            "        /// `sqlite_schema`'s statements in its order (the search table's own tables and the",
            "        /// automatic indexes come with their tables).",
            "        static let statements = [",
        ]
        for statement in statements {
            lines.append("            \"\"\"")
            lines += statement.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "            " + $0 }
            lines.append("            \"\"\",")
        }
        lines += ["        ]", "    }", "}", ""]
        return lines.joined(separator: "\n")
    }
}
