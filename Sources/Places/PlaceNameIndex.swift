import Foundation

/// The places table's names in folded order (case and accents ignored), for suggesting places as
/// a person types: `suggestions(for: "lisb")` is Lisbon, Portugal first. Built once from a table
/// (a fold of every name: some tenths of a second for GeoNames' cities), then each query is two
/// binary searches and a sort of the names that start with it.
public struct PlaceNameIndex: Sendable {
    private let table: PlaceTable
    /// Folded names with their slots, in name order.
    private let names: [(folded: [UInt8], slot: Int)]

    public init(table: PlaceTable) {
        self.table = table
        names = table.rows.indices
            .map { (Array(PlaceTable.folded(table.strings[Int(table.rows[$0].name)]).utf8), $0) }
            .sorted { $0.folded.lexicographicallyPrecedes($1.folded) }
    }

    /// Up to `limit` places whose name starts with `prefix` (folded; a comma and what follows it
    /// narrow by region, country or country code as in `PlaceTable.places(named:)`), the most
    /// populous first, one per `Name, Region, Country`.
    public func suggestions(for prefix: String, limit: Int = 10) -> [PlaceTable.NamedPlace] {
        let parts = prefix.split(separator: ",", omittingEmptySubsequences: false).map { PlaceTable.folded(String($0)) }
        guard let first = parts.first, !first.isEmpty, limit > 0 else { return [] }
        let wanted = Array(first.utf8)
        let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        // The first name not before `wanted`, then every name that starts with it.
        var low = 0, high = names.count
        while low < high {
            let middle = (low + high) / 2
            if names[middle].folded.lexicographicallyPrecedes(wanted) { low = middle + 1 } else { high = middle }
        }
        var found: [PlaceTable.NamedPlace] = []
        var index = low
        while index < names.count, names[index].folded.starts(with: wanted) {
            let place = table.namedPlace(atSlot: names[index].slot)
            index += 1
            let context = [place.region, place.country, place.countryCode].compactMap { $0 }.map(PlaceTable.folded)
            guard qualifiers.allSatisfy({ qualifier in context.contains { $0.hasPrefix(qualifier) } }) else { continue }
            found.append(place)
        }
        return Array(PlaceTable.mostPopulousPerLabel(found).prefix(limit))
    }
}
