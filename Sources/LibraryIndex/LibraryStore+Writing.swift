import Foundation
import GRDB
import GRDBSQLite

/// A change to write, produced by reading one file.
enum IndexChange: Sendable {
    /// Insert or replace the photo row (readable, or stored with its error), dropping the
    /// path's ignored-file row when it had one.
    case upsertPhoto(IndexedPhoto, wasIgnored: Bool)
    /// The content is not an image: remember the stamp so it is not opened again, dropping the
    /// path's photo row when it had one.
    case ignore(RelativePath, FileStamp, wasPhoto: Bool)
    /// Drop whatever row the path had.
    case remove(RelativePath)
    /// Keep the photo row of a file the walk did not find, dated from when it was first missed.
    case markMissing(RelativePath, since: String)
    /// The file of a row marked missing is back, unchanged.
    case found(RelativePath)

    /// The path the change is about.
    var path: RelativePath {
        switch self {
        case .upsertPhoto(let photo, _): photo.path
        case .ignore(let path, _, _), .remove(let path), .markMissing(let path, _), .found(let path): path
        }
    }
}

extension LibraryStore {
    private var writerPool: DatabasePool {
        guard let writer else { preconditionFailure("LibraryStore opened read-only cannot write") }
        return writer
    }

    /// Records `root` as this database's root, or refuses if the database indexes another folder.
    func claimRoot(_ root: String) throws(IndexError) {
        try write { db in
            if let existing = try Data.fetchOne(db, sql: "SELECT value FROM library WHERE key = 'root'") {
                let existingRoot = String(decoding: existing, as: UTF8.self)
                guard existingRoot == root else {
                    throw IndexError(.otherRootIndexed, "\(self.path) already indexes \(existingRoot), not \(root).", subject: root)
                }
            } else {
                try db.execute(sql: "INSERT INTO library (key, value) VALUES ('root', ?)", arguments: [Data(root.utf8)])
            }
        }
    }

