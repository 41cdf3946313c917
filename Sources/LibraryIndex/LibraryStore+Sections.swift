import WallClock
import Foundation
import GRDB
import PhotoMetadata
import Synchronization

/// Computes the section tables a run persists. The timeline lives above the store, so a higher
/// layer hands the store one of these (`LibraryStore.persistTimeline(with:)`).
public protocol TimelinePersisting: Sendable {
    /// The settings the tables are computed with, as canonical text: a reader asking with other
    /// settings does not use them.
    var settingsKey: String { get }

    /// Groups the photos that `forEachMoment` calls its argument with (in capture order, then path).
    func tables(forEachMoment: ((PhotoMoment) throws -> Void) throws -> Void) throws -> StoredTimeline
}

/// The section tables of one library at one moment, as plain numbers.
public struct StoredTimeline: Sendable, Hashable {
    /// Photos with no usable date, in no section.
    public var leftOut: Int
    /// Whether photo position `p` is row `p` of the moment query (rows came in capture order and
    /// none was left out), so a fine section's photos can be read as a range of rows.
    public var isExact: Bool
    public var coarse: [StoredSection]
    public var fine: [StoredSection]
    /// The coarse sample, section by section, item by item.
    public var shown: [StoredShownPhoto]

    public init(leftOut: Int, isExact: Bool, coarse: [StoredSection], fine: [StoredSection], shown: [StoredShownPhoto]) {
        self.leftOut = leftOut
        self.isExact = isExact
        self.coarse = coarse
        self.fine = fine
        self.shown = shown
    }
}

/// One section: its days, its photos as positions in capture order, what it shows.
public struct StoredSection: Sendable, Hashable {
    public var firstDay: Int
    public var lastDay: Int
    /// Position of the first photo; the section holds `start..<start + count`.
    public var start: Int
    public var count: Int
    /// Items shown (`count` at the fine level).
    public var shown: Int
    /// Of the shown photos, those dated only by their file's modification time.
    public var fileDated: Int
    /// The row id of the photo at `start`.
    public var firstPhoto: Int64
    /// Coarse: its first fine section. Fine: its coarse section.
    public var link: Int

    public init(firstDay: Int, lastDay: Int, start: Int, count: Int, shown: Int, fileDated: Int, firstPhoto: Int64, link: Int) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.start = start
        self.count = count
        self.shown = shown
        self.fileDated = fileDated
        self.firstPhoto = firstPhoto
        self.link = link
    }
}

/// Item `item` of coarse section `section`: the photo at `position`, row `photo`.
public struct StoredShownPhoto: Sendable, Hashable {
    public var section: Int
    public var item: Int
    public var position: Int
    public var photo: Int64

    public init(section: Int, item: Int, position: Int, photo: Int64) {
        self.section = section
        self.item = item
        self.position = position
        self.photo = photo
    }
}

/// What a reader finds of the persisted tables: the per-level item counts (all a zoom's grids
/// need) and the state's facts. Sections and photos are read on demand.
public struct StoredTimelineState: Sendable {
    public var leftOut: Int
    public var isExact: Bool
    public var coarseItems: [Int32]
    public var fineItems: [Int32]
    public var coarseFirstFine: [Int32]
}

extension LibraryStore {
    /// Persists the section tables at the end of every completed run, in the run's last transaction,
    /// computed by `persister`.
    public func persistTimeline(with persister: any TimelinePersisting) {
        timelinePersister.withLock { $0 = persister }
    }

    /// The tables the persister computes from the photo rows as last committed, on a reader
    /// connection: an index run computes them while its writer stores the map's cells and the
    /// places' days, then hands them to `finishRun`. `nil` without a persister.
    func computeTimeline() throws(IndexError) -> StoredTimeline? {
        guard let persister = timelinePersister.withLock({ $0 }) else { return nil }
        return try read { db in try Self.timeline(persister, db) }
    }

    private static func timeline(_ persister: any TimelinePersisting, _ db: Database) throws -> StoredTimeline {
        var skipped = 0
        var tables = try persister.tables { body in try forEachMoment(db, skipped: &skipped, body) }
        if skipped > 0 { tables.isExact = false }
        return tables
    }

