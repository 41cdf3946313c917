import Places
import Testing

@Suite("Place names suggested as a person types")
struct PlaceNameIndexTests {
    static let table = PlaceTable(entries: [
        SyntheticPlaces.entry("Lisbon", 38.72, -9.14, population: 500_000, region: "Lisbon"),
        SyntheticPlaces.entry("Lisburn", 54.51, -6.04, population: 45_000, region: "Northern Ireland", country: "GB", countryName: "United Kingdom", zone: "Europe/London"),
        SyntheticPlaces.entry("Lisbon", 44.03, -70.10, population: 9_000, region: "Maine", country: "US", countryName: "United States", zone: "America/New_York"),
        SyntheticPlaces.entry("Lisbon", 38.73, -9.13, population: 1_000, region: "Lisbon"),  // the same label, smaller: one suggestion
        SyntheticPlaces.entry("Évora", 38.57, -7.91, population: 56_000, region: "Alentejo"),
        SyntheticPlaces.entry("Porto", 41.15, -8.61, population: 230_000, region: "Norte"),
    ])

    @Test("A prefix finds the names that start with it, the most populous first, one per label")
    func prefix() {
        let index = PlaceNameIndex(table: Self.table)
        #expect(index.suggestions(for: "lisb").map(\.label) == [
            "Lisbon, Lisbon, Portugal", "Lisburn, Northern Ireland, United Kingdom", "Lisbon, Maine, United States",
        ])
        #expect(index.suggestions(for: "Lisb", limit: 1).map(\.label) == ["Lisbon, Lisbon, Portugal"])
        #expect(index.suggestions(for: "Lisbon").count == 2)
    }

    @Test("Case and accents are ignored; a comma narrows by region, country or country code")
    func foldedAndNarrowed() {
        let index = PlaceNameIndex(table: Self.table)
        #expect(index.suggestions(for: "EVO").map(\.name) == ["Évora"])
        #expect(index.suggestions(for: "lisbon, united").map(\.label) == ["Lisbon, Maine, United States"])
        #expect(index.suggestions(for: "lis, GB").map(\.name) == ["Lisburn"])
        #expect(index.suggestions(for: "Lisbon, Mai").map(\.region) == ["Maine"])
    }

    @Test("Nothing for an empty text, an unknown start or a limit of 0")
    func nothing() {
        let index = PlaceNameIndex(table: Self.table)
        #expect(index.suggestions(for: "").isEmpty)
        #expect(index.suggestions(for: " , Portugal").isEmpty)
        #expect(index.suggestions(for: "zz").isEmpty)
        #expect(index.suggestions(for: "Porto", limit: 0).isEmpty)
        #expect(PlaceNameIndex(table: PlaceTable(entries: [])).suggestions(for: "Lis").isEmpty)
    }
}
