import Foundation
import Places
import Testing

@Suite("Nearest place on a synthetic table")
struct PlaceLookupTests {
    let table = PlaceTable(entries: SyntheticPlaces.world)

    @Test func cityCentreGetsEveryName() throws {
        let place = try #require(table.nearest(latitude: 38.7001, longitude: -9.1401))
        #expect(place.city == "Metropolis")
        #expect(place.region == "Capital")
        #expect(place.country == "Portugal")
        #expect(place.countryCode == "PT")
        #expect(place.timeZoneIdentifier == "Europe/Lisbon")
        #expect(place.distanceKilometres < 0.1)
    }

    @Test func tinyHamletNextToACityGivesWayToTheCity() throws {
        // 0.2 km from the 600-people hamlet, 1.2 km from the city centre.
        let place = try #require(table.nearest(latitude: 38.7108, longitude: -9.1400))
        #expect(place.city == "Metropolis")
        #expect(abs(place.distanceKilometres - 1.2) < 0.05)
    }

    @Test func aNearerTownThatIsNotTinyKeepsItsName() throws {
        // 0.5 km from the 80,000-people town, 1.5 km from the city: the town is no hamlet.
        let place = try #require(table.nearest(latitude: 38.6865, longitude: -9.1400))
        #expect(place.city == "Townsville")
    }

    @Test func aTinyPlaceWithNoBigNeighbourWithinAFewKilometresKeepsItsName() throws {
        // 0.5 km from the tiny village; the big place is 6.2 km away, beyond the suburb radius.
        let place = try #require(table.nearest(latitude: 39.5045, longitude: -8.0000))
        #expect(place.city == "Lonely")
    }

    @Test func theMostPopulousOfSeveralBigNeighboursWins() throws {
        // 0.3 km from a place of population 0, with a village of 12 (2 km) and a town of 900 (3 km).
        let place = try #require(table.nearest(latitude: -30.0027, longitude: 140.0))
        #expect(place.city == "Crossing")
        var strict = table
        strict.policy.populationFactor = 1_000
        #expect(strict.nearest(latitude: -30.0027, longitude: 140.0)?.city == "Siding")
    }

    @Test func theSuburbRuleCanBeSwitchedOff() throws {
        var plain = table
        plain.policy.suburbRadius = 0
        #expect(plain.nearest(latitude: 38.7108, longitude: -9.1400)?.city == "Hamlet")
    }

    @Test func southernHemisphere() throws {
        // 0.2 km from the town, 6 km from the city's centre.
        let place = try #require(table.nearest(latitude: -33.89, longitude: 151.275))
        #expect(place.city == "Beachside")
        #expect(place.region == "New South Wales")
        #expect(place.countryCode == "AU")
        #expect(place.timeZoneIdentifier == "Australia/Sydney")
    }

    @Test(arguments: [
        (-16.50, -179.99, "Eastmost"),  // West of the line, 3 km from a place east of it.
        (-16.90, 179.99, "Westmost"),   // East of the line, 12 km from a place west of it.
    ])
    func antimeridianWraps(latitude: Double, longitude: Double, expected: String) throws {
        let place = try #require(table.nearest(latitude: latitude, longitude: longitude))
        #expect(place.city == expected)
        #expect(place.distanceKilometres < 25)
    }

    @Test func nearThePole() throws {
        // 89.95° N on the far side of the pole: 0.05° to the pole and 0.1° beyond it, about 16.7 km.
        let place = try #require(table.nearest(latitude: 89.95, longitude: -170))
        #expect(place.city == "Polar")
        #expect(abs(place.distanceKilometres - 16.7) < 0.5)
    }

    @Test func farAtSeaThereIsNoPlace() {
        #expect(table.nearest(latitude: -30, longitude: -20) == nil)
        #expect(table.nearest(latitude: 0, longitude: 0) == nil)
    }

    @Test func offOneCountrysCoastKeepsTheCountryButNotTheCity() throws {
        // 40 km east of Cape, every place near is Brazilian.
        let place = try #require(table.nearest(latitude: -10.0, longitude: -39.635))
        #expect(place.city == nil)
        #expect(place.region == nil)
        #expect(place.country == "Brazil")
        #expect(place.countryCode == "BR")
        #expect(place.distanceKilometres > 25)
    }

    @Test func farFromABorderBetweenTwoCountriesThereIsNoCountry() {
        // 40 km west of Frontera, 41 km from Frontière: which country is not plausible.
        #expect(table.nearest(latitude: 42.03, longitude: 1.515) == nil)
    }

    @Test func nearABorderTheNearerPlaceWins() throws {
        #expect(try #require(table.nearest(latitude: 42.03, longitude: 2.0)).countryCode == "ES")
        #expect(try #require(table.nearest(latitude: 42.06, longitude: 2.0)).countryCode == "FR")
        #expect(try #require(table.nearest(latitude: 42.06, longitude: 2.0)).city == "Frontière")
    }

    @Test func aPlaceWithoutARegionNameHasNone() throws {
        let place = try #require(table.nearest(latitude: -16.90, longitude: -179.91))
        #expect(place.city == "Westmost")
        #expect(place.region == nil)
        #expect(place.country == "Fiji")
    }

    @Test(arguments: [(Double.nan, 0.0), (0, .infinity), (90.5, 0), (-91, 0), (0, 180.5), (0, -181)])
    func invalidPositionsHaveNoPlace(latitude: Double, longitude: Double) {
        #expect(table.nearest(latitude: latitude, longitude: longitude) == nil)
    }

    @Test func anEmptyTableHasNoPlace() {
        #expect(PlaceTable(entries: []).nearest(latitude: 38.7, longitude: -9.14) == nil)
    }
}
