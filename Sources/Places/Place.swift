/// The named place for a position: the `place` object of the JSON contract, plus the place's IANA
/// time zone.
///
/// Within `MatchPolicy.cityRadius` of a place every name is set; farther out (at sea, in a desert)
/// `city` and `region` are `nil` and only the country is kept, when it is plausible.
public struct Place: Sendable, Hashable {
    /// The GeoNames place name, e.g. "Lisbon"; `nil` far from any place.
    public var city: String?
    /// The admin-1 region (state, province), e.g. "Lisbon" or "New South Wales"; `nil` when
    /// GeoNames has no name for it or far from any place.
    public var region: String?
    /// The country's English name, e.g. "Portugal".
    public var country: String?
    /// ISO 3166-1 alpha-2, e.g. "PT".
    public var countryCode: String?
    /// The IANA time zone of the place the names come from, e.g. "Europe/Lisbon".
    public var timeZoneIdentifier: String?
    /// Great-circle distance in kilometres from the position to the place the names come from.
    public var distanceKilometres: Double

    public init(
        city: String?, region: String?, country: String?, countryCode: String?,
        timeZoneIdentifier: String?, distanceKilometres: Double
    ) {
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.timeZoneIdentifier = timeZoneIdentifier
        self.distanceKilometres = distanceKilometres
    }
}
