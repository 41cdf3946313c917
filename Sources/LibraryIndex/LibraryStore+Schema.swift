import Foundation
import GRDB

extension LibraryStore {
    /// The schema, one migration per change; never edit a shipped migration.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: """
                CREATE TABLE library (
                    key TEXT PRIMARY KEY NOT NULL,
                    value BLOB
                ) WITHOUT ROWID;

                -- One row per image file under the root, readable or not.
                CREATE TABLE photo (
                    id INTEGER PRIMARY KEY,
                    path BLOB NOT NULL UNIQUE,      -- relative to the root, file-system bytes
                    fileSize INTEGER NOT NULL,
                    modified INTEGER NOT NULL,      -- nanoseconds since 1970
                    format TEXT,
                    captured TEXT NOT NULL,         -- local wall clock, YYYY-MM-DDTHH:MM:SS[.fff]
                    utcOffset INTEGER,              -- seconds east of UTC, when known
                    dateSource TEXT NOT NULL,
                    pixelWidth INTEGER,
                    pixelHeight INTEGER,
                    orientation INTEGER,
                    width INTEGER,                  -- display size
                    height INTEGER,
                    make TEXT,
                    model TEXT,
                    error TEXT
                );
                CREATE INDEX photo_on_captured ON photo(captured, path);

                -- Files whose content is not an image, remembered so re-runs do not open them again.
                CREATE TABLE ignoredFile (
                    path BLOB PRIMARY KEY NOT NULL,
                    fileSize INTEGER NOT NULL,
                    modified INTEGER NOT NULL
                ) WITHOUT ROWID;

                CREATE TABLE indexRun (
                    id INTEGER PRIMARY KEY,
                    startedAt TEXT NOT NULL,
                    finishedAt TEXT,
                    status TEXT NOT NULL,           -- running, completed, stopped
                    added INTEGER NOT NULL DEFAULT 0,
                    updated INTEGER NOT NULL DEFAULT 0,
                    unchanged INTEGER NOT NULL DEFAULT 0,
                    removed INTEGER NOT NULL DEFAULT 0,
                    failed INTEGER NOT NULL DEFAULT 0,
                    skipped INTEGER NOT NULL DEFAULT 0,
                    unreadableDirectories TEXT
                );
                """)
        }
        // Rows whose file was not found by a run that would otherwise have removed too many
        // (an unmounted drive looks like an empty folder): kept, and dated when first missed.
        migrator.registerMigration("v2-missing") { db in
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN missingSince TEXT")
        }
        migrator.registerMigration("v2-videos") { db in
            try db.execute(sql: """
                -- Videos are rows of the same table: what they are, how long they play, and for the
                -- two halves of a Live Photo (a still and a short MOV of the same base name), the
                -- path of the other half.
                ALTER TABLE photo ADD COLUMN mediaType TEXT NOT NULL DEFAULT 'photo';
                ALTER TABLE photo ADD COLUMN duration REAL;     -- seconds, videos only
                ALTER TABLE photo ADD COLUMN pairedWith BLOB;   -- relative path of the Live Photo's other half

