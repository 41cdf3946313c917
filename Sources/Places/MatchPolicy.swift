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
    /// The suburb rule: the nearest place is tiny next to a place within `suburbRadius` kilometres
    /// of the position that has at least `populationFactor` times its people (GeoNames has city
    /// quarters and hamlets as places of their own), and gives way to the most populous such place.
    /// 0 turns the rule off.
    public var suburbRadius: Double = 5
    /// See `suburbRadius`.
    public var populationFactor: Int = 10

    public init() {}
}
