import GRDB

/// The place of every photo of a library, by row id, held in memory: what a search result's
/// sections are named from without a query per result.
///
/// About 4 bytes per row id plus one entry per distinct place.
public struct PlacesByPhoto: Sendable {
    /// The distinct places.
    public let places: [PhotoPlace]
    /// Per row id, the index into `places`, or -1 for a photo without a place.
    private let indices: [Int32]

    init(places: [PhotoPlace], indices: [Int32]) {
        self.places = places
        self.indices = indices
    }

    /// The index into `places` of photo `id`'s place, or `nil` when it has none.
    public func placeIndex(ofPhoto id: Int64) -> Int? {
        guard id >= 0, id < indices.count else { return nil }
        let index = indices[Int(id)]
        return index < 0 ? nil : Int(index)
    }
}

extension LibraryStore {
    /// The place of every photo that has one (see `PlacesByPhoto`).
    ///
    /// - Complexity: one scan of the rows with a place.
    public func placesByPhoto() throws(IndexError) -> PlacesByPhoto {
        try read { db in
            try Self.requireSearchIndex(db, path: path)
            let largest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM photo") ?? 0
            // Row ids come from SQLite's counter: dense in a library, but checked before they size an array.
            guard largest < 1 << 31 else { throw DatabaseError(message: "photo ids beyond 2^31") }
            var indices = [Int32](repeating: -1, count: Int(largest) + 1)
            var places: [PhotoPlace] = []
            var known: [PhotoPlace: Int32] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, placeCity, placeRegion, placeCountry, placeCountryCode FROM photo
                WHERE placeCountry IS NOT NULL OR placeCountryCode IS NOT NULL
                """)
            while let row = try rows.next() {
                let place = PhotoPlace(city: row[1], region: row[2], country: row[3], countryCode: row[4])
                let index: Int32
                if let found = known[place] {
                    index = found
                } else {
                    index = Int32(places.count)
                    known[place] = index
                    places.append(place)
                }
                let id: Int64 = row[0]
                if id >= 0 && id <= largest { indices[Int(id)] = index }
            }
            return PlacesByPhoto(places: places, indices: indices)
        }
    }
}
