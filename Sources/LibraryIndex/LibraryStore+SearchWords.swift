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
    /// While the search index waits for its rebuild (`deferSearchWords()`: a first index, or the run
    /// after one that was killed), `body` alone runs: the rebuild indexes its rows as they are then.
    ///
    /// - Complexity: two indexed lookups per path, in two statements.
    static func updatingSearchWords(
        _ db: Database, ofPaths paths: [Data], timings: IndexTimings? = nil, _ body: () throws -> Void
    ) throws {
        guard !paths.isEmpty, try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM searchDeferred)") ?? false) else {
            return try body()
        }
        try timings.measure(.searchIndex) {
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS searchBatch (path BLOB PRIMARY KEY) WITHOUT ROWID")
            let add = try db.cachedStatement(sql: "INSERT OR IGNORE INTO temp.searchBatch (path) VALUES (?)")
            for path in paths { try add.execute(arguments: [path]) }
            try db.execute(sql: "INSERT INTO searchDeferred (id) VALUES (1)")
            try db.execute(sql: """
                INSERT INTO photoSearch (photoSearch, rowid, words)
                SELECT 'delete', id, \(searchWordsCall("photo")) FROM photo WHERE path IN (SELECT path FROM temp.searchBatch)
                """)
        }
        try body()
        try timings.measure(.searchIndex) {
            try db.execute(sql: """
                INSERT INTO photoSearch (rowid, words)
                SELECT id, \(searchWordsCall("photo")) FROM photo WHERE path IN (SELECT path FROM temp.searchBatch);
                DELETE FROM searchDeferred;
                DELETE FROM temp.searchBatch;
                """)
        }
    }

    /// Turns the search triggers off until `rebuildSearchWords()`: a first index writes its rows
    /// without search words and builds the whole search index at its end, in one statement (at
    /// 10,000 photos a tenth of what a statement per batch costs). The flag is committed, so a run
    /// that is killed leaves it, and the next run rebuilds.
    ///
    /// The triggers are dropped with the flag, in its transaction, rather than left to check it: a
    /// trigger whose condition is false still runs a program per row, which made each row's insert
    /// half as dear again (42 against 27 ms for 10,000 rows). Flag set and triggers gone go together,
    /// in a run killed before its end too; the rebuild puts both back.
    func deferSearchWords() throws(IndexError) {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO searchDeferred (id) VALUES (1);" + Self.dropSearchTriggers)
        }
    }

    /// Whether the search index waits for a rebuild (a first index was killed before its end).
    func searchWordsDeferred() throws(IndexError) -> Bool {
        try write { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM searchDeferred)") ?? false }
    }

    /// Whether the index holds no photo row at all (a first index).
    func hasNoPhotos() throws(IndexError) -> Bool {
        try write { db in try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM photo)") ?? true }
    }

    /// Builds the whole search index from the photo rows and turns the search triggers on again.
    func rebuildSearchWords(timings: IndexTimings? = nil) throws(IndexError) {
        try write { db in
            try timings.measure(.searchIndex) {
                try db.execute(sql: """
                    INSERT INTO photoSearch (photoSearch) VALUES ('delete-all');
                    INSERT INTO photoSearch (rowid, words) SELECT id, \(Self.searchWordsCall("photo")) FROM photo;
                    DELETE FROM searchDeferred;
                    \(Self.dropSearchTriggers)
                    \(Self.searchTriggers)
                    """)
            }
        }
    }
}
