import Foundation
import GRDB
import PhotoMetadata
import Places
import WallClock

/// How many photos of one capture day were taken at one place.
public struct DayPlaceCount: Sendable, Hashable {
    /// The local capture date, `YYYY-MM-DD`.
    public var day: String
    public var place: PhotoPlace
    public var count: Int

    public init(day: String, place: PhotoPlace, count: Int) {
        self.day = day
        self.place = place
        self.count = count
    }
}

extension LibraryStore {
    /// The photos with a place, counted per capture day and place, ordered by day; only those
    /// matching `query` when one is given. What section headers are named from.
    ///
    /// - Complexity: for the whole library, the rows the last run stored (one per day and place)
    ///   while no run started since; else one scan of the rows with a place, counted.
    public func placeCountsByDay(matching query: SearchQuery? = nil) throws(IndexError) -> [DayPlaceCount] {
        if let query, query.isEmpty { return [] }
        return try read { db in
            if query == nil, let stored = try Self.storedPlaceDays(db) { return stored }
            let names = Set(try db.columns(in: "photo").map(\.name))
            guard names.contains("placeCountry") else { return [] }
            var condition = "1", arguments = StatementArguments()
            if let query {
                try Self.requireSearchIndex(db, path: path)
                (condition, arguments) = Self.searchCondition(query)
            }
            return try Self.placeDays(db, where: condition, arguments: arguments).map { row in
                DayPlaceCount(
                    day: row.day, place: PhotoPlace(city: row.city, region: row.region, country: row.country, countryCode: row.countryCode),
                    count: row.count)
            }
        }
    }
}

extension LibraryStore {
    /// The day counts of the whole library as the last run stored them, or `nil` when it did not
    /// (a database from before them) or another run started since.
    static func storedPlaceDays(_ db: Database) throws -> [DayPlaceCount]? {
        guard try db.tableExists("placeDayState"),
              let stamped = try Int64.fetchOne(db, sql: "SELECT runID FROM placeDayState"),
              try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun") == stamped
        else { return nil }
        let rows = try Row.fetchCursor(db, sql: "SELECT day, city, region, country, countryCode, count FROM placeDay ORDER BY rowid")
        var counts: [DayPlaceCount] = []
        while let row = try rows.next() {
            counts.append(DayPlaceCount(
                day: row[0], place: PhotoPlace(city: row[1], region: row[2], country: row[3], countryCode: row[4]), count: row[5]))
        }
        return counts
    }

    /// Called in `finishRun`'s transaction of a completed run: stores the day counts that
    /// `placeCountsByDay()` gives (`computed`, counted meanwhile on a reader connection by
    /// ``countPlaceDays()``, or counted now), so that `sections` does not group every photo for
    /// its place names; when the run wrote no row and the counts are the previous run's, only
    /// restamps them.
    ///
    /// - Complexity: one scan of the rows with a place, counted; one row when nothing changed.
    static func persistPlaceDays(
        _ db: Database, runID: Int64, rowsChanged: Bool, computed: (() throws -> [PlaceDayRow])? = nil
    ) throws {
        if !rowsChanged, let stamped = try Int64.fetchOne(db, sql: "SELECT runID FROM placeDayState"),
           try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun WHERE id < ?", arguments: [runID]) == stamped {
            try db.execute(sql: "UPDATE placeDayState SET runID = ?", arguments: [runID])
            return
        }
        try db.execute(sql: "DELETE FROM placeDay")
        try db.insertRows("INSERT INTO placeDay (day, city, region, country, countryCode, count)", columns: 6, try computed?() ?? placeDays(db)) { bind, row in
            bind.text(row.day)
            bind.text(row.city)
            bind.text(row.region)
            bind.text(row.country)
            bind.text(row.countryCode)
            bind.integer(row.count)
        }
        try db.execute(sql: "INSERT OR REPLACE INTO placeDayState (id, runID) VALUES (1, ?)", arguments: [runID])
    }

    /// One row of `placeDay`.
    struct PlaceDayRow: Sendable {
        var day: String
        var city, region, country, countryCode: String?
        var count: Int
    }

    /// The rows ``persistPlaceDays(_:runID:rowsChanged:computed:)`` stores, counted from the photo
    /// rows as last committed on a reader connection: an index run counts them while its writer
    /// builds the search index. They depend on the photo rows and their Live Photo pairs alone.
    func countPlaceDays() throws(IndexError) -> [PlaceDayRow] {
        try read { db in try Self.placeDays(db) }
    }

    /// The photos of the timeline with a place (and matching `condition`, an SQL condition on
    /// `photo`), counted per capture day and place: by day, then by the place's names, a missing
    /// name first, as SQLite's `GROUP BY` orders them.
    ///
    /// Counted here rather than by `GROUP BY`, whose sort of every row was most of the count (at
    /// 10,000 photos 16 ms of 19): the rows of one day and place mostly come one after another,
    /// and such a run is one dictionary update.
    ///
    /// - Complexity: one scan of the rows with a place; a sort of the counts.
    static func placeDays(_ db: Database, where condition: String = "1", arguments: StatementArguments = []) throws -> [PlaceDayRow] {
        let statement = try db.makeStatement(sql: """
            SELECT substr(captured, 1, 10), placeCity, placeRegion, placeCountry, placeCountryCode
            FROM photo WHERE placeCountry IS NOT NULL AND \(timelineFilter) AND (\(condition))
            """)
        try statement.setArguments(arguments)
        // Keyed by the row's names in SQLite's order of them, so that a sort of the keys is GROUP BY's.
        var counts: [ColumnsKey: Int] = [:]
        var key = ColumnsKey(), previous = ColumnsKey(), run = 0
        try forEachRow(of: statement, in: db) { row in
            key.removeAll()
            for column in Int32(0)..<5 { key.append(row.bytes(column)) }
            if key == previous {
                run += 1
            } else {
                if run > 0 { counts[previous, default: 0] += run }
                swap(&key, &previous)
                run = 1
            }
        }
        if run > 0 { counts[previous, default: 0] += run }
        return counts.sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }.map { key, count in
            let names = key.values
            return PlaceDayRow(day: names[0] ?? "", city: names[1], region: names[2], country: names[3], countryCode: names[4], count: count)
        }
    }
}