                -- Videos used to be remembered as ignored files: forget them all so that the next
                -- run opens them again (files that are neither images nor videos are ignored again).
                DELETE FROM ignoredFile;
                """)
        }
        // The section tables of the last run, so that `sections` and `zoom` read a few rows instead
        // of grouping every photo again (see `LibraryStore+Sections.swift`).
        migrator.registerMigration("v3-sections") { db in
            try db.execute(sql: """
                -- One row: what the tables below were computed from. They answer only while `runID`
                -- is the last run started and `settings` are the ones asked for.
                CREATE TABLE timelineState (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    runID INTEGER NOT NULL,
                    settings TEXT NOT NULL,         -- the timeline settings, canonical JSON
                    leftOut INTEGER NOT NULL,       -- photos with no usable date, in no section
                    exact INTEGER NOT NULL,         -- 1 when position p is row p of the moment query
                    coarseItems BLOB NOT NULL,      -- shown photos per coarse section, Int32 little-endian
                    fineItems BLOB NOT NULL,        -- photos per fine section
                    coarseFirstFine BLOB NOT NULL   -- first fine section of each coarse section
                );
                CREATE TABLE timelineSection (
                    level TEXT NOT NULL,            -- coarse or fine
                    idx INTEGER NOT NULL,
                    firstDay INTEGER NOT NULL,      -- days since 2001-01-01
                    lastDay INTEGER NOT NULL,
                    start INTEGER NOT NULL,         -- position of its first photo in capture order
                    count INTEGER NOT NULL,
                    shown INTEGER NOT NULL,
                    fileDated INTEGER NOT NULL,     -- shown photos dated by their file's time
                    firstPhoto INTEGER NOT NULL,    -- photo.id at `start`
                    PRIMARY KEY (level, idx)
                ) WITHOUT ROWID;
                -- The coarse sample: item `item` of coarse section `section`.
                CREATE TABLE timelineShown (
                    section INTEGER NOT NULL,
                    item INTEGER NOT NULL,
                    position INTEGER NOT NULL,
                    photo INTEGER NOT NULL,         -- photo.id
                    PRIMARY KEY (section, item)
                ) WITHOUT ROWID;
                """)
        }
        // Where each photo was taken, and where its UTC offset came from (EXIF, the GPS time
        // stamp, or later the place's time zone).
        migrator.registerMigration("v4-positions") { db in
            try db.execute(sql: """
                ALTER TABLE photo ADD COLUMN latitude REAL;     -- degrees north, NULL when unknown
                ALTER TABLE photo ADD COLUMN longitude REAL;    -- degrees east
                ALTER TABLE photo ADD COLUMN offsetSource TEXT; -- exif, gps-time, place; NULL when none

                -- Rows read before positions were: a stamp no file has, so that the next run reads
                -- every file again (a file that failed before keeps its -1 and is retried anyway).
                UPDATE photo SET modified = -1;
                """)
        }
        // The names of the nearest place to each position (and offsets from its time zone), read
        // at index time so that a million photos are not geocoded again for every timeline.
        migrator.registerMigration("v5-places") { db in
            try db.execute(sql: """
                ALTER TABLE photo ADD COLUMN placeCity TEXT;
                ALTER TABLE photo ADD COLUMN placeRegion TEXT;
                ALTER TABLE photo ADD COLUMN placeCountry TEXT;
                ALTER TABLE photo ADD COLUMN placeCountryCode TEXT;

