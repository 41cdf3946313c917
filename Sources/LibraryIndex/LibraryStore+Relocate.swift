import Foundation
import GRDB

extension LibraryStore {
    /// What `relocate` found under the new root before it moved the library there.
    public struct RelocationCheck: Sendable {
        /// Photo rows looked up under the new root.
        public var sampled: Int
        /// Of those, how many have a file there.
        public var found: Int
    }

    /// Points the library at `newRoot` (a folder the photos were moved or copied to), keeping every
    /// row. Rows are relative to the root, so the next run under `newRoot` reads only the files whose
    /// size or modification time changed in the move.
    ///
    /// Refuses, without changing anything, when none of up to `sample` rows has a file under
    /// `newRoot` (the wrong folder, most likely), unless `force` is set.
    @discardableResult
    public func relocate(to newRoot: String, sample: Int = 50, force: Bool = false) throws(IndexError) -> RelocationCheck {
        let lock = try IndexLock(databasePath: path)
        let root = try Indexer.resolveRoot(newRoot)
        let paths: [RelativePath] = try read { db in
            try Data.fetchAll(db, sql: "SELECT path FROM photo ORDER BY random() LIMIT ?", arguments: [sample])
                .map { RelativePath(bytes: Array($0)) }
        }
        let rootBytes = Array(root.utf8) + [UInt8(ascii: "/")]
        let found = paths.count { FileSystem.linkStatus(rootBytes + $0.bytes) != nil }
        let check = RelocationCheck(sampled: paths.count, found: found)
        if !paths.isEmpty && found == 0 && !force {
            throw IndexError(.relocationMismatch, "None of \(paths.count) photos of the index is under \(root).", subject: root)
        }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO library (key, value) VALUES ('root', ?)", arguments: [Data(root.utf8)])
        }
        checkpoint()
        _ = consume lock
        return check
    }
}
