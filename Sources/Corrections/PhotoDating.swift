public import PhotoMetadata
public import WallClock

/// When and where a photo was taken, as a correction shows it before and after: the contract's
/// `{"captured", "offset", "latitude", "longitude"}`.
public struct PhotoDating: Sendable, Hashable, Encodable {
    /// The local wall clock.
    public var captured: LocalDateTime
    /// Seconds east of UTC; `nil` when unknown.
    public var offset: UTCOffset?
    public var position: GeoPosition?

    public init(captured: LocalDateTime, offset: UTCOffset? = nil, position: GeoPosition? = nil) {
        self.captured = captured
        self.offset = offset
        self.position = position
    }

    private enum CodingKeys: String, CodingKey {
        case captured, offset, latitude, longitude
    }

    /// `captured` as `YYYY-MM-DDTHH:MM:SS[.fff]`, `offset` as `±HH:MM`; absent values as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(captured.iso8601, forKey: .captured)
        try container.encode(offset?.iso8601, forKey: .offset)
        try container.encode(position?.latitude, forKey: .latitude)
        try container.encode(position?.longitude, forKey: .longitude)
    }
}
