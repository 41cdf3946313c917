/// Where a photo was taken: a latitude and a longitude in decimal degrees (WGS 84).
///
/// Only plausible positions exist: both numbers finite, latitude within ±90°, longitude within
/// ±180°, and not exactly 0/0, which cameras and services write when they have no fix.
public struct GeoPosition: Sendable, Hashable, Codable {
    /// Degrees north (negative: south), −90…90.
    public let latitude: Double
    /// Degrees east (negative: west), −180…180.
    public let longitude: Double

    /// A position, or `nil` for NaN, infinity, out-of-range values or 0/0.
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              !(latitude == 0 && longitude == 0)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}