    /// Every stamp the index holds, ready to compare with a walk.
    ///
    /// - Complexity: one scan of each table through a raw statement: no row or `Data` is made per
    ///   row, which matters at a million rows.
    func knownFiles() throws(IndexError) -> KnownFiles {
        try write { db in
            var known = KnownFiles()
            for (table, isPhoto) in [("photo", true), ("ignoredFile", false)] {
                let missing = isPhoto ? "missingSince IS NOT NULL" : "0"
                let statement = try db.makeStatement(sql: "SELECT path, fileSize, modified, \(missing) FROM \(table)")
                let handle = statement.sqliteStatement
                while true {
                    let rc = sqlite3_step(handle)
                    if rc == SQLITE_DONE { break }
                    guard rc == SQLITE_ROW else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                    let path = UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, 0), count: Int(sqlite3_column_bytes(handle, 0)))
                    known.append(
                        path: path, stamp: FileStamp(size: sqlite3_column_int64(handle, 1), modified: sqlite3_column_int64(handle, 2)),
                        isPhoto: isPhoto, isMissing: sqlite3_column_int(handle, 3) != 0)
                }
            }
            known.index()
            return known
        }
    }

    /// The stamps of the photo rows directly inside `folder` (the empty path is the root), read
    /// beside the run's writes (the walk asks while the writer writes).
    ///
    /// - Complexity: one range query over the path index; the root's scans every row.
    func photoStamps(inFolder folder: RelativePath) throws(IndexError) -> [(RelativePath, FileStamp)] {
        try read { db in
            let prefix = folder.bytes.isEmpty ? [] : folder.bytes + [UInt8(ascii: "/")]
            let rows = folder.bytes.isEmpty
                ? try Row.fetchCursor(db, sql: "SELECT path, fileSize, modified FROM photo")
                : try Row.fetchCursor(db, sql: "SELECT path, fileSize, modified FROM photo WHERE path >= ? AND path < ?",
                                      arguments: [Data(prefix), Data(folder.bytes + [UInt8(ascii: "/") + 1])])
            var stamps: [(RelativePath, FileStamp)] = []
            while let row = try rows.next() {
                let path = Array(row[0] as Data)
                guard !path[prefix.count...].contains(UInt8(ascii: "/")) else { continue }
                stamps.append((RelativePath(bytes: path), FileStamp(size: row[1], modified: row[2])))
            }
            return stamps
        }
    }

    /// Whether the latest run completed (false for a new index, or after a run that was stopped or killed).
    func lastRunCompleted() throws(IndexError) -> Bool {
        try write { db in
            try String.fetchOne(db, sql: "SELECT status FROM indexRun ORDER BY id DESC LIMIT 1") == "completed"
        }
    }

    /// Starts a run row and returns its id.
    func beginRun() throws(IndexError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO indexRun (startedAt, status) VALUES (?, 'running')", arguments: [Self.timestamp()])
            return db.lastInsertedRowID
        }
    }

    /// Writes one batch of changes in a single transaction.
    /// - Parameter searchDeferred: the run builds the whole search index at its end
    ///   (`rebuildSearchWords`), so this batch writes no search words.
    func apply(_ changes: [IndexChange], timings: IndexTimings? = nil, searchDeferred: Bool = false) throws(IndexError) {
        guard !changes.isEmpty else { return }
        try write { db in
            let upsert = try db.cachedStatement(sql: """
                INSERT INTO photo (path, fileSize, modified, format, captured, utcOffset, dateSource,
                                   pixelWidth, pixelHeight, orientation, width, height, make, model, error,
                                   mediaType, duration, latitude, longitude, offsetSource,
                                   placeCity, placeRegion, placeCountry, placeCountryCode, placePending, mapX, mapY)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET
                    fileSize = excluded.fileSize, modified = excluded.modified, format = excluded.format,
                    captured = excluded.captured, utcOffset = excluded.utcOffset, dateSource = excluded.dateSource,
                    pixelWidth = excluded.pixelWidth, pixelHeight = excluded.pixelHeight,
                    orientation = excluded.orientation, width = excluded.width, height = excluded.height,
                    make = excluded.make, model = excluded.model, error = excluded.error,
                    mediaType = excluded.mediaType, duration = excluded.duration, latitude = excluded.latitude,
                    longitude = excluded.longitude, offsetSource = excluded.offsetSource,
                    placeCity = excluded.placeCity, placeRegion = excluded.placeRegion,
                    placeCountry = excluded.placeCountry, placeCountryCode = excluded.placeCountryCode,
                    placePending = excluded.placePending, mapX = excluded.mapX, mapY = excluded.mapY,
                    missingSince = NULL
                """)
            let markMissing = try db.cachedStatement(sql: "UPDATE photo SET missingSince = coalesce(missingSince, ?) WHERE path = ?")
            let found = try db.cachedStatement(sql: "UPDATE photo SET missingSince = NULL WHERE path = ?")
            let ignore = try db.cachedStatement(sql: "INSERT OR REPLACE INTO ignoredFile (path, fileSize, modified) VALUES (?, ?, ?)")
            let deletePhoto = try db.cachedStatement(sql: "DELETE FROM photo WHERE path = ?")
            let deleteIgnored = try db.cachedStatement(sql: "DELETE FROM ignoredFile WHERE path = ?")
            // The rows whose search words may change: the photos written or dropped.
            var touched: [Data] = []
            touched.reserveCapacity(searchDeferred ? 0 : changes.count)
            for change in changes where !searchDeferred {
                switch change {
                case .upsertPhoto(let photo, _): touched.append(Data(photo.path.bytes))
                case .ignore(let path, _, true), .remove(let path): touched.append(Data(path.bytes))
                case .ignore, .markMissing, .found: break
                }
            }
            try Self.updatingSearchWords(db, ofPaths: touched, timings: timings) {
                var scratch = RawBindings.Scratch()
                for change in changes {
                    switch change {
                    case .upsertPhoto(let photo, let wasIgnored):
                        try upsert.execute(binding: photo.bindColumns, reusing: &scratch)
                        if wasIgnored { try deleteIgnored.execute(arguments: [Data(photo.path.bytes)]) }
                    case .ignore(let path, let stamp, let wasPhoto):
                        try ignore.execute(arguments: [Data(path.bytes), stamp.size, stamp.modified])
                        if wasPhoto { try deletePhoto.execute(arguments: [Data(path.bytes)]) }
                    case .remove(let path):
                        try deletePhoto.execute(arguments: [Data(path.bytes)])
                        try deleteIgnored.execute(arguments: [Data(path.bytes)])
                    case .markMissing(let path, let since):
                        try markMissing.execute(arguments: [since, Data(path.bytes)])
                    case .found(let path):
                        try found.execute(arguments: [Data(path.bytes)])
                    }
                }
            }
        }
    }

    /// What an index run computes on reader connections for `finishRun` to store, each `nil` to
    /// compute it in `finishRun`'s transaction.
    struct RunTables {
        var placeDays: Concurrently<[PlaceDayRow]>?
        var timeline: Concurrently<StoredTimeline?>?
        var mapCells: Concurrently<MapCellCounts?>?
    }

    /// Closes a run row with its totals; a completed run stores the section tables and the place
    /// counts per day, recomputed when `rowsChanged` (or only restamped).
    func finishRun(
        _ id: Int64, progress: IndexProgress, rowsChanged: Bool = true, computed: RunTables = RunTables(),
        timings: IndexTimings? = nil
    ) throws(IndexError) {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE indexRun SET finishedAt = ?, status = ?, added = ?, updated = ?, unchanged = ?,
                        removed = ?, failed = ?, skipped = ?, unreadableDirectories = ?
                    WHERE id = ?
                    """,
                arguments: [
                    Self.timestamp(), progress.phase == .completed ? "completed" : "stopped",
                    progress.added, progress.updated, progress.unchanged, progress.removed, progress.failed,
                    progress.skipped, progress.unreadableDirectories.map(\.string).joined(separator: "\n"), id,
                ])
            try timings.measure(.sections) {
                // The map's index, when a first index wrote its rows without it (stopped or not).
                try db.execute(sql: Self.mapIndex)
                // Removed rows left their duplicate groups (a trigger); what is left is ranked again.
                if progress.removed > 0 { try Self.reindexDuplicateGroups(db) }
                if progress.phase == .completed {
                    try Self.persistPlaceDays(db, runID: id, rowsChanged: rowsChanged, computed: computed.placeDays.map { days in { try days.value() } })
                    try Self.persistMapCells(db, runID: id, rowsChanged: rowsChanged, computed: computed.mapCells.map { cells in { try cells.value() } })
                }
                // Last: `timeline`, when given, was computed meanwhile on a reader connection.
                try self.persistTimeline(db, runID: id, progress: progress, computed: computed.timeline.map { timeline in { try timeline.value() } })
            }
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try writerPool.write(body)
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw IndexError(.diskFull, "The disk holding \(path) is full: everything read before was committed.", subject: path, underlyingError: error)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw IndexError(.databaseNotWritable, "Cannot write to \(path): it is read-only.", subject: path, underlyingError: error)
        } catch {
            throw IndexError(.databaseFailure, "Writing the index at \(path) failed: \(error).", underlyingError: error)
        }
    }

    static func timestamp() -> String {
        ISO8601DateFormatter().string(from: Date())
    }
}
