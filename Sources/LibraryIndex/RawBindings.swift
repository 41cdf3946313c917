import GRDB
import GRDBSQLite

/// Binds a statement's parameters in order, straight through SQLite's C API: no
/// `StatementArguments` or `DatabaseValue` per value, which at a first index was a fifth of the
/// writer's time (27 values per photo row).
///
/// Texts and blobs are copied into one buffer (`Scratch`) and bound from it, unowned by SQLite
/// (`SQLITE_STATIC`), just before the step: bound as copies for SQLite to own (`SQLITE_TRANSIENT`),
/// each was an allocation of SQLite's, a dozen per photo row on the writer's thread.
struct RawBindings {
    /// The bytes of a row's texts and blobs until its step; reused from row to row.
    struct Scratch {
        fileprivate var bytes: [UInt8] = []
        fileprivate var values: [(parameter: Int32, start: Int, count: Int, isText: Bool)] = []

        init() {}
    }

    private let handle: OpaquePointer
    private var next: Int32 = 1
    fileprivate var scratch = Scratch()
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate init(_ handle: OpaquePointer) { self.handle = handle }

    mutating func integer(_ value: (some BinaryInteger)?) {
        if let value { sqlite3_bind_int64(handle, next, Int64(value)) } else { sqlite3_bind_null(handle, next) }
        next += 1
    }

    mutating func boolean(_ value: Bool) { integer(value ? 1 : 0) }

    mutating func double(_ value: Double?) {
        if let value { sqlite3_bind_double(handle, next, value) } else { sqlite3_bind_null(handle, next) }
        next += 1
    }

    mutating func text(_ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, next)
            next += 1
            return
        }
        value.withUTF8 { keep(UnsafeRawBufferPointer($0), isText: true) }
    }

    /// Text given as its UTF-8 bytes (empty text when there are none, not NULL).
    mutating func text(utf8 value: [UInt8]) {
        value.withUnsafeBytes { keep($0, isText: true) }
    }

    /// A blob (an empty one is a zero-length blob, not NULL).
    mutating func blob(_ value: [UInt8]) {
        value.withUnsafeBytes { keep($0, isText: false) }
    }

    /// Keeps `bytes` to be bound at the step; empty ones are bound now (empty text, not NULL; a
    /// zero-length blob), as a buffer with nothing in it may have no address.
    private mutating func keep(_ bytes: UnsafeRawBufferPointer, isText: Bool) {
        if bytes.isEmpty {
            if isText { sqlite3_bind_text(handle, next, "", 0, Self.transient) } else { sqlite3_bind_zeroblob(handle, next, 0) }
        } else {
            scratch.values.append((next, scratch.bytes.count, bytes.count, isText))
            scratch.bytes.append(contentsOf: bytes)
        }
        next += 1
    }

    /// How many parameters were bound.
    var count: Int32 { next - 1 }
}

extension Statement {
    /// Runs this statement (one that returns no row) with `bind` setting every one of its
    /// parameters; a failure throws the `DatabaseError` GRDB would.
    func execute(binding bind: (inout RawBindings) -> Void) throws {
        var scratch = RawBindings.Scratch()
        try execute(binding: bind, reusing: &scratch)
    }

    /// ``execute(binding:)`` with `scratch`'s buffers for the texts and blobs, kept for the next
    /// row: a loop of rows allocates them once.
    func execute(binding bind: (inout RawBindings) -> Void, reusing scratch: inout RawBindings.Scratch) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.values.removeAll(keepingCapacity: true)
        var bindings = RawBindings(handle)
        swap(&bindings.scratch, &scratch)
        bind(&bindings)
        swap(&bindings.scratch, &scratch)
        precondition(bindings.count == sqlite3_bind_parameter_count(handle), "every parameter of \(sql) must be bound")
        let code = scratch.bytes.withUnsafeBytes { bytes in
            for value in scratch.values {
                let start = bytes.baseAddress! + value.start
                if value.isText {
                    sqlite3_bind_text(handle, value.parameter, start.assumingMemoryBound(to: CChar.self), Int32(value.count), nil)
                } else {
                    sqlite3_bind_blob(handle, value.parameter, start, Int32(value.count), nil)
                }
            }
            return sqlite3_step(handle)
        }
        // No parameter is left pointing into the buffer once the step is done.
        if !scratch.values.isEmpty { sqlite3_clear_bindings(handle) }
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
        sqlite3_reset(handle)
    }
}

extension Database {
    /// Inserts `rows` with `insert` (`INSERT INTO table (columns)`) followed by `VALUES` and a
    /// tuple of `columns` parameters per row, `rowsPerStatement` rows a statement, `bind` setting
    /// one row's parameters in order.
    ///
    /// A statement per row runs SQLite's program, opens the table's cursor and seeks its B-tree
    /// once a row; one per chunk does so once a chunk. The 10,820 map cells of a first index of
    /// 10,000 photos took 14–26 ms one statement a row.
    ///
    /// Not for the photo rows' upsert: with its `ON CONFLICT` clause and 27 columns, 64 rows a
    /// statement were no faster than one (10,000 rows, in the `sqlite3` module of Python).
    func insertRows<Rows: Collection>(
        _ insert: String, columns: Int, _ rows: Rows, rowsPerStatement: Int = 64,
        bind: (inout RawBindings, Rows.Element) -> Void
    ) throws {
        var scratch = RawBindings.Scratch()
        let tuple = "(" + repeatElement("?", count: columns).joined(separator: ", ") + ")"
        func sql(rows count: Int) -> String { insert + " VALUES " + repeatElement(tuple, count: count).joined(separator: ", ") }
        // The full chunks' statement is made once (and cached for the next run); the last, shorter
        // chunk's is made for it alone, so the cache holds no statement per remainder's size.
        var full: Statement?
        var start = rows.startIndex
        while start != rows.endIndex {
            let end = rows.index(start, offsetBy: rowsPerStatement, limitedBy: rows.endIndex) ?? rows.endIndex
            let chunk = rows[start..<end]
            let statement: Statement
            if chunk.count == rowsPerStatement {
                if full == nil { full = try cachedStatement(sql: sql(rows: rowsPerStatement)) }
                statement = full!
            } else {
                statement = try makeStatement(sql: sql(rows: chunk.count))
            }
            try statement.execute(binding: { row in
                for element in chunk { bind(&row, element) }
            }, reusing: &scratch)
            start = end
        }
    }
}
