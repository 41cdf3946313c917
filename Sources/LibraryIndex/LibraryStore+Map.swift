import Foundation
import GRDB

/// Photos of one map cell: how many, where on average, and one to show.
public struct MapCluster: Sendable, Hashable {
    /// The cell, at the zoom asked for.
    public var x: Int
    public var y: Int
    public var count: Int
    /// The mean position of the photos, in degrees.
    public var latitude: Double
    public var longitude: Double
    /// The id of the photo shown for the cluster: the first indexed of those that could be read.
    public var cover: Int64

    public init(x: Int, y: Int, count: Int, latitude: Double, longitude: Double, cover: Int64) {
        self.x = x
        self.y = y
        self.count = count
        self.latitude = latitude
        self.longitude = longitude
        self.cover = cover
    }
}

/// The clusters of a box at a zoom, and how the library's photos divide between placed and not.
public struct MapClusters: Sendable, Hashable {
    public var zoom: Int
    /// One per cell with photos, north to south then west to east.
    public var clusters: [MapCluster]
    /// Photos of the timeline with a position, in the whole library.
    public var located: Int
    /// Photos of the timeline without one (not on the map).
    public var unlocated: Int

    /// The photos in `clusters`.
    public var total: Int { clusters.reduce(0) { $0 + $1.count } }
}

extension LibraryStore {
    /// The zooms whose cells the last completed run stored in `mapCell`: a request at zoom `z`
    /// reads the first of them at or above `z`, at most `4^3` stored cells per answered cell.
    static let mapLevels = [4, 8, 12, 16, 18]

    /// The map's index of positions, as the `v10-map` migration made it: a first index writes its
    /// rows without it (``deferMapIndex()``) and every run's end builds it if it is missing
    /// (`finishRun`). Kept up row by row, in no order, it was about two fifths of the writer's
    /// inserts of a first index of 10,000 photos with positions; built at once, a seventh of that.
    static let mapIndex = """
        CREATE INDEX IF NOT EXISTS photo_on_map ON photo(mapY, mapX, latitude, longitude, mediaType, pairedWith)
        WHERE mapY IS NOT NULL
        """

    /// Drops the map's index while a first index writes its rows; the run's end builds it again.
    func deferMapIndex() throws(IndexError) {
        try write { db in try db.execute(sql: "DROP INDEX IF EXISTS photo_on_map") }
    }