    /// Called in `finishRun`'s transaction: recomputes the tables (or takes `computed`, made from
    /// the rows as they are now by ``computeTimeline()``), or only restamps them when the run
    /// changed no row and the settings are those they were computed with.
    func persistTimeline(
        _ db: Database, runID: Int64, progress: IndexProgress, computed: (() throws -> StoredTimeline?)? = nil
    ) throws {
        guard progress.phase == .completed, let persister = timelinePersister.withLock({ $0 }) else { return }
        let key = persister.settingsKey
        let unchanged = progress.toRead == 0 && progress.added == 0 && progress.updated == 0 && progress.removed == 0
            && progress.missing == 0 && progress.failed == 0
        if unchanged, let state = try Row.fetchOne(db, sql: "SELECT runID, settings FROM timelineState"),
           state["settings"] as String == key,
           try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun WHERE id < ?", arguments: [runID]) == state["runID"] {
            try db.execute(sql: "UPDATE timelineState SET runID = ?", arguments: [runID])
            return
        }
        let tables = try computed?() ?? Self.timeline(persister, db)
        try write(tables, settingsKey: key, runID: runID, db)
    }

    /// Replaces the tables with `tables`, stamped with `runID`.
    func write(_ tables: StoredTimeline, settingsKey: String, runID: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM timelineState; DELETE FROM timelineSection; DELETE FROM timelineShown;")
        func blob(_ values: [Int]) -> Data {
            var data = Data(capacity: values.count * 4)
            for value in values { withUnsafeBytes(of: Int32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
            return data
        }
        try db.execute(
            sql: """
                INSERT INTO timelineState (id, runID, settings, leftOut, exact, coarseItems, fineItems, coarseFirstFine)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [runID, settingsKey, tables.leftOut, tables.isExact, blob(tables.coarse.map(\.shown)),
                        blob(tables.fine.map(\.count)), blob(tables.coarse.map(\.link))])
        // Bound straight through SQLite (`RawBindings`), many rows a statement: a section row a day
        // and a shown row a photo add up in a large library.
        for (level, sections) in [("coarse", tables.coarse), ("fine", tables.fine)] {
            try db.insertRows(
                "INSERT INTO timelineSection (level, idx, firstDay, lastDay, start, count, shown, fileDated, firstPhoto)",
                columns: 9, Array(sections.enumerated())
            ) { row, element in
                let (index, s) = element
                row.text(level)
                for value in [index, s.firstDay, s.lastDay, s.start, s.count, s.shown, s.fileDated] { row.integer(value) }
                row.integer(s.firstPhoto)
            }
        }
        try db.insertRows("INSERT INTO timelineShown (section, item, position, photo)", columns: 4, tables.shown) { row, s in
            row.integer(s.section)
            row.integer(s.item)
            row.integer(s.position)
            row.integer(s.photo)
        }
    }

    /// The persisted state, or `nil` when the tables cannot answer for `settingsKey`: a database
    /// from before them, another run started since they were written, or other settings.
    ///
    /// - Complexity: three indexed lookups; reads the per-level item counts (4 bytes a section).
    public func storedTimeline(settingsKey: String) throws(IndexError) -> StoredTimelineState? {
        try read { db in
            guard try db.tableExists("timelineState"),
                  let row = try Row.fetchOne(db, sql: "SELECT * FROM timelineState"),
                  row["settings"] as String == settingsKey,
                  try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun") == row["runID"]
            else { return nil }
            func ints(_ data: Data) -> [Int32] {
                data.withUnsafeBytes { raw in
                    (0..<raw.count / 4).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) }
                }
            }
            return StoredTimelineState(
                leftOut: row["leftOut"], isExact: row["exact"], coarseItems: ints(row["coarseItems"]),
                fineItems: ints(row["fineItems"]), coarseFirstFine: ints(row["coarseFirstFine"]))
        }
    }

    /// The persisted sections of `level` (`"coarse"` or `"fine"`), all or one.
    public func storedSections(level: String, index: Int? = nil) throws(IndexError) -> [StoredSection] {
        try read { db in
            let filter = index == nil ? "" : " AND idx = \(index!)"
            return try Row.fetchAll(db, sql: """
                SELECT firstDay, lastDay, start, count, shown, fileDated, firstPhoto FROM timelineSection
                WHERE level = ?\(filter) ORDER BY idx
                """, arguments: [level]).map { row in
                StoredSection(firstDay: row[0], lastDay: row[1], start: row[2], count: row[3], shown: row[4],
                              fileDated: row[5], firstPhoto: row[6], link: 0)
            }
        }
    }

    /// The coarse sample of `section` (every section's when `nil`), in section and item order.
    public func storedShown(section: Int? = nil) throws(IndexError) -> [StoredShownPhoto] {
        try read { db in
            let filter = section.map { " WHERE section = \($0)" } ?? ""
            return try Row.fetchAll(db, sql: "SELECT section, item, position, photo FROM timelineShown\(filter) ORDER BY section, item")
                .map { StoredShownPhoto(section: $0[0], item: $0[1], position: $0[2], photo: $0[3]) }
        }
    }

    /// The timeline's view of the rows with `ids` (those that are not readable are left out).
    public func moments(ids: [Int64]) throws(IndexError) -> [Int64: PhotoMoment] {
        try read { db in
            var found: [Int64: PhotoMoment] = [:]
            let statement = try db.cachedStatement(sql: MomentQuery(db).selection + " WHERE id = ?")
            for id in ids where found[id] == nil {
                try statement.setArguments([id])
                try Self.forEachRow(of: statement, in: db) { row in found[id] = PhotoMoment(row: row) }
            }
            return found
        }
    }

    /// `count` rows of the moment query (capture order), from the row with id `first` on, skipping
    /// `offset` of them. Only meaningful when the state `isExact`.
    public func moments(from first: Int64, offset: Int, count: Int) throws(IndexError) -> [PhotoMoment] {
        try read { db in
            guard let anchor = try Row.fetchOne(db, sql: "SELECT captured, path FROM photo WHERE id = ?", arguments: [first]) else { return [] }
            let query = try MomentQuery(db)
            let statement = try db.makeStatement(sql: query.selection + """
                 WHERE (captured, path) >= (?, ?) AND \(query.filter)
                ORDER BY captured, path LIMIT ? OFFSET ?
                """)
            try statement.setArguments([anchor[0], anchor[1], count, offset])
            var moments: [PhotoMoment] = []
            try Self.forEachRow(of: statement, in: db) { row in
                if let moment = PhotoMoment(row: row) { moments.append(moment) }
            }
            return moments
        }
    }
}
