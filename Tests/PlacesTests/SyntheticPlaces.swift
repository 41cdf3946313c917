import Places

/// Small hand-made tables whose answers are known, each built by the test that uses it.
enum SyntheticPlaces {
    static func entry(
        _ name: String, _ latitude: Double, _ longitude: Double, population: Int = 50_000, region: String? = "Region",
        country: String = "PT", countryName: String = "Portugal", zone: String = "Europe/Lisbon"
    ) -> PlaceTable.Entry {
        PlaceTable.Entry(
            name: name, latitude: latitude, longitude: longitude, population: population, region: region,
            countryCode: country, countryName: countryName, timeZone: zone)
    }

    /// A few places on several continents, with the cases the rules are about.
    static let world: [PlaceTable.Entry] = [
        // A city with a tiny hamlet 1 km from its centre and a town of a sixth its size 2 km the other way.
        entry("Metropolis", 38.7000, -9.1400, population: 500_000, region: "Capital"),
        entry("Hamlet", 38.7090, -9.1400, population: 600, region: "Capital"),
        entry("Townsville", 38.6820, -9.1400, population: 80_000, region: "Capital"),
        // A tiny village with no bigger place within a few km.
        entry("Lonely", 39.5000, -8.0000, population: 520, region: "Centre"),
        entry("Farside", 39.5600, -8.0000, population: 200_000, region: "Centre"),
        // Southern hemisphere.
        entry("Harbour City", -33.8688, 151.2093, population: 4_000_000, region: "New South Wales",
              country: "AU", countryName: "Australia", zone: "Australia/Sydney"),
        entry("Beachside", -33.8915, 151.2767, population: 12_000, region: "New South Wales",
              country: "AU", countryName: "Australia", zone: "Australia/Sydney"),
        // A place of population 0 (GeoNames has admin seats and localities so) between two bigger ones.
        entry("Siding", -30.0000, 140.0000, population: 0, region: "South Australia",
              country: "AU", countryName: "Australia", zone: "Australia/Adelaide"),
        entry("Outstation", -30.0180, 140.0000, population: 12, region: "South Australia",
              country: "AU", countryName: "Australia", zone: "Australia/Adelaide"),
        entry("Crossing", -29.9700, 140.0000, population: 900, region: "South Australia",
              country: "AU", countryName: "Australia", zone: "Australia/Adelaide"),
        // Either side of the antimeridian, and a decoy that is near only in naive longitude.
        entry("Eastmost", -16.50, 179.98, population: 3_000, region: "Northern", country: "FJ", countryName: "Fiji", zone: "Pacific/Fiji"),
        entry("Decoy", -16.50, 179.20, population: 3_000, region: "Northern", country: "FJ", countryName: "Fiji", zone: "Pacific/Fiji"),
        entry("Westmost", -16.90, -179.90, population: 900, region: nil, country: "FJ", countryName: "Fiji", zone: "Pacific/Fiji"),
        // A border: two towns 10 km apart in two countries.
        entry("Frontera", 42.0000, 2.0000, population: 5_000, region: "Catalonia", country: "ES", countryName: "Spain", zone: "Europe/Madrid"),
        entry("Frontière", 42.0900, 2.0000, population: 5_000, region: "Occitanie", country: "FR", countryName: "France", zone: "Europe/Paris"),
        // A lone coast of one country, far from the others.
        entry("Cape", -10.0000, -40.0000, population: 30_000, region: "Bahia", country: "BR", countryName: "Brazil", zone: "America/Bahia"),
        entry("Bay", -10.3000, -40.0000, population: 10_000, region: "Bahia", country: "BR", countryName: "Brazil", zone: "America/Bahia"),
        // Near the pole.
        entry("Polar", 89.90, 10.0, population: 600, region: nil, country: "NO", countryName: "Norway", zone: "Arctic/Longyearbyen"),
    ]
}
