import GRDB

// Written from a database the migrations made, by
// `SHOEBOX_WRITE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`; the same tests fail
// when a migration changes the schema and this file does not follow. Not edited by hand.

extension LibraryStore {
    /// The schema every migration up to ``SchemaSnapshot/migrations`` makes, as SQLite stores it:
    /// a new database is made from it in one transaction (``createFromSnapshot(_:)``), not by
    /// replaying the migrations one transaction each.
    enum SchemaSnapshot {
        /// The migrations the statements stand for, in order.
        static let migrations = [
            "v1",
            "v2-missing",
            "v2-videos",
            "v3-sections",
            "v4-positions",
            "v5-places",
            "v6-search",
            "v7-place-pending",
            "v8-search-batches",
            "v9-duplicates",
            "v10-map",
            "v11-search-without-sizes",
            "v12-duplicate-pages",
            "v13-adjustments",
            "v14-colour-fingerprints",
        ]

        /// `sqlite_schema`'s statements in its order (the search table's own tables and the
        /// automatic indexes come with their tables).
        static let statements = [
            """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)
            """,
            """
            CREATE TABLE library (
                key TEXT PRIMARY KEY NOT NULL,
                value BLOB
            ) WITHOUT ROWID
            """,
            """
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
            , missingSince TEXT, mediaType TEXT NOT NULL DEFAULT 'photo', duration REAL, pairedWith BLOB, latitude REAL, longitude REAL, offsetSource TEXT, placeCity TEXT, placeRegion TEXT, placeCountry TEXT, placeCountryCode TEXT, placePending INTEGER NOT NULL DEFAULT 0, mapX INTEGER, mapY INTEGER)
            """,
            """
            CREATE INDEX photo_on_captured ON photo(captured, path)
            """,
            """
            CREATE TABLE ignoredFile (
                path BLOB PRIMARY KEY NOT NULL,
                fileSize INTEGER NOT NULL,
                modified INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            """
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
            )
            """,
            """
            CREATE TABLE timelineState (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                runID INTEGER NOT NULL,
                settings TEXT NOT NULL,         -- the timeline settings, canonical JSON
                leftOut INTEGER NOT NULL,       -- photos with no usable date, in no section
                exact INTEGER NOT NULL,         -- 1 when position p is row p of the moment query
                coarseItems BLOB NOT NULL,      -- shown photos per coarse section, Int32 little-endian
                fineItems BLOB NOT NULL,        -- photos per fine section
                coarseFirstFine BLOB NOT NULL   -- first fine section of each coarse section
            )
            """,
            """
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
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE timelineShown (
                section INTEGER NOT NULL,
                item INTEGER NOT NULL,
                position INTEGER NOT NULL,
                photo INTEGER NOT NULL,         -- photo.id
                PRIMARY KEY (section, item)
            ) WITHOUT ROWID
            """,
            """
            CREATE INDEX photo_place_pending ON photo(id) WHERE placePending = 1
            """,
            """
            CREATE TABLE searchDeferred (id INTEGER PRIMARY KEY CHECK (id = 1))
            """,
            """
            CREATE TRIGGER photoSearchInsert AFTER INSERT ON photo
            WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
                INSERT INTO photoSearch (rowid, words) VALUES (new.id, coalesce(new.placeCity, '') || ' ' || coalesce(new.placeRegion, '') || ' ' || coalesce(new.placeCountry, '') || ' ' || coalesce(new.make, '') || ' ' || coalesce(new.model, '') || ' ' || CASE substr(new.captured, 6, 2) WHEN '01' THEN 'january jan' WHEN '02' THEN 'february feb' WHEN '03' THEN 'march mar' WHEN '04' THEN 'april apr' WHEN '05' THEN 'may' WHEN '06' THEN 'june jun' WHEN '07' THEN 'july jul' WHEN '08' THEN 'august aug' WHEN '09' THEN 'september sep sept' WHEN '10' THEN 'october oct' WHEN '11' THEN 'november nov' WHEN '12' THEN 'december dec' ELSE '' END || ' ' || substr(new.captured, 1, 10) || ' ' || CAST(new.path AS TEXT));
            END
            """,
            """
            CREATE TRIGGER photoSearchDelete AFTER DELETE ON photo
            WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
                INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, coalesce(old.placeCity, '') || ' ' || coalesce(old.placeRegion, '') || ' ' || coalesce(old.placeCountry, '') || ' ' || coalesce(old.make, '') || ' ' || coalesce(old.model, '') || ' ' || CASE substr(old.captured, 6, 2) WHEN '01' THEN 'january jan' WHEN '02' THEN 'february feb' WHEN '03' THEN 'march mar' WHEN '04' THEN 'april apr' WHEN '05' THEN 'may' WHEN '06' THEN 'june jun' WHEN '07' THEN 'july jul' WHEN '08' THEN 'august aug' WHEN '09' THEN 'september sep sept' WHEN '10' THEN 'october oct' WHEN '11' THEN 'november nov' WHEN '12' THEN 'december dec' ELSE '' END || ' ' || substr(old.captured, 1, 10) || ' ' || CAST(old.path AS TEXT));
            END
            """,
            """
            CREATE TRIGGER photoSearchUpdate
            AFTER UPDATE OF path, captured, make, model, placeCity, placeRegion, placeCountry ON photo
            WHEN NOT EXISTS (SELECT 1 FROM searchDeferred) BEGIN
                INSERT INTO photoSearch (photoSearch, rowid, words) VALUES ('delete', old.id, coalesce(old.placeCity, '') || ' ' || coalesce(old.placeRegion, '') || ' ' || coalesce(old.placeCountry, '') || ' ' || coalesce(old.make, '') || ' ' || coalesce(old.model, '') || ' ' || CASE substr(old.captured, 6, 2) WHEN '01' THEN 'january jan' WHEN '02' THEN 'february feb' WHEN '03' THEN 'march mar' WHEN '04' THEN 'april apr' WHEN '05' THEN 'may' WHEN '06' THEN 'june jun' WHEN '07' THEN 'july jul' WHEN '08' THEN 'august aug' WHEN '09' THEN 'september sep sept' WHEN '10' THEN 'october oct' WHEN '11' THEN 'november nov' WHEN '12' THEN 'december dec' ELSE '' END || ' ' || substr(old.captured, 1, 10) || ' ' || CAST(old.path AS TEXT));
                INSERT INTO photoSearch (rowid, words) VALUES (new.id, coalesce(new.placeCity, '') || ' ' || coalesce(new.placeRegion, '') || ' ' || coalesce(new.placeCountry, '') || ' ' || coalesce(new.make, '') || ' ' || coalesce(new.model, '') || ' ' || CASE substr(new.captured, 6, 2) WHEN '01' THEN 'january jan' WHEN '02' THEN 'february feb' WHEN '03' THEN 'march mar' WHEN '04' THEN 'april apr' WHEN '05' THEN 'may' WHEN '06' THEN 'june jun' WHEN '07' THEN 'july jul' WHEN '08' THEN 'august aug' WHEN '09' THEN 'september sep sept' WHEN '10' THEN 'october oct' WHEN '11' THEN 'november nov' WHEN '12' THEN 'december dec' ELSE '' END || ' ' || substr(new.captured, 1, 10) || ' ' || CAST(new.path AS TEXT));
            END
            """,
            """
            CREATE TABLE placeDay (
                day TEXT NOT NULL,              -- YYYY-MM-DD, the rows in day order
                city TEXT,
                region TEXT,
                country TEXT,
                countryCode TEXT,
                count INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE placeDayState (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                runID INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE pictureHash (
                photoId INTEGER PRIMARY KEY NOT NULL,
                fileSize INTEGER NOT NULL,
                modified INTEGER NOT NULL,
                sha256 BLOB,                    -- 32 bytes; only files that share their size
                fingerprinted INTEGER NOT NULL DEFAULT 0,   -- 1 once tried (the hashes stay null when undecodable)
                pixels INTEGER,                 -- PictureFingerprint, as signed 64-bit
                dHash INTEGER,
                pHash INTEGER
            , colour BLOB)
            """,
            """
            CREATE TABLE duplicateMember (
                tier TEXT NOT NULL,
                photoId INTEGER NOT NULL,
                groupId INTEGER NOT NULL,       -- the kept file's id
                position INTEGER NOT NULL,      -- 0 for the kept file
                kind TEXT NOT NULL,             -- the group's kind
                match TEXT NOT NULL,            -- how this file matches the kept one
                reason TEXT NOT NULL,           -- why the kept one is kept
                PRIMARY KEY (tier, photoId)
            ) WITHOUT ROWID
            """,
            """
            CREATE INDEX duplicateMember_on_group ON duplicateMember(tier, groupId, position)
            """,
            """
            CREATE TABLE stack (
                photoId INTEGER PRIMARY KEY NOT NULL,
                stackId INTEGER NOT NULL        -- the cover's id
            )
            """,
            """
            CREATE INDEX stack_on_stackId ON stack(stackId)
            """,
            """
            CREATE TRIGGER photo_deleted_duplicates AFTER DELETE ON photo BEGIN
                DELETE FROM pictureHash WHERE photoId = old.id;
                DELETE FROM duplicateMember WHERE photoId = old.id;
                DELETE FROM stack WHERE photoId = old.id;
            END
            """,
            """
            CREATE INDEX photo_on_map ON photo(mapY, mapX, latitude, longitude, mediaType, pairedWith)
            WHERE mapY IS NOT NULL
            """,
            """
            CREATE TABLE mapCell (
                level INTEGER NOT NULL,         -- the zoom of x and y
                y INTEGER NOT NULL,
                x INTEGER NOT NULL,
                count INTEGER NOT NULL,
                latitudeSum REAL NOT NULL,
                longitudeSum REAL NOT NULL,
                cover INTEGER NOT NULL,         -- photo.id (+ 2^40 when no photo of the cell could be read)
                PRIMARY KEY (level, y, x)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE mapCellState (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                runID INTEGER NOT NULL,
                located INTEGER NOT NULL,       -- photos of the timeline with a position
                unlocated INTEGER NOT NULL      -- and without
            )
            """,
            """
            CREATE VIRTUAL TABLE photoSearch USING fts5(
                words, content = '', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2'
            )
            """,
            """
            CREATE TABLE duplicateGroup (
                tier TEXT NOT NULL,
                rank INTEGER NOT NULL,          -- from 0, by the kept file's path
                groupId INTEGER NOT NULL,       -- the kept file's id
                PRIMARY KEY (tier, rank)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE duplicateTotal (
                tier TEXT PRIMARY KEY NOT NULL,
                groups INTEGER NOT NULL,
                extraFiles INTEGER NOT NULL,    -- the files beside the kept ones
                extraBytes INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE adjustBatch (
                id INTEGER PRIMARY KEY,
                time TEXT NOT NULL,             -- ISO 8601, UTC
                arguments TEXT NOT NULL,        -- the request as JSON
                photos INTEGER NOT NULL,
                state TEXT NOT NULL             -- writing, applied, undone
            )
            """,
            """
            CREATE TABLE adjustFile (
                batch INTEGER NOT NULL REFERENCES adjustBatch(id) ON DELETE CASCADE,
                sidecar BLOB NOT NULL,          -- relative to the root, file-system bytes
                previous BLOB,                  -- the bytes before; NULL when the batch created it
                sha256 BLOB NOT NULL,           -- of the bytes the batch wrote
                PRIMARY KEY (batch, sidecar)
            ) WITHOUT ROWID
            """,
        ]
    }
}
