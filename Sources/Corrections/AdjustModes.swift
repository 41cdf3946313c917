public import PhotoMetadata
public import WallClock

/// A checked correction: what to do to each selected photo's clock, zone and position.
public struct AdjustModes: Sendable, Hashable {
    /// The years a written date may have: those an XMP date is read back in (`ExifDateParser`).
    public static let years = 1800...2200

    public var shift: ClockShift?
    public var setDate: LocalDateTime?
    public var timeZone: TimeZoneSpec?
    public var keepInstant = false
    /// A place name to resolve into `position` (by the caller, with the places table).
    public var place: String?
    public var position: GeoPosition?

    public init() {}

    /// Whether the dates are written (a shift, a set date or a zone).
    public var changesDate: Bool { shift != nil || setDate != nil || timeZone != nil }

    /// Whether the positions are written.
    public var changesPosition: Bool { position != nil }

    /// `LAT,LON` in degrees (spaces allowed), within ±90 and ±180, not NaN, not 0,0.
    ///
    /// - Throws: `AdjustError` (`invalidValue`, field `position`).
    public static func parsePosition(_ text: String) throws(AdjustError) -> GeoPosition {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              latitude.isFinite, longitude.isFinite
        else {
            throw AdjustError(.invalidValue, field: "position", subject: text, "\"\(text)\" is not a position: write LAT,LON in degrees, e.g. 38.7223,-9.1393.")
        }
        guard abs(latitude) <= 90 else {
            throw AdjustError(.invalidValue, field: "position", subject: text, "The latitude \(parts[0]) is out of range: it goes from -90 to 90.")
        }
        guard abs(longitude) <= 180 else {
            throw AdjustError(.invalidValue, field: "position", subject: text, "The longitude \(parts[1]) is out of range: it goes from -180 to 180.")
        }
        guard let position = GeoPosition(latitude: latitude, longitude: longitude) else {
            throw AdjustError(.invalidValue, field: "position", subject: text, "0,0 is where cameras put photos they could not place: give the real position.")
        }
        return position
    }
}

/// The `--set-date` text: `YYYY-MM-DDTHH:MM:SS` with optional `.f` to `.fff` (a space for the `T` allowed).
enum LocalDateTimeText {
    static func parse(_ text: String) -> LocalDateTime? {
        let trimmed = text.trimmingSpaces
        let normalized = trimmed.count > 10 && trimmed.dropFirst(10).first == " "
            ? String(trimmed.prefix(10)) + "T" + String(trimmed.dropFirst(11)) : trimmed
        return LocalDateTime(iso8601: normalized)
    }
}