                -- Rows with a position read before places were: read again by the next run.
                UPDATE photo SET modified = -1 WHERE latitude IS NOT NULL;
                """)
        }
        // Full-text search over the words a photo is found by (see `LibraryStore+Search.swift`),
        // kept in step with `photo` by triggers.
        migrator.registerMigration("v6-search") { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE photoSearch USING fts5(
                    words, content = '', tokenize = 'unicode61 remove_diacritics 2'
                );
                INSERT INTO photoSearch (rowid, words) SELECT id, \(searchWords("photo")) FROM photo;
                CREATE TRIGGER photoSearchInsert AFTER INSERT ON photo BEGIN
                    INSERT INTO photoSearch (rowid, words) VALUES (new.id, \(searchWords("new")));
                END;
                CREATE TRIGGER photoSearchDelete AFTER DELETE ON photo BEGIN
                    INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, \(searchWords("old")));
                END;
                CREATE TRIGGER photoSearchUpdate
                AFTER UPDATE OF path, captured, make, model, placeCity, placeRegion, placeCountry ON photo BEGIN
                    INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, \(searchWords("old")));
                    INSERT INTO photoSearch (rowid, words) VALUES (new.id, \(searchWords("new")));
                END;
                """)
        }
        // Photos whose position was read while no places table was at hand: the next run that has
        // one names their places without reading the files again (`namePendingPlaces`).
        migrator.registerMigration("v7-place-pending") { db in
            try db.execute(sql: """
                ALTER TABLE photo ADD COLUMN placePending INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX photo_place_pending ON photo(id) WHERE placePending = 1;
                -- Rows with a position and no place: read without a table, or far from any place
                -- (looked up once more, harmlessly).
                UPDATE photo SET placePending = 1
                WHERE latitude IS NOT NULL AND placeCountry IS NULL AND placeCountryCode IS NULL;
                """)
        }
        // The indexer writes the search words of a whole batch in two statements (see
        // `updatingSearchWords`), with the triggers off for its own transaction, instead of one
        // trigger program per row: a million rows through `make-library` took 30 s of CPU instead
        // of 55. Other writers (another program, an older path) keep the triggers.
        migrator.registerMigration("v8-search-batches") { db in
            try db.execute(sql: """
                -- A row here, inside the indexer's own transaction only, turns the triggers off.
                CREATE TABLE searchDeferred (id INTEGER PRIMARY KEY CHECK (id = 1));
                \(dropSearchTriggers)
                \(searchTriggers)

                -- The photos with a place counted per capture day and place, as the last run left
                -- them (see `placeCountsByDay`): `runID` is the run that wrote them.
                CREATE TABLE placeDay (
                    day TEXT NOT NULL,              -- YYYY-MM-DD, the rows in day order
                    city TEXT,
                    region TEXT,
                    country TEXT,
                    countryCode TEXT,
                    count INTEGER NOT NULL
                );
                CREATE TABLE placeDayState (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    runID INTEGER NOT NULL
                );
                """)
        }
        // Duplicates and stacks (see `LibraryStore+Duplicates.swift`).
        migrator.registerMigration("v9-duplicates") { db in
            try db.execute(sql: """
                -- What a file's picture hashes to, for the file version (size, modification time)
                -- it was computed from; a changed file's row is out of date, not deleted.
                CREATE TABLE pictureHash (
                    photoId INTEGER PRIMARY KEY NOT NULL,
                    fileSize INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    sha256 BLOB,                    -- 32 bytes; only files that share their size
                    fingerprinted INTEGER NOT NULL DEFAULT 0,   -- 1 once tried (the hashes stay null when undecodable)
                    pixels INTEGER,                 -- PictureFingerprint, as signed 64-bit
                    dHash INTEGER,
                    pHash INTEGER
                );
                -- The groups of the last `shoebox duplicates`, once per tier it can be asked for
                -- (`exact`, `same-picture`, `similar`: the tiers used up to that one).
                CREATE TABLE duplicateMember (
                    tier TEXT NOT NULL,
                    photoId INTEGER NOT NULL,
                    groupId INTEGER NOT NULL,       -- the kept file's id
                    position INTEGER NOT NULL,      -- 0 for the kept file
                    kind TEXT NOT NULL,             -- the group's kind
                    match TEXT NOT NULL,            -- how this file matches the kept one
                    reason TEXT NOT NULL,           -- why the kept one is kept
                    PRIMARY KEY (tier, photoId)
                ) WITHOUT ROWID;
                CREATE INDEX duplicateMember_on_group ON duplicateMember(tier, groupId, position);
                -- Stacks, computed from the photo rows after each run that changed them.
                CREATE TABLE stack (
                    photoId INTEGER PRIMARY KEY NOT NULL,
                    stackId INTEGER NOT NULL        -- the cover's id
                );
                CREATE INDEX stack_on_stackId ON stack(stackId);
                CREATE TRIGGER photo_deleted_duplicates AFTER DELETE ON photo BEGIN
                    DELETE FROM pictureHash WHERE photoId = old.id;
                    DELETE FROM duplicateMember WHERE photoId = old.id;
                    DELETE FROM stack WHERE photoId = old.id;
                END;
                """)
        }
        // The map: each position's Web-Mercator cell, indexed, and photo counts per cell at a few
        // zooms (see `LibraryStore+Map.swift`).
        migrator.registerMigration("v10-map") { db in
            try migrateMap(db)
        }
        // The search index without its per-row column sizes (`columnsize=0`), which nothing reads
        // (search matches, it does not rank): building it for 10,000 photos takes a third less.
        migrator.registerMigration("v11-search-without-sizes") { db in
            try db.execute(sql: """
                DROP TABLE photoSearch;
                CREATE VIRTUAL TABLE photoSearch USING fts5(
                    words, content = '', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2'
                );
                INSERT INTO photoSearch (rowid, words) SELECT id, \(searchWords("photo")) FROM photo;
                """)
        }
        // The stored duplicate groups in pages: each group's place by its kept file's path, and
        // the totals, written with the groups (see `replaceDuplicateGroups`), so a page of a
        // million photos' groups is one index range rather than a sort of every group.
        migrator.registerMigration("v12-duplicate-pages") { db in
            try db.execute(sql: """
                CREATE TABLE duplicateGroup (
                    tier TEXT NOT NULL,
                    rank INTEGER NOT NULL,          -- from 0, by the kept file's path
                    groupId INTEGER NOT NULL,       -- the kept file's id
                    PRIMARY KEY (tier, rank)
                ) WITHOUT ROWID;
                CREATE TABLE duplicateTotal (
                    tier TEXT PRIMARY KEY NOT NULL,
                    groups INTEGER NOT NULL,
                    extraFiles INTEGER NOT NULL,    -- the files beside the kept ones
                    extraBytes INTEGER NOT NULL
                );
                """)
            for tier in try String.fetchAll(db, sql: "SELECT DISTINCT tier FROM duplicateMember") {
                try indexDuplicateGroups(db, tier: tier)
            }
        }
        // The journal of corrections (`shoebox adjust`, see `LibraryStore+Adjustments.swift`):
        // each batch, and each sidecar's bytes before it and the digest of what it wrote, so
        // that a batch can be undone byte for byte, even one a crash cut short.
        migrator.registerMigration("v13-adjustments") { db in
            try db.execute(sql: """
                CREATE TABLE adjustBatch (
                    id INTEGER PRIMARY KEY,
                    time TEXT NOT NULL,             -- ISO 8601, UTC
                    arguments TEXT NOT NULL,        -- the request as JSON
                    photos INTEGER NOT NULL,
                    state TEXT NOT NULL             -- writing, applied, undone
                );
                CREATE TABLE adjustFile (
                    batch INTEGER NOT NULL REFERENCES adjustBatch(id) ON DELETE CASCADE,
                    sidecar BLOB NOT NULL,          -- relative to the root, file-system bytes
                    previous BLOB,                  -- the bytes before; NULL when the batch created it
                    sha256 BLOB NOT NULL,           -- of the bytes the batch wrote
                    PRIMARY KEY (batch, sidecar)
                ) WITHOUT ROWID;
                """)
        }
        // Fingerprints gain a colour rendition (`ColourRendition`) that confirms `similar` pairs:
        // the stored ones, made without it, are made again (by the next `shoebox thumbnails` or
        // `shoebox duplicates`), and the `similar` groups found without it are dropped until then.
        migrator.registerMigration("v14-colour-fingerprints") { db in
            try db.execute(sql: """
                ALTER TABLE pictureHash ADD COLUMN colour BLOB;     -- ColourRendition bytes (16×16 Lab)
                UPDATE pictureHash SET fingerprinted = 0, pixels = NULL, dHash = NULL, pHash = NULL;
                DELETE FROM duplicateMember WHERE tier = 'similar';
                DELETE FROM duplicateGroup WHERE tier = 'similar';
                DELETE FROM duplicateTotal WHERE tier = 'similar';
                """)
        }
        return migrator
    }()

    /// Makes the schema of ``SchemaSnapshot`` in a database that has none, in one transaction, and
    /// records its migrations as applied: the migrator then applies only those that came after.
    /// Returns false, changing nothing, when the database already has a schema object.
    ///
    /// One transaction rather than one per migration: on a 2-core machine a first index spent
    /// about 25 ms creating its database, most of a run's start before the walk.
    static func createFromSnapshot(_ db: Database) throws -> Bool {
        var created = false
        try db.inTransaction(.immediate) {
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") == 0 else { return .rollback }
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            for statement in SchemaSnapshot.statements { try db.execute(sql: statement) }
            let record = try db.makeStatement(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)")
            for identifier in SchemaSnapshot.migrations { try record.execute(arguments: [identifier]) }
            created = true
            return .commit
        }
        return created
    }

    /// The words row `row` (`new`, `old` or the table) is found by, as an SQL expression: place names,
    /// camera make and model, the capture year, month name (full and short) and date (`2025-03-08`,
    /// which the tokenizer splits into `2025 03 08`, so that `2025-03` matches as a phrase), and the
    /// relative path (its folder and file names).
    ///
    /// The index is contentless: a deleted row's words are computed again from its old values, so
    /// this expression must depend on the row alone; changing it needs a migration that rebuilds
    /// the index.
    static func searchWords(_ row: String) -> String {
        let months = ["january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
                      "august aug", "september sep sept", "october oct", "november nov", "december dec"]
        let monthCase = "CASE substr(\(row).captured, 6, 2) "
            + months.enumerated().map { "WHEN '\(String(format: "%02d", $0.offset + 1))' THEN '\($0.element)' " }.joined()
            + "ELSE '' END"
        return """
            coalesce(\(row).placeCity, '') || ' ' || coalesce(\(row).placeRegion, '') || ' ' || coalesce(\(row).placeCountry, '') \
            || ' ' || coalesce(\(row).make, '') || ' ' || coalesce(\(row).model, '') || ' ' || \(monthCase) \
            || ' ' || substr(\(row).captured, 1, 10) || ' ' || CAST(\(row).path AS TEXT)
            """
    }

    /// The search triggers, which keep `photoSearch` in step with rows written by any program; a
    /// row in `searchDeferred` turns them off for a transaction. Since "v8-search-batches"; a first
    /// index drops them while it writes (``LibraryStore/deferSearchWords()``) and its rebuild puts
    /// these back, so a migration that changes them must change them here.
    static let searchTriggers = """
        CREATE TRIGGER photoSearchInsert AFTER INSERT ON photo
        WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
            INSERT INTO photoSearch (rowid, words) VALUES (new.id, \(searchWords("new")));
        END;
        CREATE TRIGGER photoSearchDelete AFTER DELETE ON photo
        WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
            INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, \(searchWords("old")));
        END;
        CREATE TRIGGER photoSearchUpdate
        AFTER UPDATE OF path, captured, make, model, placeCity, placeRegion, placeCountry ON photo
        WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
            INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, \(searchWords("old")));
            INSERT INTO photoSearch (rowid, words) VALUES (new.id, \(searchWords("new")));
        END;
        """

    /// Drops the search triggers, those of "v6-search" or of ``searchTriggers``, when present.
    static let dropSearchTriggers = """
        DROP TRIGGER IF EXISTS photoSearchInsert;
        DROP TRIGGER IF EXISTS photoSearchDelete;
        DROP TRIGGER IF EXISTS photoSearchUpdate;
        """

    /// ``searchWords(_:)`` through `shoebox_search_words`, which writer connections have
    /// (`shoebox_sqlite_add_search_words`): the same words byte for byte, built in one allocation
    /// rather than one per `||`; a first index's search index took a quarter less. The triggers keep
    /// the expression, so that any SQLite can change the rows.
    static func searchWordsCall(_ row: String) -> String {
        "shoebox_search_words(\(row).placeCity, \(row).placeRegion, \(row).placeCountry, \(row).make, \(row).model, \(row).captured, \(row).path)"
    }
}
