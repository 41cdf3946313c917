import GRDB
import GRDBSQLite

/// The current row of a stepped statement, read by position straight from SQLite: no `Row`,
/// `DatabaseValue` or `Data` per value, which is most of the cost of listing a million rows.
///
/// Valid only inside the `forEachRow` call that hands it out: the buffers point into SQLite.
struct RawRow {
    fileprivate let handle: OpaquePointer

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The integer value (0 for NULL).
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func int(_ column: Int32) -> Int? { isNull(column) ? nil : Int(sqlite3_column_int64(handle, column)) }

    func double(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, column) }

    /// The bytes of a blob or text value, borrowed until the next step; `nil` for NULL.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer? {
        guard !isNull(column) else { return nil }
        let start = sqlite3_column_blob(handle, column)
        return UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A text value (invalid UTF-8 repaired); `nil` for NULL.
    func text(_ column: Int32) -> String? { bytes(column).map { String(decoding: $0, as: UTF8.self) } }
}

/// The values of a few columns of a row as one byte string whose byte order is SQLite's order of
/// the values one after another (`BINARY`, NULL first): each value is `00` for NULL, else `01`, its
/// bytes with `00` written `00 FF`, and `00 01`. Hashed as one block of bytes (an array of bytes
/// hashes byte by byte): a key for counting rows, or for seeing that a row repeats the last one.
struct ColumnsKey: Hashable {
    private(set) var bytes: [UInt8] = []

    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ value: UnsafeRawBufferPointer?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        if !value.contains(0) {
            bytes.append(contentsOf: value)
        } else {
            for byte in value {
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
        }
        bytes.append(contentsOf: [0, 1])
    }

    /// The values appended, as text (invalid UTF-8 repaired).
    var values: [String?] {
        var values: [String?] = [], at = 0
        while at < bytes.count {
            at += 1
            guard bytes[at - 1] == 1 else { values.append(nil); continue }
            var value: [UInt8] = []
            while at + 1 < bytes.count, !(bytes[at] == 0 && bytes[at + 1] == 1) {
                value.append(bytes[at])
                at += bytes[at] == 0 ? 2 : 1
            }
            at += 2
            values.append(String(decoding: value, as: UTF8.self))
        }
        return values
    }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

extension LibraryStore {
    /// Steps `statement` (its arguments already set) and calls `body` with each row.
    static func forEachRow(of statement: Statement, in db: Database, _ body: (RawRow) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            try body(RawRow(handle: handle))
        }
    }
}
