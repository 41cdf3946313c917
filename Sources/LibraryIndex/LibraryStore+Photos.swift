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

    /// Calls `body` with every row, ordered by path, in one consistent snapshot.
    public func forEachPhoto(_ body: (IndexedPhoto) throws -> Void) throws(IndexError) {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM photo ORDER BY path")
            while let row = try rows.next() { try body(IndexedPhoto(row: row)) }
        }
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
                SELECT path, captured, CASE dateSource \(ranks) ELSE \(sources.count - 1) END
                FROM photo \(hasPairs ? "WHERE NOT (mediaType = 'video' AND pairedWith IS NOT NULL)" : "")
                ORDER BY captured, path
                """)
            while let row = try rows.next() {
                // The blobs are read in place: no copy per row for a million rows.
                guard let path = try row.withUnsafeData(atIndex: 0, { $0.map { String(decoding: $0, as: UTF8.self) } }),
                      let local = try row.withUnsafeData(atIndex: 1, { $0.flatMap(LocalDateTime.init(storedBytes:)) })
                else { continue }
                let source: Int = row[2]
                try body(PhotoMoment(path: path, captured: local, source: sources[source]))
            }
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

extension LocalDateTime {
    /// Parses the stored `YYYY-MM-DDTHH:MM:SS[.fff]` from its bytes without building a String.
    init?(storedBytes bytes: Data) {
        guard bytes.count >= 19 else { return nil }
        var fields = (0, 0, 0, 0, 0, 0)
        var millisecond: Int?
        let ok = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            func number(_ from: Int, _ count: Int) -> Int? {
                var value = 0
                for i in from..<(from + count) {
                    let digit = Int(raw[i]) - 48
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
                  let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2) else { return false }
            fields = (y, mo, d, h, mi, s)
            // ".f", ".ff" or ".fff": fractions of a second, scaled to milliseconds.
            if raw.count > 20, raw[19] == UInt8(ascii: "."), raw.count <= 23, let fraction = number(20, raw.count - 20) {
                millisecond = fraction * [100, 10, 1][raw.count - 21]
            }
            return true
        }
        guard ok else { return nil }
        self.init(year: fields.0, month: fields.1, day: fields.2, hour: fields.3, minute: fields.4, second: fields.5, millisecond: millisecond)
    }
}

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
            pairedWith: row.hasColumn("pairedWith") ? (row["pairedWith"] as Data?).map { RelativePath(bytes: Array($0)) } : nil
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
