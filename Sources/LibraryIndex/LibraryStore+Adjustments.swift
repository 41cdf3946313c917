import Foundation
import Duplicates
public import Corrections
import GRDB

/// One batch of `shoebox adjust` as the journal keeps it: the contract of `--history --json`.
public struct AdjustBatch: Sendable, Hashable, Encodable {
    public var batch: Int64
    /// ISO 8601, UTC.
    public var time: String
    /// The request as JSON text (selection and modes).
    public var arguments: String
    public var photos: Int
    public var undone: Bool
    /// Written only in part: the command was killed while writing (undo finishes it off).
    public var interrupted: Bool

    private enum CodingKeys: String, CodingKey { case batch, time, arguments, photos, undone }
}

/// A sidecar as a batch left it in the journal.
struct JournalFile: Sendable, Hashable {
    var sidecar: [UInt8]
    /// `nil` when the batch created the sidecar.
    var previous: [UInt8]?
    /// What the batch wrote.
    var sha256: [UInt8]
}

extension LibraryStore {
    /// Records a batch and every sidecar's previous bytes before the first is written, in one
    /// transaction; its state is `writing` until `finishAdjustment`. The photos of the sidecars
    /// are marked for reading again in the same transaction (`markForReading`), so that any later
    /// run reads them with their sidecars, even when this process is killed before its own run
    /// records the sidecars.
    func beginAdjustment(arguments: String, photos: Int, files: [AdjustPlan.FileChange]) throws(IndexError) -> Int64 {
        try write { db in
            try Self.markForReading(db, sidecars: files.map(\.sidecar))
            try db.execute(
                sql: "INSERT INTO adjustBatch (time, arguments, photos, state) VALUES (?, ?, ?, 'writing')",
                arguments: [Self.timestamp(), arguments, photos])
            let batch = db.lastInsertedRowID
            let insert = try db.cachedStatement(sql: "INSERT INTO adjustFile (batch, sidecar, previous, sha256) VALUES (?, ?, ?, ?)")
            for file in files {
                try insert.execute(arguments: [batch, Data(file.sidecar), file.before.map { Data($0) }, Data(FileDigest.sha256(of: file.after).bytes)])
            }
            return batch
        }
    }

    /// Sets a batch's state: `applied` once every sidecar is written, `undone` once put back.
    func finishAdjustment(_ batch: Int64, state: String) throws(IndexError) {
        try write { db in
            try db.execute(sql: "UPDATE adjustBatch SET state = ? WHERE id = ?", arguments: [state, batch])
        }
    }

    /// Marks the photos of `sidecars` (paths relative to the root) for reading again: those a
    /// sidecar `NAME.EXT.xmp` or `NAME.xmp` belongs to, and any other `NAME.…` beside them (a
    /// re-read too many costs a read, one too few keeps a date from a sidecar that is gone).
    func markForReading(sidecars: [[UInt8]]) throws(IndexError) {
        try write { db in try Self.markForReading(db, sidecars: sidecars) }
    }

    /// Gives the photos of `sidecars` a stamp no file has: the next run reads them again.
    private static func markForReading(_ db: Database, sidecars: [[UInt8]]) throws {
        let update = try db.cachedStatement(sql: "UPDATE photo SET modified = -1 WHERE path = ? OR (path >= ? AND path < ?)")
        for sidecar in sidecars {
            let stem = Array(sidecar.dropLast(4))
            try update.execute(arguments: [Data(stem), Data(stem + [UInt8(ascii: ".")]), Data(stem + [UInt8(ascii: "/")])])
        }
    }

    /// Forgets a batch that wrote nothing (its writing failed and was put back).
    func forgetAdjustment(_ batch: Int64) throws(IndexError) {
        try write { db in
            try db.execute(sql: "DELETE FROM adjustFile WHERE batch = ?", arguments: [batch])
            try db.execute(sql: "DELETE FROM adjustBatch WHERE id = ?", arguments: [batch])
        }
    }

    /// Every batch, oldest first.
    public func adjustmentHistory() throws(IndexError) -> [AdjustBatch] {
        try read { db in
            guard try db.tableExists("adjustBatch") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT id, time, arguments, photos, state FROM adjustBatch ORDER BY id").map { row in
                let state: String = row["state"]
                return AdjustBatch(
                    batch: row["id"], time: row["time"], arguments: row["arguments"], photos: row["photos"],
                    undone: state == "undone", interrupted: state == "writing")
            }
        }
    }

    /// The sidecars of a batch, by path.
    func adjustmentFiles(_ batch: Int64) throws(IndexError) -> [JournalFile] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT sidecar, previous, sha256 FROM adjustFile WHERE batch = ? ORDER BY sidecar", arguments: [batch]).map { row in
                let sidecar: Data = row["sidecar"]
                let previous: Data? = row["previous"]
                let sha: Data = row["sha256"]
                return JournalFile(sidecar: Array(sidecar), previous: previous.map(Array.init), sha256: Array(sha))
            }
        }
    }

    /// The ids of `ids` together with every member of their stacks and the other halves of their
    /// Live Photos, ascending.
    func withStackMembers(_ ids: [Int64]) throws(IndexError) -> [Int64] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            let list = "[" + ids.map(String.init).joined(separator: ",") + "]"
            return try Int64.fetchAll(db, sql: """
                WITH chosen(id) AS (SELECT value FROM json_each(?))
                SELECT id FROM chosen
                UNION SELECT photoId FROM stack WHERE stackId IN (SELECT stackId FROM stack WHERE photoId IN chosen)
                UNION SELECT other.id FROM photo AS other JOIN photo AS one ON other.path = one.pairedWith WHERE one.id IN chosen
                ORDER BY 1
                """, arguments: [list])
        }
    }

    /// The ids of the rows at `path` (relative to the root) or below it (a folder; the empty path
    /// is the whole library), ascending.
    func photoIDs(atOrBelow path: [UInt8]) throws(IndexError) -> [Int64] {
        try read { db in
            if path.isEmpty { return try Int64.fetchAll(db, sql: "SELECT id FROM photo ORDER BY id") }
            // Below `folder/`: from `folder/` up to `folder0`, the byte after `/`.
            return try Int64.fetchAll(
                db, sql: "SELECT id FROM photo WHERE path = ? OR (path >= ? AND path < ?) ORDER BY id",
                arguments: [Data(path), Data(path + [UInt8(ascii: "/")]), Data(path + [UInt8(ascii: "0")])])
        }
    }
}
