import GRDB
public import PhotoMetadata

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
    /// - Complexity: one query; O(rows) memory.
    public func photos() throws(IndexError) -> [IndexedPhoto] {
        try read { db in
            try Row.fetchCursor(db, sql: "SELECT * FROM photo ORDER BY path").map(IndexedPhoto.init(row:)).reduce(into: []) { $0.append($1) }
        }
    }

    /// The capture time of every photo in capture order (then path): one indexed query.
    public func moments() throws(IndexError) -> [PhotoMoment] {
        try read { db in
            var result: [PhotoMoment] = []
            result.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM photo") ?? 0)
            let rows = try Row.fetchCursor(db, sql: "SELECT path, captured, dateSource FROM photo ORDER BY captured, path")
            while let row = try rows.next() {
                let text: String = row[1]
                guard let local = LocalDateTime(iso8601: text) else { continue }
                result.append(PhotoMoment(
                    path: RelativePath(bytes: Array(row[0] as Data)),
                    captured: local,
                    source: DateSource(rawValue: row[2]) ?? .fileModified
                ))
            }
            return result
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
            error: row["error"]
        )
    }

    /// The values of the `photo` columns, in `LibraryStore.photoColumns` order.
    var databaseArguments: StatementArguments {
        [
            Data(path.bytes), fileSize, modificationTime, format?.rawValue,
            captureDate.local.iso8601, captureDate.offset?.seconds, captureDate.source.rawValue,
            pixelSize?.width, pixelSize?.height, orientation, displaySize?.width, displaySize?.height,
            cameraMake, cameraModel, error,
        ]
    }
}
