import GRDB

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
    /// - Complexity: one scan of the rows with a place, grouped.
    public func placeCountsByDay(matching query: SearchQuery? = nil) throws(IndexError) -> [DayPlaceCount] {
        if let query, query.isEmpty { return [] }
        return try read { db in
            let names = Set(try db.columns(in: "photo").map(\.name))
            guard names.contains("placeCountry") else { return [] }
            var conditions = ["placeCountry IS NOT NULL", Self.timelineFilter]
            var arguments = StatementArguments()
            if let query {
                try Self.requireSearchIndex(db, path: path)
                let search = Self.searchCondition(query)
                conditions.append(search.sql)
                arguments += search.arguments
            }
            let rows = try Row.fetchCursor(db, sql: """
                SELECT substr(captured, 1, 10), placeCity, placeRegion, placeCountry, placeCountryCode, count(*)
                FROM photo WHERE \(conditions.joined(separator: " AND "))
                GROUP BY 1, 2, 3, 4, 5 ORDER BY 1
                """, arguments: arguments)
            var counts: [DayPlaceCount] = []
            while let row = try rows.next() {
                counts.append(DayPlaceCount(
                    day: row[0], place: PhotoPlace(city: row[1], region: row[2], country: row[3], countryCode: row[4]), count: row[5]))
            }
            return counts
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
