/// The rules that turn the nearest GeoNames place into a ``Place``.
public struct MatchPolicy: Sendable, Hashable {
    /// Farther than this from every place (kilometres), a position gets no city or region.
    public var cityRadius: Double = 25
    /// Beyond `cityRadius` and up to this distance (kilometres), a position keeps the nearest
    /// place's country when every place within `countryAgreement` kilometres past the nearest one is
    /// in that country too; farther out it gets no place at all.
    public var countryRadius: Double = 100
    /// See `countryRadius` (kilometres).
    public var countryAgreement: Double = 25
    /// A nearest place with fewer people than this is tiny: a more populous place close by may be
    /// the one the position belongs to (a hamlet inside a city's limits, a suburb's own centre).
    public var tinyPopulation: Int = 1_000
    /// How close (kilometres, from the position) a more populous place must be to win over a tiny
    /// nearest one.
    public var suburbRadius: Double = 3
    /// How many times as many people the more populous place must have.
    public var populationFactor: Int = 10

    public init() {}
}
