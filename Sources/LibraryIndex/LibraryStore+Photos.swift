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
    ///
    /// - Complexity: one query over the path index; O(1) memory beyond the current row.
    /// - Throws: `IndexError` with code `unreadableRow`, naming the row, when a stored capture date
    ///   or date source is not one the store writes.
    public func forEachPhoto(onlyMissing: Bool = false, _ body: (IndexedPhoto) throws -> Void) throws(IndexError) {
        try read { db in
            if try onlyMissing && !Self.hasMissingColumn(db) { return }
            let filter = onlyMissing ? " WHERE missingSince IS NOT NULL" : ""
            let columns = try PhotoColumns(db)
            let statement = try db.makeStatement(sql: "SELECT \(columns.selection) FROM photo\(filter) ORDER BY path")
            try Self.forEachRow(of: statement, in: db) { row in try body(IndexedPhoto(row: row, columns: columns, database: path)) }
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
            var skipped = 0
            try Self.forEachMoment(db, skipped: &skipped, body)
        }
    }

    /// `forEachMoment` inside a transaction; `skipped` counts the rows left out because their path
    /// or capture date cannot be read.
    static func forEachMoment(_ db: Database, skipped: inout Int, _ body: (PhotoMoment) throws -> Void) throws {
        let query = try MomentQuery(db)
        let statement = try db.makeStatement(sql: query.selection + " \(query.timelineWhere) ORDER BY captured, path")
        try forEachRow(of: statement, in: db) { row in
            guard let moment = PhotoMoment(row: row) else {
                skipped += 1
                return
            }
            try body(moment)
        }
    }

    /// The rows the timeline shows: the video half of a Live Photo is left out.
    static let timelineFilter = "NOT (mediaType = 'video' AND pairedWith IS NOT NULL)"
    /// A stack is one item in the timeline, its cover: the other members are left out (the pager
    /// shows them, `stackMembers(of:)`).
    static let stackFilter = "id NOT IN (SELECT photoId FROM stack WHERE stackId != photoId)"

    /// The row with `id`, or `nil`.
    public func photo(id: Int64) throws(IndexError) -> IndexedPhoto? {
        try read { db in
            let columns = try PhotoColumns(db)
            let statement = try db.makeStatement(sql: "SELECT \(columns.selection) FROM photo WHERE id = ?")
            try statement.setArguments([id])
            var photo: IndexedPhoto?
            try Self.forEachRow(of: statement, in: db) { row in photo = try IndexedPhoto(row: row, columns: columns, database: path) }
            return photo
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
            // One pass over the table for all three counts.
            let hasMedia = try db.columns(in: "photo").contains { $0.name == "mediaType" }
            let counts = try Row.fetchOne(db, sql: """
                SELECT count(*), count(error), \(hasMedia ? "coalesce(sum(mediaType = 'video'), 0)" : "0") FROM photo
                """)
            let photos: Int = counts?[0] ?? 0, errors: Int = counts?[1] ?? 0, videos: Int = counts?[2] ?? 0
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

extension DateSource {
    private static let storedNames = allCases.map { (Array($0.rawValue.utf8), $0) }

    /// The source whose raw value is `bytes`, without building a String.
    init?(storedBytes bytes: UnsafeRawBufferPointer) {
        guard let match = Self.storedNames.first(where: { $0.0.elementsEqual(bytes) }) else { return nil }
        self = match.1
    }
}

extension IndexedPhoto {
    /// Decodes a row selected with `columns.selection`, by position.
    ///
    /// - Throws: `unreadableRow`, naming the row and what to do, when the capture date or its source
    ///   is not one the store writes (a row edited by hand, or a damaged file): never an invented date.
    init(row: RawRow, columns: PhotoColumns, database: String) throws(IndexError) {
        let path = RelativePath(bytes: row.bytes(1).map { [UInt8]($0) } ?? [])
        let id = row.int64(0)
        guard let local = row.bytes(5).flatMap(LocalDateTime.init(iso8601Bytes:)) else {
            throw IndexError.unreadableRow(id: id, path: path, column: "captured", value: row.text(5), database: database)
        }
        guard let source = row.bytes(7).flatMap(DateSource.init(storedBytes:)) else {
            throw IndexError.unreadableRow(id: id, path: path, column: "dateSource", value: row.text(7), database: database)
        }
        let width = row.int(8), height = row.int(9)
        let latitude = row.double(20), longitude = row.double(21)
        let displayWidth = row.int(11), displayHeight = row.int(12)
        self.init(
            path: path,
            fileSize: row.int64(2),
            modificationTime: row.int64(3),
            format: row.text(4).flatMap(ImageFormat.init(rawValue:)),
            captureDate: CaptureDate(
                local: local, offset: row.int(6).map(UTCOffset.init(seconds:)), source: source,
                offsetSource: row.text(22).flatMap(OffsetSource.init(rawValue:))),
            pixelSize: width.flatMap { w in height.map { PixelSize(width: w, height: $0) } },
            orientation: row.int(10),
            displaySize: displayWidth.flatMap { w in displayHeight.map { PixelSize(width: w, height: $0) } },
            cameraMake: row.text(13),
            cameraModel: row.text(14),
            error: row.text(15),
            mediaType: columns.hasVideos ? row.text(16).flatMap(MediaType.init(rawValue:)) : nil,
            duration: row.double(17),
            pairedWith: row.bytes(18).map { RelativePath(bytes: [UInt8]($0)) },
            position: latitude.flatMap { lat in longitude.flatMap { GeoPosition(latitude: lat, longitude: $0) } },
            place: PhotoPlace.stored(city: row.text(23), region: row.text(24), country: row.text(25), countryCode: row.text(26)),
            id: id,
            missingSince: row.text(19)
        )
    }

    /// Binds the values of the `photo` columns, in the order of the upsert's column list
    /// (`LibraryStore.apply`).
    func bindColumns(_ b: inout RawBindings) {
        b.blob(path.bytes); b.integer(fileSize); b.integer(modificationTime); b.text(format?.rawValue)
        // The ISO 8601 text written straight as bytes: as a `String`, a tenth of the writer's binding.
        var captured: [UInt8] = []
        captured.reserveCapacity(23)
        captureDate.local.appendISO8601(to: &captured)
        b.text(utf8: captured); b.integer(captureDate.offset?.seconds); b.text(captureDate.source.rawValue)
        b.integer(pixelSize?.width); b.integer(pixelSize?.height); b.integer(orientation)
        b.integer(displaySize?.width); b.integer(displaySize?.height)
        b.text(cameraMake); b.text(cameraModel); b.text(error); b.text(mediaType.rawValue); b.double(duration)
        b.double(position?.latitude); b.double(position?.longitude); b.text(captureDate.offsetSource?.rawValue)
        b.text(place?.city); b.text(place?.region); b.text(place?.country); b.text(place?.countryCode); b.boolean(placePending)
        b.integer(position.map { MapGrid.x(longitude: $0.longitude) }); b.integer(position.map { MapGrid.y(latitude: $0.latitude) })
    }
}

/// The `photo` columns `IndexedPhoto(row:columns:database:)` reads, by position; columns a database
/// written before their migration lacks (opened read-only, it is not migrated) read as NULL.
struct PhotoColumns {
    var hasVideos: Bool
    var selection: String

    init(_ db: Database) throws {
        let names = Set(try db.columns(in: "photo").map(\.name))
        hasVideos = names.contains("mediaType")
        let optional = ["mediaType", "duration", "pairedWith", "missingSince", "latitude", "longitude", "offsetSource",
                        "placeCity", "placeRegion", "placeCountry", "placeCountryCode"]
            .map { names.contains($0) ? $0 : "NULL" }
        selection = (["id", "path", "fileSize", "modified", "format", "captured", "utcOffset", "dateSource",
                      "pixelWidth", "pixelHeight", "orientation", "width", "height", "make", "model", "error"] + optional)
            .joined(separator: ", ")
    }
}

extension IndexError {
    /// A stored row the store cannot read back as it wrote it.
    static func unreadableRow(id: Int64, path: RelativePath, column: String, value: String?, database: String) -> IndexError {
        let shown = value.map { "\"\($0)\"" } ?? "NULL"
        return IndexError(
            .unreadableRow,
            "The row for \(path.string) (id \(id)) in \(database) has \(column) \(shown), which the index never writes: "
                + "delete that row (sqlite3 \(database) \"DELETE FROM photo WHERE id = \(id)\") and run the index again to read the file anew.",
            subject: path.string)
    }
}

extension LibraryStore {
    /// Whether any row (or any row marked missing) is a video.
    ///
    /// - Complexity: stops at the first video; scans every row of a library without one.
    public func containsVideos(onlyMissing: Bool = false) throws(IndexError) -> Bool {
        try read { db in
            let names = Set(try db.columns(in: "photo").map(\.name))
            guard names.contains("mediaType"), !onlyMissing || names.contains("missingSince") else { return false }
            let filter = onlyMissing ? " AND missingSince IS NOT NULL" : ""
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE mediaType = 'video'\(filter))") ?? false
        }
    }
}

/// The columns `PhotoMoment(row:)` reads, and the rows the timeline shows; a database not yet
/// migrated (opened read-only) has no video columns, so every row is a photo.
struct MomentQuery {
    let selection: String
    /// The timeline's conditions (`1` when there is nothing to leave out).
    let filter: String
    /// `WHERE` and the timeline's filter, or nothing when there is nothing to leave out.
    let timelineWhere: String

    init(_ db: Database) throws {
        let hasVideos = try db.columns(in: "photo").contains { $0.name == "pairedWith" }
        selection = "SELECT path, captured, dateSource, id, width, height, \(hasVideos ? "mediaType" : "'photo'"), "
            + "error IS NULL AND format IS NOT NULL FROM photo"
        var conditions: [String] = []
        if hasVideos { conditions.append(LibraryStore.timelineFilter) }
        if try db.tableExists("stack") { conditions.append(LibraryStore.stackFilter) }
        filter = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        timelineWhere = conditions.isEmpty ? "" : "WHERE \(filter)"
    }
}

extension PhotoMoment {
    /// A row of `MomentQuery.selection`, or `nil` when its path or capture date cannot be read. A
    /// date that is not a calendar date is kept (the timeline counts such photos as left out).
    init?(row: RawRow) {
        guard let path = row.bytes(0),
              let captured = row.bytes(1).flatMap(LocalDateTime.init(unvalidatedISO8601Bytes:))
        else { return nil }
        let text = String(validating: path, as: UTF8.self)
        self.init(
            id: row.int64(3), path: text ?? RelativePath.text(path), pathBytes: text == nil ? [UInt8](path) : nil,
            captured: captured, source: row.bytes(2).flatMap(DateSource.init(storedBytes:)) ?? .fileModified,
            width: row.int(4), height: row.int(5), mediaType: row.text(6).flatMap(MediaType.init(rawValue:)) ?? .photo,
            isReadable: row.int(7) != 0)
    }
}
