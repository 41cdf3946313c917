import Foundation
import GRDB

extension LibraryStore {
    /// Runs `body`, which writes or deletes the photo rows at `paths`, with the search triggers off
    /// for its transaction, and brings those rows' search words up to date in two statements: the
    /// old words out before `body`, the new ones in after it.
    ///
    /// The words of a batch are computed and tokenized in one statement rather than in a trigger
    /// program per row; at a first index of 10,000 photos that saved little CPU (the words cost what
    /// they cost), at a million rows written 10,000 a transaction about 45%.
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
