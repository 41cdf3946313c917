import Foundation
import GRDB
import GRDBSQLite
@testable import LibraryIndex
import PhotoFixtures
import Testing

/// Rows bound through `RawBindings`, their texts and blobs from one reused buffer: each row stores
/// exactly what was bound, whatever the rows before it held.
@Suite("Parameters bound from a reused buffer")
struct RawBindingsTests {
    @Test("Texts, blobs, numbers and NULLs of many rows are stored as bound; empty stays empty, not NULL")
    func rowsAsBound() throws {
        let tree = try TemporaryDirectory()
        let queue = try DatabaseQueue(path: tree.path + "/bindings.sqlite")
        typealias Values = (number: Int?, text: String?, bytes: [UInt8], utf8: [UInt8], real: Double?)
        let rows: [Values] = [
            (1, "São Paulo", [1, 2, 3], Array("2025-03-08T10:00:00".utf8), 1.5),
            (nil, nil, [], [], nil),
            (3, "", [0, 0, 255], Array("a\u{0}b".utf8), -0.0),
            (4, String(repeating: "long text ", count: 200), Array(repeating: 7, count: 5000), Array("日本".utf8), .greatestFiniteMagnitude),
            (5, "a\u{0}b", [9], Array("x".utf8), 2),
        ]
        let (stored, reals) = try queue.write { db -> ([[String?]], [Double?]) in
            try db.execute(sql: "CREATE TABLE t (number, text, bytes, utf8, real)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
            var scratch = RawBindings.Scratch()
            for _ in 0..<3 {
                for row in rows {
                    try insert.execute(binding: { bind in
                        bind.integer(row.number)
                        bind.text(row.text)
                        bind.blob(row.bytes)
                        bind.text(utf8: row.utf8)
                        bind.double(row.real)
                    }, reusing: &scratch)
                }
            }
            // After a step no parameter points into the buffer: a step without binding stores NULLs.
            sqlite3_reset(insert.sqliteStatement)
            #expect(sqlite3_step(insert.sqliteStatement) == SQLITE_DONE)
            let stored = try Row.fetchAll(db, sql: """
                SELECT typeof(number), CAST(number AS TEXT), typeof(text), hex(text), typeof(bytes), hex(bytes), typeof(utf8), hex(utf8),
                    typeof(real)
                FROM t ORDER BY rowid
                """).map { row in (0..<9).map { row[$0] as String? } }
            return (stored, try Double?.fetchAll(db, sql: "SELECT real FROM t ORDER BY rowid"))
        }
        func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02X", $0) }.joined() }
        let expected: [[String?]] = rows.map { row in
            [row.number == nil ? "null" : "integer", row.number.map(String.init),
             row.text == nil ? "null" : "text", row.text.map { hex($0.utf8) } ?? "",  // hex(NULL) is empty
             "blob", hex(row.bytes), "text", hex(row.utf8),
             row.real == nil ? "null" : "real"]
        }
        #expect(stored.count == 16)
        #expect(Array(stored.prefix(15)) == expected + expected + expected)
        #expect(stored.last == ["null", nil, "null", "", "null", "", "null", "", "null"])
        #expect(reals == Array(repeating: rows.map(\.real), count: 3).flatMap { $0 } + [nil])
    }

    @Test("Rows inserted many a statement are stored whole and in order, at every count around a chunk's size",
          arguments: [0, 1, 2, 63, 64, 65, 128, 130, 1000])
    func rowsManyAStatement(count: Int) throws {
        let queue = try DatabaseQueue()
        let rows = (0..<count).map { index in (number: index, text: index % 3 == 0 ? nil : "São \(index)", real: Double(index) / 4) }
        let stored = try queue.write { db -> [Row] in
            try db.execute(sql: "CREATE TABLE t (number INTEGER PRIMARY KEY, text, real)")
            try db.insertRows("INSERT INTO t (number, text, real)", columns: 3, rows) { bind, row in
                bind.integer(row.number)
                bind.text(row.text)
                bind.double(row.real)
            }
            return try Row.fetchAll(db, sql: "SELECT number, text, real FROM t ORDER BY rowid")
        }
        #expect(stored.count == count)
        for (row, expected) in zip(stored, rows) {
            #expect(row[0] as Int == expected.number)
            #expect(row[1] as String? == expected.text)
            #expect(row[2] as Double == expected.real)
        }
    }
}
