import Foundation
import GRDB

extension LibraryStore {
    /// Runs `body`, which writes or deletes the photo rows at `paths`, with the search triggers off
    /// for its transaction, and brings those rows' search words up to date in two statements: the
    /// old words out before `body`, the new ones in after it.
    ///
    /// FTS5 flushes its pending words at every statement savepoint, and a statement that fires a
    /// trigger opens one: row by row, the triggers wrote an index segment per photo and merged them.
    /// Here a batch's words go in together and reach the index as one segment at commit.
    ///
    /// - Complexity: two indexed lookups per path, in two statements.
    static func updatingSearchWords(
        _ db: Database, ofPaths paths: [Data], timings: IndexTimings? = nil, _ body: () throws -> Void
    ) throws {
        guard !paths.isEmpty else { return try body() }
        try timings.measure(.searchIndex) {
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS searchBatch (path BLOB PRIMARY KEY) WITHOUT ROWID")
            let add = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.searchBatch (path) VALUES (?)")
            for path in paths { try add.execute(arguments: [path]) }
            try db.execute(sql: "INSERT INTO searchDeferred (id) VALUES (1)")
            try db.execute(sql: """
                INSERT INTO photoSearch (photoSearch, rowid, words)
                SELECT 'delete', id, \(searchWords("photo")) FROM photo WHERE path IN (SELECT path FROM temp.searchBatch)
                """)
        }
        try body()
        try timings.measure(.searchIndex) {
            try db.execute(sql: """
                INSERT INTO photoSearch (rowid, words)
                SELECT id, \(searchWords("photo")) FROM photo WHERE path IN (SELECT path FROM temp.searchBatch);
                DELETE FROM searchDeferred;
                DELETE FROM temp.searchBatch;
                """)
        }
    }
}
