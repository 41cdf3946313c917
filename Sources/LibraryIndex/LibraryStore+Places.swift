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
