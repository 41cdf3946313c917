import Foundation
import GRDB

extension LibraryStore {
    /// Longest video taken for the moving half of a Live Photo, in seconds.
    static let livePhotoMaximumDuration = 4.0
    /// Formats of a Live Photo's still half.
    static let livePhotoStillFormats = ["heic", "heif", "jpeg"]

    /// Links each short MOV to the HEIC/JPEG of the same base name in the same folder (both rows'
    /// `pairedWith`), and unlinks pairs whose halves changed or went away. Returns the pair count.
    ///
    /// - Complexity: one query for the short MOVs, one indexed range query per MOV; only rows
    ///   whose link changes are written.
    @discardableResult
    func linkLivePhotos() throws(IndexError) -> Int {
        try write { db in
            var wanted: [RelativePath: RelativePath] = [:]
            let movies = try Data.fetchAll(db, sql: """
                SELECT path FROM photo WHERE mediaType = 'video' AND format = 'mov' AND duration <= ?
                """, arguments: [Self.livePhotoMaximumDuration])
            let stills = try db.cachedStatement(sql: """
                SELECT path FROM photo WHERE path > ? AND path < ? AND mediaType = 'photo'
                    AND format IN (\(Self.livePhotoStillFormats.map { "'\($0)'" }.joined(separator: ", ")))
                ORDER BY path
                """)
            for movie in movies.map({ RelativePath(bytes: Array($0)) }) {
                guard let stem = movie.stem else { continue }
                let candidates = try Data.fetchAll(stills, arguments: [Data(stem + [0x2E]), Data(stem + [0x2F])])
                // The same stem followed by one extension only: `IMG_1.heic`, not `IMG_1.x.heic`.
                let still = candidates.map { RelativePath(bytes: Array($0)) }.first { candidate in
                    !candidate.bytes[(stem.count + 1)...].contains { $0 == 0x2E || $0 == 0x2F }
                }
                if let still, wanted[still] == nil {
                    wanted[movie] = still
                    wanted[still] = movie
                }
            }
            var current: [RelativePath: RelativePath] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, pairedWith FROM photo WHERE pairedWith IS NOT NULL") {
                current[RelativePath(bytes: Array(row[0] as Data))] = RelativePath(bytes: Array(row[1] as Data))
            }
            let update = try db.cachedStatement(sql: "UPDATE photo SET pairedWith = ? WHERE path = ?")
            for (path, _) in current where wanted[path] == nil {
                try update.execute(arguments: [nil as Data?, Data(path.bytes)])
            }
            for (path, other) in wanted where current[path] != other {
                try update.execute(arguments: [Data(other.bytes), Data(path.bytes)])
            }
            return wanted.count / 2
        }
    }
}

extension RelativePath {
    /// The path without the last component's extension (`a/IMG_1` for `a/IMG_1.MOV`), or `nil`
    /// when the name has none.
    var stem: [UInt8]? {
        let nameStart = (bytes.lastIndex(of: 0x2F) ?? -1) + 1
        guard let dot = bytes.lastIndex(of: 0x2E), dot > nameStart else { return nil }
        return Array(bytes[..<dot])
    }
}