    /// The `v10-map` migration: the stored cell of every position, its index, and the table of
    /// cell counts at ``mapLevels`` (filled by the next completed run).
    static func migrateMap(_ db: Database) throws {
        db.add(function: DatabaseFunction("shoebox_map_x", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { MapGrid.x(longitude: $0) }
        })
        db.add(function: DatabaseFunction("shoebox_map_y", argumentCount: 1, pure: true) { values in
            Double.fromDatabaseValue(values[0]).map { MapGrid.y(latitude: $0) }
        })
        try db.execute(sql: """
            -- The Web-Mercator cell of the position at zoom \(MapGrid.storedZoom) (MapGrid), NULL without one.
            ALTER TABLE photo ADD COLUMN mapX INTEGER;
            ALTER TABLE photo ADD COLUMN mapY INTEGER;
            UPDATE photo SET mapX = shoebox_map_x(longitude), mapY = shoebox_map_y(latitude)
            WHERE latitude IS NOT NULL AND longitude IS NOT NULL;
            -- Covers a box's photos (rows, then columns) with what the map counts and filters on.
            CREATE INDEX photo_on_map ON photo(mapY, mapX, latitude, longitude, mediaType, pairedWith)
            WHERE mapY IS NOT NULL;

            -- The photos of the timeline per cell at a few zooms, as the last completed run left them.
            CREATE TABLE mapCell (
                level INTEGER NOT NULL,         -- the zoom of x and y
                y INTEGER NOT NULL,
                x INTEGER NOT NULL,
                count INTEGER NOT NULL,
                latitudeSum REAL NOT NULL,
                longitudeSum REAL NOT NULL,
                cover INTEGER NOT NULL,         -- photo.id (+ 2^40 when no photo of the cell could be read)
                PRIMARY KEY (level, y, x)
            ) WITHOUT ROWID;
            CREATE TABLE mapCellState (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                runID INTEGER NOT NULL,
                located INTEGER NOT NULL,       -- photos of the timeline with a position
                unlocated INTEGER NOT NULL      -- and without
            );
            """)
        // The counts of the library as the last run left it, so that a large library's map is quick
        // before the next run.
        if let run = try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun WHERE status = 'completed'"),
           try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun") == run {
            try persistMapCells(db, runID: run, rowsChanged: true)
        }
    }

    /// The condition on `photo` that keeps a row on the map: a position, and an item of the timeline
    /// (not a Live Photo's video half, not a stack's member other than its cover), so that a
    /// marker's count is the number of items its timeline shows.
    static let onMap = "mapY IS NOT NULL AND NOT (mediaType = 'video' AND pairedWith IS NOT NULL) AND \(stackFilter)"

    /// The cover of a group of photo rows: the first indexed that could be read, else the first.
    static let coverExpression = "coalesce(min(CASE WHEN error IS NULL THEN id END), min(id))"

    /// Added to a stored cell's cover when none of its photos could be read, so that the smallest
    /// stored cover of several cells is the cover of them all (``coverExpression``): a request
    /// answers a cell from up to 64 stored ones with `min(cover)`. Row ids stay far below it.
    static let unreadableCover: Int64 = 1 << 40

    /// Called in `finishRun`'s transaction of a completed run: stores the photos per cell at each
    /// of ``mapLevels`` (`computed`, made meanwhile on a reader connection, or counted now), or only
    /// restamps the counts when the run wrote no row.
    ///
    /// Every level is stored, even one that holds nearly a cell per photo over the whole library:
    /// photos crowd in cities, where a coarser level still answers a request from far fewer rows
    /// (leaving out zoom 16 of a million generated photos, 452,292 cells at 18, made requests at
    /// zooms 13 and 14 several times slower).
    static func persistMapCells(
        _ db: Database, runID: Int64, rowsChanged: Bool, computed: (() throws -> MapCellCounts?)? = nil
    ) throws {
        guard try db.tableExists("mapCellState") else { return }
        if !rowsChanged, let stamped = try Int64.fetchOne(db, sql: "SELECT runID FROM mapCellState"),
           try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun WHERE id < ?", arguments: [runID]) == stamped {
            try db.execute(sql: "UPDATE mapCellState SET runID = ?", arguments: [runID])
            return
        }
        let counts = try computed?() ?? MapCellCounts(db)
        try db.execute(sql: "DELETE FROM mapCell")
        for (level, cells) in counts.levels {
            try db.insertRows("INSERT INTO mapCell (level, y, x, count, latitudeSum, longitudeSum, cover)", columns: 7, cells) { row, cell in
                row.integer(level)
                row.integer(cell.key.y)
                row.integer(cell.key.x)
                row.integer(cell.sum.count)
                row.double(cell.sum.latitudeSum)
                row.double(cell.sum.longitudeSum)
                row.integer(cell.sum.readableCover != .max ? cell.sum.readableCover : cell.sum.anyCover + unreadableCover)
            }
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO mapCellState (id, runID, located, unlocated) VALUES (1, ?, ?, ?)",
            arguments: [runID, counts.located, max(0, counts.all - counts.located)])
    }

    /// The map's cells counted from the rows as last committed, on a reader connection: an index
    /// run counts them while its writer stores the places' days, then hands them to `finishRun`.
    /// `nil` for a database without the map's tables.
    func countMapCells() throws(IndexError) -> MapCellCounts? {
        try read { db in try db.tableExists("mapCellState") ? MapCellCounts(db) : nil }
    }

    /// The photos of the timeline per map cell at each of ``mapLevels``, finest first, each level in
    /// the stored key's order; and how many photos of the timeline have a position and how many in all.
    ///
    /// - Complexity: one pass over the rows with a position, then a sort per level, summing the
    ///   entries of a cell (a cover is the first photo that could be read, at every level); each
    ///   coarser level from the cells of the one below.
    struct MapCellCounts: Sendable {
        var levels: [(level: Int, cells: [(key: CellKey, sum: CellSum)])] = []
        var located = 0
        var all = 0

        init(_ db: Database) throws {
            let levels = mapLevels.sorted(by: >)
            let shift = MapGrid.storedZoom - levels[0]
            let photos = try db.makeStatement(sql: "SELECT mapY, mapX, latitude, longitude, id, error IS NULL FROM photo WHERE \(onMap)")
            // One entry per photo, summed by sorting rather than hashing: the cells of each level
            // come out in the stored key's order, and a dictionary's hashing and growth were most
            // of the count.
            var cells: [(key: CellKey, sum: CellSum)] = []
            try forEachRow(of: photos, in: db) { row in
                let id = row.int64(4)
                cells.append((CellKey(y: row.int64(0) >> shift, x: row.int64(1) >> shift), CellSum(
                    count: 1, latitudeSum: row.double(2) ?? 0, longitudeSum: row.double(3) ?? 0,
                    readableCover: row.int64(5) != 0 ? id : .max, anyCover: id)))
            }
            let located = cells.count
            var finer = levels[0]
            for level in levels {
                if level != finer {
                    let step = Int64(finer - level)
                    for index in cells.indices { cells[index].key = CellKey(y: cells[index].key.y >> step, x: cells[index].key.x >> step) }
                    finer = level
                }
                cells = Self.summed(cells)
                self.levels.append((level, cells))
            }
            self.located = located
            all = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE \(timelineFilter) AND \(stackFilter)") ?? 0
        }

        /// `cells` sorted by key, those with the same key added up into one.
        private static func summed(_ cells: [(key: CellKey, sum: CellSum)]) -> [(key: CellKey, sum: CellSum)] {
            let sorted = cells.sorted { $0.key < $1.key }
            var result: [(key: CellKey, sum: CellSum)] = []
            result.reserveCapacity(sorted.count)
            for cell in sorted {
                if let last = result.indices.last, result[last].key == cell.key {
                    result[last].sum.add(cell.sum)
                } else {
                    result.append(cell)
                }
            }
            return result
        }
    }

    /// A map cell at one level, rows then columns (the stored key's order).
    struct CellKey: Hashable, Comparable, Sendable {
        var y: Int64
        var x: Int64

        static func < (a: CellKey, b: CellKey) -> Bool { (a.y, a.x) < (b.y, b.x) }
    }

    /// What a stored cell holds, summed over its photos.
    struct CellSum: Sendable {
        var count = 0
        var latitudeSum = 0.0
        var longitudeSum = 0.0
        /// The smallest id of the photos that could be read, and of all of them (`Int64.max` for none).
        var readableCover = Int64.max
        var anyCover = Int64.max

        mutating func add(_ other: CellSum) {
            count += other.count
            latitudeSum += other.latitudeSum
            longitudeSum += other.longitudeSum
            readableCover = min(readableCover, other.readableCover)
            anyCover = min(anyCover, other.anyCover)
        }
    }

    /// Refuses a database written before the map cells (opened read-only, it is not migrated).
    static func requireMapCells(_ db: Database, path: String) throws {
        guard try db.tableExists("mapCellState") else {
            throw IndexError(
                .databaseIncomplete,
                "\(path) was written before the map: run shoebox index on its folder once to place its photos on the map.",
                subject: path)
        }
    }

    /// The photos in every cell of `zoom` that `box` touches, one cluster per cell with photos.
    ///
    /// - Complexity: while the last completed run's cell counts stand (zooms up to the finest of
    ///   ``mapLevels``), one index range over those counts: at most 64 stored cells per answered
    ///   cell, whatever the number of photos. Otherwise one range of the `photo_on_map` index, a
    ///   row per photo in the touched cells.
    public func mapClusters(in box: MapBox, zoom: Int) throws(IndexError) -> MapClusters {
        let zoom = min(max(zoom, MapGrid.zooms.lowerBound), MapGrid.zooms.upperBound)
        return try read { db in
            try Self.requireMapCells(db, path: path)
            let state = try Row.fetchOne(db, sql: "SELECT runID, located, unlocated FROM mapCellState")
            let lastRun = try Int64.fetchOne(db, sql: "SELECT max(id) FROM indexRun")
            let fresh = state.map { ($0["runID"] as Int64?) == lastRun } ?? false
            var located: Int, unlocated: Int
            if fresh, let state {
                (located, unlocated) = (state["located"], state["unlocated"])
            } else {
                located = try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE \(Self.onMap)") ?? 0
                unlocated = max(0, (try Int.fetchOne(db, sql: "SELECT count(*) FROM photo WHERE \(Self.timelineFilter)") ?? 0) - located)
            }
            let level = fresh ? Self.mapLevels.sorted().first { $0 >= zoom } : nil
            let clusters = try Self.clusters(db, box: box, zoom: zoom, level: level)
            return MapClusters(zoom: zoom, clusters: clusters, located: located, unlocated: unlocated)
        }
    }

    /// The SQL of ``mapClusters(in:zoom:)``: from `mapCell` at `level`, or from the photos when nil.
    static func clustersQuery(box: MapBox, zoom: Int, level: Int?) -> (sql: String, arguments: StatementArguments) {
        let shift = (level ?? MapGrid.storedZoom) - zoom
        let (x, y) = level == nil ? ("mapX", "mapY") : ("x", "y")
        let rows = box.rows(zoom: zoom)
        var arguments: StatementArguments = []
        if let level { arguments += [level] }
        arguments += [rows.lowerBound << shift, rows.upperBound << shift]
        var columns: [String] = []
        for range in box.columns(zoom: zoom) {
            columns.append("(\(x) >= ? AND \(x) < ?)")
            arguments += [range.lowerBound << shift, range.upperBound << shift]
        }
        let selection = level == nil
            ? "count(*), sum(latitude), sum(longitude), \(coverExpression) FROM photo WHERE \(onMap) AND"
            : "sum(count), sum(latitudeSum), sum(longitudeSum), min(cover) FROM mapCell WHERE level = ? AND"
        let sql = """
            SELECT \(x) >> \(shift), \(y) >> \(shift), \(selection)
            \(y) >= ? AND \(y) < ? AND (\(columns.joined(separator: " OR ")))
            GROUP BY 2, 1 ORDER BY 2, 1
            """
        return (sql, arguments)
    }

    static func clusters(_ db: Database, box: MapBox, zoom: Int, level: Int?) throws -> [MapCluster] {
        let query = clustersQuery(box: box, zoom: zoom, level: level)
        let statement = try db.makeStatement(sql: query.sql)
        try statement.setArguments(query.arguments)
        var clusters: [MapCluster] = []
        try forEachRow(of: statement, in: db) { row in
            let count = Int(row.int64(2))
            guard count > 0 else { return }
            clusters.append(MapCluster(
                x: Int(row.int64(0)), y: Int(row.int64(1)), count: count,
                latitude: (row.double(3) ?? 0) / Double(count), longitude: (row.double(4) ?? 0) / Double(count),
                cover: row.int64(5) >= unreadableCover ? row.int64(5) - unreadableCover : row.int64(5)))
        }
        return clusters
    }

    /// SQLite's plan for the clusters of `box` at `zoom` (from the stored counts when `stored`),
    /// one line per step: what the tests check uses an index.
    public func mapQueryPlan(box: MapBox, zoom: Int, stored: Bool) throws(IndexError) -> [String] {
        try read { db in
            let query = Self.clustersQuery(box: box, zoom: zoom, level: stored ? Self.mapLevels.sorted().first { $0 >= zoom } : nil)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query.sql, arguments: query.arguments).map { $0["detail"] as String }
        }
    }

    /// The smallest box holding the positions of the photos matching `query`, and how many they
    /// are; nil when none of them has a position. (A place across the antimeridian gets a box
    /// around the world's width; the map then shows all of it.)
    ///
    /// - Complexity: one FTS5 lookup per term (place fields alone scan the rows).
    public func mapBounds(matching query: SearchQuery) throws(IndexError) -> (box: MapBox, count: Int)? {
        guard !query.isEmpty else { return nil }
        return try read { db in
            try Self.requireSearchIndex(db, path: path)
            try Self.requireMapCells(db, path: path)
            let condition = Self.searchCondition(query)
            let sql = "SELECT min(longitude), min(latitude), max(longitude), max(latitude), count(*) FROM photo WHERE \(Self.onMap) AND \(condition.sql)"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: condition.arguments),
                  let west = row[0] as Double?, let south = row[1] as Double?, let east = row[2] as Double?, let north = row[3] as Double?
            else { return nil }
            return (MapBox(west: west, south: south, east: east, north: north), row[4])
        }
    }

    /// The ids of the photos of the timeline inside `box` (to the stored cell, about 38 m: a
    /// cluster's cell box holds exactly its photos), ascending: what a timeline scoped to the box shows.
    ///
    /// - Complexity: one range of the `photo_on_map` index.
    public func photoIDs(in box: MapBox) throws(IndexError) -> [Int64] {
        try read { db in
            try Self.requireMapCells(db, path: path)
            let rows = box.storedRows
            let columns = box.storedColumns
            guard !rows.isEmpty, !columns.isEmpty else { return [] }
            var arguments: StatementArguments = [rows.lowerBound, rows.upperBound]
            for range in columns { arguments += [range.lowerBound, range.upperBound] }
            let statement = try db.makeStatement(sql: """
                SELECT id FROM photo WHERE \(Self.onMap) AND mapY >= ? AND mapY < ?
                AND (\(columns.map { _ in "(mapX >= ? AND mapX < ?)" }.joined(separator: " OR "))) ORDER BY id
                """)
            try statement.setArguments(arguments)
            var ids: [Int64] = []
            try Self.forEachRow(of: statement, in: db) { ids.append($0.int64(0)) }
            return ids
        }
    }
}
