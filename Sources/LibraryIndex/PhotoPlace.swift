import PhotoMetadata
public import Places

/// The names of where a photo was taken, as stored beside it: the `place` object of the JSON
/// contract.
public struct PhotoPlace: Sendable, Hashable, Encodable {
    public var city: String?
    public var region: String?
    public var country: String?
    public var countryCode: String?

    public init(city: String?, region: String?, country: String?, countryCode: String?) {
        self.city = city
        self.region = region
        self.country = country
        self.countryCode = countryCode
    }

    /// The names of a looked-up place (its zone and distance are not stored).
    public init(_ place: Place) {
        self.init(city: place.city, region: place.region, country: place.country, countryCode: place.countryCode)
    }

    /// The stored names, or `nil` when none is known, so a row without names reads back as no place.
    static func stored(city: String?, region: String?, country: String?, countryCode: String?) -> PhotoPlace? {
        guard city != nil || region != nil || country != nil || countryCode != nil else { return nil }
        return PhotoPlace(city: city, region: region, country: country, countryCode: countryCode)
    }

    /// Explicit nulls, as every contract object writes them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(city, forKey: .city)
        try container.encode(region, forKey: .region)
        try container.encode(country, forKey: .country)
        try container.encode(countryCode, forKey: .countryCode)
    }

    enum CodingKeys: String, CodingKey {
        case city, region, country, countryCode
    }
}

extension CaptureDate {
    /// Gives a date without an offset the offset of `place`'s time zone at that wall-clock time
    /// (daylight saving included), with source `place`. An offset from the file or the GPS time
    /// stamp wins; a date taken from the file's modification time is the indexing machine's clock,
    /// not the place's, and keeps its own.
    mutating func takeOffset(from place: Place?) {
        guard offset == nil, source != .fileModified, let place, let seconds = place.utcOffset(at: local) else { return }
        offset = UTCOffset(seconds: seconds)
        offsetSource = .place
    }
}
