import ArgumentParser
import LibraryIndex
import PhotoLibrary
import Places

/// `shoebox places`: where the photos were taken, country by country.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "List where the photos were taken: countries, regions and cities, with photo counts.",
        discussion: """
            Places come from the photos' GPS positions and the places table (scripts/places-data), \
            named when shoebox index reads them. --json prints what GET /api/places answers: each \
            place with its count, a cover photo id and the search query (for shoebox search or \
            sections --query) that finds exactly its photos.
            """
    )

    @Flag(help: "Print JSON: countries with their regions and cities, each with photos, cover and query; and unplaced.")
    var json = false

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let library = try library.open()
        let counts = try library.placeCounts()
        let places = PlacesJSON(counts)
        if json { return try writeJSON(places) }
        guard !places.countries.isEmpty else {
            return try Output.line(Self.noPlaces(counts, tableInstalled: PlaceTable.installedPath().found != nil))
        }
        try Output.line(Self.tree(places))
    }

    /// One sentence saying why there is no place, and what to do.
    static func noPlaces(_ counts: PlaceCounts, tableInstalled: Bool) -> String {
        let located = counts.unplacedWithPosition
        if located == 0 {
            return "No photo has a GPS position, so there are no places to list: photos taken with location on get theirs when shoebox index reads them."
        }
        let have = located == 1 ? "1 photo has a position" : "\(located.counted("photo")) have a position"
        return tableInstalled
            ? "\(have) but no place yet: run shoebox index on the library's folder again to name the places."
            : "\(have) but no places table is installed: run scripts/places-data, then shoebox index on the library's folder again."
    }

    /// The countries, regions and cities indented under each other, numbers aligned on the right.
    static func tree(_ places: PlacesJSON) -> String {
        var rows: [(label: String, photos: Int)] = []
        for country in places.countries {
            let code = country.countryCode.map { " (\($0))" } ?? ""
            rows.append(((country.name + code).terminalSafe, country.photos))
            for region in country.regions {
                rows.append(("  " + region.name.terminalSafe, region.photos))
                for city in region.cities {
                    rows.append(("    " + city.name.terminalSafe, city.photos))
                }
            }
        }
        if places.unplaced > 0 { rows.append(("No place", places.unplaced)) }
        let labelWidth = rows.map(\.label.count).max() ?? 0
        let numberWidth = rows.map(\.photos.grouped.count).max() ?? 0
        return rows.map { row in
            let number = row.photos.grouped
            return row.label + String(repeating: " ", count: labelWidth - row.label.count + numberWidth - number.count + 2)
                + number + (row.photos == 1 ? " photo" : " photos")
        }.joined(separator: "\n")
    }
}
