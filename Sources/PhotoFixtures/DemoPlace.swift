/// A place the demo library's photos were taken at, as GeoNames has it in the places table
/// (`scripts/places-data`): the name, region, country and zone Shoebox names for them.
public struct DemoPlace: Sendable, Hashable {
    public var city: String
    public var region: String
    public var countryCode: String
    public var country: String
    /// IANA time zone.
    public var timeZone: String
    /// GeoNames' position of the place, in degrees.
    public var latitude: Double
    public var longitude: Double
    public var population: Int
}
