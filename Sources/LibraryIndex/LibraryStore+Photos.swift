import WallClock
import GRDB
import PhotoMetadata

extension LibraryStore {
    /// The absolute root this database indexes, or `nil` before the first run.
    public func root() throws(IndexError) -> String? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT value FROM library WHERE key = 'root'")
                .map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Every row, ordered by path.
    ///
    /// - Complexity: one query; O(rows) memory. `forEachPhoto` streams instead.
    public func photos() throws(IndexError) -> [IndexedPhoto] {
        var photos: [IndexedPhoto] = []
        try forEachPhoto { photos.append($0) }
        return photos
    }

    /// Calls `body` with every row (or only the rows marked missing), ordered by path, in one
    /// consistent snapshot.
    public func forEachPhoto(onlyMissing: Bool = false, _ body: (IndexedPhoto) throws -> Void) throws(IndexError) {
        try read { db in
            if try onlyMissing && !Self.hasMissingColumn(db) { return }
            let filter = onlyMissing ? " WHERE missingSince IS NOT NULL" : ""
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM photo\(filter) ORDER BY path")
            while let row = try rows.next() { try body(IndexedPhoto(row: row)) }
        }
    }

    /// The number of rows marked missing.
    public func missingCount() throws(IndexError) -> Int {
        try read { db in
            guard try Self.hasMissingColumn(db) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE missingSince IS NOT NULL") ?? 0
        }
    }

    /// Whether the database has the `missingSince` column (a reader may open one written before it).
    private static func hasMissingColumn(_ db: Database) throws -> Bool {
        try db.columns(in: "photo").contains { $0.name == "missingSince" }
    }

    /// Calls `body` with the capture time of every photo and video the timeline shows, in capture
    /// order (then path): the video half of a Live Photo is left out, its still stands for both.
    ///
    /// - Complexity: one query over the `(captured, path)` index; no per-row allocation beyond
    ///   the path string.
    public func forEachMoment(_ body: (PhotoMoment) throws -> Void) throws(IndexError) {
        try read { db in
            let sources = DateSource.allCases
            let ranks = sources.enumerated().map { "WHEN '\($0.element.rawValue)' THEN \($0.offset)" }.joined(separator: " ")
            // A database not yet migrated (opened read-only) has no video columns.
            let hasPairs = try db.columns(in: "photo").contains { $0.name == "pairedWith" }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT path, captured, CASE dateSource \(ranks) ELSE \(sources.count - 1) END, id, width, height,
                       \(hasPairs ? "mediaType" : "'photo'")
                FROM photo \(hasPairs ? "WHERE NOT (mediaType = 'video' AND pairedWith IS NOT NULL)" : "")
                ORDER BY captured, path
                """)
            while let row = try rows.next() {
                // The blobs are read in place: no copy per row for a million rows.
                guard let (path, exact) = try row.withUnsafeData(atIndex: 0, { data -> (String, [UInt8]?)? in
                          guard let data else { return nil }
                          if let valid = String(validating: data, as: UTF8.self) { return (valid, nil) }
                          return (RelativePath.text(data), Array(data))
                      }),
                      let local = try row.withUnsafeData(atIndex: 1, { data in data.flatMap { $0.withUnsafeBytes(LocalDateTime.init(iso8601Bytes:)) } })
                else { continue }
                let source: Int = row[2]
                try body(PhotoMoment(
                    id: row[3], path: path, pathBytes: exact, captured: local, source: sources[source],
                    width: row[4], height: row[5], mediaType: MediaType(rawValue: row[6]) ?? .photo))
            }
        }
    }

    /// The row with `id`, or `nil`.
    public func photo(id: Int64) throws(IndexError) -> IndexedPhoto? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM photo WHERE id = ?", arguments: [id]).map(IndexedPhoto.init(row:))
        }
    }

    /// The id of the last run that finished: it changes whenever a run (in any process) finishes.
    /// One indexed lookup, cheap enough to poll; `statistics()` counts every row.
    public func lastRunID() throws(IndexError) -> Int64? {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT id FROM indexRun WHERE finishedAt IS NOT NULL ORDER BY id DESC LIMIT 1")
        }
    }

    /// A summary of the library: counts and the last completed run.
    public func statistics() throws(IndexError) -> LibraryStatistics {
        try read { db in
            let photos = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0
            let errors = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE error IS NOT NULL") ?? 0
            let hasMedia = try db.columns(in: "photo").contains { $0.name == "mediaType" }
            let videos = hasMedia ? try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE mediaType = 'video'") ?? 0 : 0
            let lastRun = try Row.fetchOne(db, sql: "SELECT id, finishedAt FROM indexRun WHERE finishedAt IS NOT NULL ORDER BY id DESC LIMIT 1")
            return LibraryStatistics(photos: photos - videos, videos: videos, errors: errors, lastRunID: lastRun?[0], lastIndexed: lastRun?[1])
        }
    }

    /// The number of photo rows.
    public func photoCount() throws(IndexError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0 }
    }

    /// Runs a read in a consistent snapshot, turning database errors into `IndexError`.
    func read<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try reader.read(body)
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(.databaseFailure, "Reading the index at \(path) failed: \(error).", underlyingError: error)
        }
    }
}

import Foundation

extension IndexedPhoto {
    init(row: Row) {
        let offset: Int? = row["utcOffset"]
        let width: Int? = row["pixelWidth"], height: Int? = row["pixelHeight"]
        let displayWidth: Int? = row["width"], displayHeight: Int? = row["height"]
        let captured: String = row["captured"]
        self.init(
            path: RelativePath(bytes: Array(row["path"] as Data)),
            fileSize: row["fileSize"],
            modificationTime: row["modified"],
            format: (row["format"] as String?).flatMap(ImageFormat.init(rawValue:)),
            captureDate: CaptureDate(
                local: LocalDateTime(iso8601: captured) ?? LocalDateTime(year: 1970, month: 1, day: 1),
                offset: offset.map(UTCOffset.init(seconds:)),
                source: DateSource(rawValue: row["dateSource"]) ?? .fileModified
            ),
            pixelSize: width.flatMap { w in height.map { PixelSize(width: w, height: $0) } },
            orientation: row["orientation"],
            displaySize: displayWidth.flatMap { w in displayHeight.map { PixelSize(width: w, height: $0) } },
            cameraMake: row["make"],
            cameraModel: row["model"],
            error: row["error"],
            mediaType: row.hasColumn("mediaType") ? (row["mediaType"] as String?).flatMap(MediaType.init(rawValue:)) : nil,
            duration: row.hasColumn("duration") ? row["duration"] : nil,
            pairedWith: row.hasColumn("pairedWith") ? (row["pairedWith"] as Data?).map { RelativePath(bytes: Array($0)) } : nil,
            id: row["id"],
            missingSince: row["missingSince"]
        )
    }

    /// The values of the `photo` columns, in `LibraryStore.photoColumns` order.
    var databaseArguments: StatementArguments {
        [
            Data(path.bytes), fileSize, modificationTime, format?.rawValue,
            captureDate.local.iso8601, captureDate.offset?.seconds, captureDate.source.rawValue,
            pixelSize?.width, pixelSize?.height, orientation, displaySize?.width, displaySize?.height,
            cameraMake, cameraModel, error, mediaType.rawValue, duration,
        ]
    }
}
