public import LibraryIndex

/// Where the photos were taken, as `GET /api/places` and `shoebox places --json` answer: countries,
/// their regions, and the regions' cities, each with its photo count, a cover photo's id and the
/// search (`query`) whose result is exactly that place's photos.
///
/// Each list is ordered by photo count, most first, then by name. A level missing in the data is
/// skipped rather than shown as a blank entry:
/// - a place without a region name (GeoNames has none for some admin-1 areas) lists its city at
///   the region level, as an entry with no cities (its query says `region:""`);
/// - photos with a country but no city (far from any place, at sea) count in their country (and
///   region) but in no entry below it;
/// - a country without a code is listed by its name, one without a name by its code; photos with
///   neither count as `unplaced`, like photos without a position.
public struct PlacesJSON: Encodable, Sendable {
    /// A city, or a place without a region standing at the region level.
    public struct City: Encodable, Sendable {
        public var name: String
        public var photos: Int
        public var cover: Int64
        public var query: String
    }

    public struct Region: Encodable, Sendable {
        public var name: String
        public var photos: Int
        public var cover: Int64
        public var query: String
        public var cities: [City]
    }

    public struct Country: Encodable, Sendable {
        public var name: String
        public var countryCode: String?
        public var photos: Int
        public var cover: Int64
        public var query: String
        public var regions: [Region]

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(countryCode, forKey: .countryCode)
            try c.encode(photos, forKey: .photos)
            try c.encode(cover, forKey: .cover)
            try c.encode(query, forKey: .query)
            try c.encode(regions, forKey: .regions)
        }

        enum CodingKeys: String, CodingKey {
            case name, countryCode, photos, cover, query, regions
        }
    }

    public var countries: [Country]
    /// Photos without a place: no position, or no place known for it.
    public var unplaced: Int

    /// The tree of `counts`.
    ///
    /// - Complexity: O(p log p) for p counted places.
    public init(_ counts: PlaceCounts) {
        var countries: [String: Group] = [:]
        for count in counts.places {
            guard let key = count.place.countryCode ?? count.place.country else { continue }
            let country = countries[key] ?? Group(name: nil, query: [.init(.country, key)])
            countries[key] = country
            country.countryCode = count.place.countryCode
            country.add(count, name: count.place.country ?? key)
            if let region = count.place.region {
                let below = country.child("r" + region, name: region, fields: [.init(.region, region)])
                below.add(count)
                if let city = count.place.city {
                    below.child(city, name: city, fields: [.init(.city, city)]).add(count)
                }
            } else if let city = count.place.city {
                // No region name: the city stands at the region level.
                country.child("c" + city, name: city, fields: [.init(.region, nil), .init(.city, city)]).add(count)
            }
        }
        self.countries = Group.sorted(countries.values).map { country in
            Country(
                name: country.name, countryCode: country.countryCode, photos: country.photos, cover: country.cover,
                query: country.queryText,
                regions: Group.sorted(country.children.values).map { region in
                    Region(
                        name: region.name, photos: region.photos, cover: region.cover, query: region.queryText,
                        cities: Group.sorted(region.children.values).map {
                            City(name: $0.name, photos: $0.photos, cover: $0.cover, query: $0.queryText)
                        })
                })
        }
        self.unplaced = counts.unplaced
    }

    /// One place of the tree while it is counted.
    private final class Group {
        let query: [SearchQuery.PlaceField]
        var photos = 0
        var cover: Int64 = 0
        var coverRank = ""
        /// The name given at creation, else the name most photos were stored with (a country's
        /// name could differ between rows written with different tables).
        private let fixedName: String?
        private var names: [String: Int] = [:]
        var countryCode: String?
        var children: [String: Group] = [:]

        init(name: String?, query: [SearchQuery.PlaceField]) {
            fixedName = name
            self.query = query
        }

        var name: String {
            fixedName ?? names.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? ""
        }

        var queryText: String { query.map(\.text).joined(separator: " ") }

        func add(_ count: PlaceCount, name: String? = nil) {
            photos += count.count
            if let name { names[name, default: 0] += count.count }
            if count.coverRank > coverRank || (count.coverRank == coverRank && count.cover > cover) {
                cover = count.cover
                coverRank = count.coverRank
            }
        }

        /// The child under `key`, made the first time with this group's query and `fields`.
        func child(_ key: String, name: String, fields: [SearchQuery.PlaceField]) -> Group {
            if let existing = children[key] { return existing }
            let made = Group(name: name, query: query + fields)
            children[key] = made
            return made
        }

        /// Most photos first, then by name, then by query (for places of the same name).
        static func sorted(_ groups: some Sequence<Group>) -> [Group] {
            groups.map { ($0, $0.name, $0.queryText) }
                .sorted { a, b in
                    if a.0.photos != b.0.photos { return a.0.photos > b.0.photos }
                    return a.1 != b.1 ? a.1 < b.1 : a.2 < b.2
                }
                .map(\.0)
        }
    }
}
