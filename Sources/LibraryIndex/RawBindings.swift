import GRDB
import GRDBSQLite

/// Binds a statement's parameters in order, straight through SQLite's C API: no
/// `StatementArguments` or `DatabaseValue` per value, which at a first index was a fifth of the
/// writer's time (27 values per photo row). Strings and blobs are copied by SQLite (transient).
struct RawBindings {
    private let handle: OpaquePointer
    private var next: Int32 = 1
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
        if var value {
            value.withUTF8 { utf8 in
                if utf8.isEmpty {
                    sqlite3_bind_text(handle, next, "", 0, Self.transient)  // empty text, not NULL
                } else {
                    utf8.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(handle, next, $0.baseAddress, Int32($0.count), Self.transient) }
                }
            }
        } else {
            sqlite3_bind_null(handle, next)
        }
        next += 1
    }

    /// Text given as its UTF-8 bytes (empty text when there are none, not NULL).
    mutating func text(utf8 value: [UInt8]) {
        _ = value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                sqlite3_bind_text(handle, next, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.transient)
            } else {
                sqlite3_bind_text(handle, next, "", 0, Self.transient)
            }
        }
        next += 1
    }

    /// A blob (an empty one is a zero-length blob, not NULL).
    mutating func blob(_ value: [UInt8]) {
        _ = value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                sqlite3_bind_blob(handle, next, base, Int32(bytes.count), Self.transient)
            } else {
                sqlite3_bind_zeroblob(handle, next, 0)
            }
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
        let handle = sqliteStatement
        sqlite3_reset(handle)
        var bindings = RawBindings(handle)
        bind(&bindings)
        precondition(bindings.count == sqlite3_bind_parameter_count(handle), "every parameter of \(sql) must be bound")
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: sql)
        }
        sqlite3_reset(handle)
    }
}