/// How many photos were taken at one place (its names as stored), and which of them shows it.
public struct PlaceCount: Sendable, Hashable {
    public var place: PhotoPlace
    public var count: Int
    /// The id of the most recent of these photos, preferring one that could be read.
    public var cover: Int64
    /// What `cover` was chosen by (greater is preferred): compare it to choose among places.
    public var coverRank: String

    public init(place: PhotoPlace, count: Int, cover: Int64, coverRank: String) {
        self.place = place
        self.count = count
        self.cover = cover
        self.coverRank = coverRank
    }
}

/// The photos of a library counted per place.
public struct PlaceCounts: Sendable, Hashable {
    /// One count per distinct stored place, in no particular order.
    public var places: [PlaceCount]
    /// Photos without a place (no country name or code).
    public var unplaced: Int
    /// Of the `unplaced`, those with a position: indexed without a places table, or far from any place.
    public var unplacedWithPosition: Int

    public init(places: [PlaceCount], unplaced: Int, unplacedWithPosition: Int) {
        self.places = places
        self.unplaced = unplaced
        self.unplacedWithPosition = unplacedWithPosition
    }
}

extension LibraryStore {
    /// The photos of the timeline (Live Photo video halves left out) counted per place.
    ///
    /// - Complexity: one scan of the rows, grouped.
    public func placeCounts() throws(IndexError) -> PlaceCounts {
        try read { db in
            try Self.requireSearchIndex(db, path: path)
            // A single max(): SQLite takes the bare `id` from the row holding the maximum.
            let rows = try Row.fetchCursor(db, sql: """
                SELECT placeCity, placeRegion, placeCountry, placeCountryCode, count(*),
                       max((error IS NULL) || captured), id, count(latitude)
                FROM photo WHERE \(Self.timelineFilter)
                GROUP BY 1, 2, 3, 4
                """)
            var counts = PlaceCounts(places: [], unplaced: 0, unplacedWithPosition: 0)
            while let row = try rows.next() {
                let place = PhotoPlace(city: row[0], region: row[1], country: row[2], countryCode: row[3])
                guard place.country != nil || place.countryCode != nil else {
                    counts.unplaced += row[4] as Int
                    counts.unplacedWithPosition += row[7] as Int
                    continue
                }
                counts.places.append(PlaceCount(place: place, count: row[4], cover: row[6], coverRank: row[5]))
            }
            return counts
        }
    }
}

extension LibraryStore {
    /// Whether any photo has a position: without one there is no place to count or name.
    ///
    /// - Complexity: stops at the first row with a position; a scan of the rows when there is none.
    public func hasPositions() throws(IndexError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE latitude IS NOT NULL)") ?? false
        }
    }
}

extension LibraryStore {
    /// Names the places of photos read while no places table was at hand, and gives those without
    /// an offset their place's (as a first read would have), from the stored positions: the files
    /// are not read again. Loads `places` only when there is such a photo; returns how many rows
    /// were named (0 without a table).
    ///
    /// - Complexity: one indexed lookup when there is none; else a nearest-place search per photo,
    ///   written `batchSize` rows a transaction.
    func namePendingPlaces(with places: LazyPlaceTable, batchSize: Int) throws(IndexError) -> Int {
        let pending = try write { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE placePending = 1)") ?? false }
        guard pending, let table = places.table else { return 0 }
        var named = 0
        while true {
            let count = try write { db in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT id, latitude, longitude, captured, utcOffset, dateSource, offsetSource, path
                    FROM photo WHERE placePending = 1 ORDER BY id LIMIT ?
                    """, arguments: [max(1, batchSize)])
                let update = try db.cachedStatement(sql: """
                    UPDATE photo SET placeCity = ?, placeRegion = ?, placeCountry = ?, placeCountryCode = ?,
                                     utcOffset = ?, offsetSource = ?, placePending = 0
                    WHERE id = ?
                    """)
                try Self.updatingSearchWords(db, ofPaths: rows.map { $0["path"] as Data }) {
                    for row in rows {
                        let place: Place? = table.nearest(latitude: row["latitude"], longitude: row["longitude"])
                        var offset: Int? = row["utcOffset"]
                        var offsetSource: String? = row["offsetSource"]
                        if let local = (row["captured"] as String?).flatMap(LocalDateTime.init(iso8601:)),
                           let source = (row["dateSource"] as String?).flatMap(DateSource.init(rawValue:)) {
                            var date = CaptureDate(
                                local: local, offset: offset.map(UTCOffset.init(seconds:)), source: source,
                                offsetSource: offsetSource.flatMap(OffsetSource.init(rawValue:)))
                            date.takeOffset(from: place)
                            offset = date.offset?.seconds
                            offsetSource = date.offsetSource?.rawValue
                        }
                        try update.execute(arguments: [
                            place?.city, place?.region, place?.country, place?.countryCode, offset, offsetSource, row["id"] as Int64,
                        ])
                    }
                }
                return rows.count
            }
            guard count > 0 else { return named }
            named += count
        }
    }
}
