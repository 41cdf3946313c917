@testable import Places
import Testing
import WallClock

/// The table `scripts/places-data` installed on this machine, when there is one.
enum RealTable {
    static let table: PlaceTable? = try? PlaceTable.loadInstalled()
    static let isPresent = table != nil
}

@Suite(
    "The real GeoNames table",
    .enabled(if: RealTable.isPresent, "no places table installed (run scripts/places-data, or set SHOEBOX_PLACES): skipped")
)
struct RealTableTests {
    let table = RealTable.table!

    @Test func theTableIsWholeAndCreditsGeoNames() {
        #expect(table.count > 200_000)
        #expect(table.credit.contains("GeoNames"))
        #expect(table.credit.contains("CC BY 4.0"))
    }

    /// The set-up's own k-d tree (written in slot order with its axes, so no process builds it).
    @Test func theStoredIndexIsAValidTree() {
        #expect(table.tree._checkInvariants())
    }

    @Test(arguments: [
        // Martim Moniz: the nearest centre is the quarter of Intendente (5,392 people, 0.3 km); Lisbon's is 1 km away.
        (38.7223, -9.1393, "Lisbon", "Lisbon", "Portugal", "PT", "Europe/Lisbon"),
        // Praça da Sé: the nearest centre is the district of Sé (0.4 km).
        (-23.5505, -46.6333, "São Paulo", "São Paulo", "Brazil", "BR", "America/Sao_Paulo"),
        (-33.8688, 151.2093, "Sydney", "New South Wales", "Australia", "AU", "Australia/Sydney"),
        (37.7749, -122.4194, "San Francisco", "California", "United States", "US", "America/Los_Angeles"),
    ])
    func cities(
        latitude: Double, longitude: Double, city: String, region: String, country: String, code: String, zone: String
    ) throws {
        let place = try #require(table.nearest(latitude: latitude, longitude: longitude))
        #expect(place.city == city)
        #expect(place.region == region)
        #expect(place.country == country)
        #expect(place.countryCode == code)
        #expect(place.timeZoneIdentifier == zone)
        #expect(place.distanceKilometres < 5)
    }

    @Test func lisbonsOffsetComesFromItsZone() throws {
        let place = try #require(table.nearest(latitude: 38.7223, longitude: -9.1393))
        #expect(place.utcOffset(at: LocalDateTime(year: 2023, month: 8, day: 1, hour: 12)) == 3_600)
        #expect(place.utcOffset(at: LocalDateTime(year: 2023, month: 12, day: 1, hour: 12)) == 0)
    }

    @Test(arguments: [
        (0.0, -30.0),        // The middle of the Atlantic.
        (-48.876, -123.393), // Point Nemo, the farthest from any land.
        (38.5, -12.0),       // 250 km off Portugal.
    ])
    func atSeaThereIsNoPlace(latitude: Double, longitude: Double) {
        #expect(table.nearest(latitude: latitude, longitude: longitude) == nil)
    }
}
