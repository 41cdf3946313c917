import Foundation

extension PlaceTable {
    /// A place found by its name, with what tells it apart from others of that name.
    public struct NamedPlace: Sendable, Hashable {
        public var name: String
        public var region: String?
        public var country: String
        public var countryCode: String
        public var latitude: Double
        public var longitude: Double
        public var population: Int
        public var timeZone: String

        /// `Name, Region, Country` (the region left out when there is none).
        public var label: String { ([name] + (region.map { [$0] } ?? []) + [country]).joined(separator: ", ") }
    }

    /// The places called `query`: a name (`Lisbon`), optionally followed by commas and the
    /// region, country or country code it lies in (`Paris, France`, `Paris, Texas`, `Paris, US`).
    /// Case and accents are ignored; places that share name, region and country are one (the most
    /// populous); the most populous first.
    ///
    /// - Complexity: O(n) over the table's places.
    public func places(named query: String) -> [NamedPlace] {
        let parts = query.split(separator: ",").map { Self.folded(String($0)) }.filter { !$0.isEmpty }
        guard let wanted = parts.first else { return [] }
        let qualifiers = parts.dropFirst()
        var found: [NamedPlace] = []
        for slot in rows.indices {
            let row = rows[slot]
            let name = strings[Int(row.name)]
            // Names are compared folded only when they could match: same length in bytes or close to it.
            guard abs(name.utf8.count - wanted.utf8.count) <= 4, Self.folded(name) == wanted else { continue }
            let place = namedPlace(atSlot: slot)
            let context = [place.region, place.country, place.countryCode].compactMap { $0 }.map(Self.folded)
            guard qualifiers.allSatisfy({ context.contains($0) }) else { continue }
            found.append(place)
        }
        return Self.mostPopulousPerLabel(found)
    }

    /// `places` with one per `Name, Region, Country` (the most populous), the most populous first.
    static func mostPopulousPerLabel(_ places: [NamedPlace]) -> [NamedPlace] {
        var kept: [String: NamedPlace] = [:]
        for place in places where kept[place.label].map({ $0.population < place.population }) ?? true {
            kept[place.label] = place
        }
        return kept.values.sorted { ($0.population, $1.label) > ($1.population, $0.label) }
    }

    /// The place in `slot` of the table, with its region, country and position.
    func namedPlace(atSlot slot: Int) -> NamedPlace {
        let row = rows[slot]
        let country = countries[Int(row.country)]
        let (latitude, longitude) = coordinates(ofSlot: slot)
        return NamedPlace(
            name: strings[Int(row.name)], region: row.region != Row.none ? strings[Int(row.region)] : nil,
            country: strings[Int(country.name)], countryCode: strings[Int(country.code)], latitude: latitude,
            longitude: longitude, population: Int(row.population), timeZone: strings[Int(row.timeZone)])
    }

    /// `text` trimmed, without case or accents: how names are compared.
    static func folded(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
