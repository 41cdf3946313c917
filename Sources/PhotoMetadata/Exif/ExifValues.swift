import WallClock
/// The EXIF fields Shoebox uses, as raw text before any interpretation.
///
/// Kept raw so that values from several blocks of one file (CR3 keeps IFD0 and the Exif IFD
/// in separate boxes) can be merged before the date chain is applied.
struct ExifValues: Sendable, Hashable {
    /// A date-time with the sub-seconds and offset recorded beside it.
    struct Stamp: Sendable, Hashable {
        var dateTime: String?
        var subSeconds: String?
        var offset: String?
    }

    /// An unsigned EXIF rational, kept as written (a zero denominator included).
    struct Rational: Sendable, Hashable {
        var numerator: Double
        var denominator: Double
    }

    /// The GPS IFD fields Shoebox uses.
    struct GPS: Sendable, Hashable {
        var latitudeRef: String?
        /// Degrees, minutes, seconds.
        var latitude: [Rational]?
        var longitudeRef: String?
        var longitude: [Rational]?
        /// `GPSDateStamp`, `YYYY:MM:DD` (UTC).
        var dateStamp: String?
        /// `GPSTimeStamp`: hours, minutes, seconds (UTC).
        var timeStamp: [Rational]?

        var isEmpty: Bool { self == GPS() }

        /// The position, when both coordinates and their references are valid.
        var position: GeoPosition? {
            guard let latitude, let longitude,
                  let lat = GeoPosition.exifCoordinate(latitude.map { ($0.numerator, $0.denominator) }, reference: latitudeRef, positive: "N", negative: "S"),
                  let lon = GeoPosition.exifCoordinate(longitude.map { ($0.numerator, $0.denominator) }, reference: longitudeRef, positive: "E", negative: "W")
            else { return nil }
            return GeoPosition(latitude: lat, longitude: lon)
        }

        /// The UTC time of the fix, when both the date and the time stamp are valid.
        var timestamp: GPSTimestamp? {
            let time = timeStamp?.map { $0.denominator > 0 ? $0.numerator / $0.denominator : .nan }
            return GPSTimestamp(dateStamp: dateStamp, time: time)
        }
    }

    var orientation: Int?
    var make: String?
    var model: String?
    var original = Stamp()
    var digitized = Stamp()
    var modified = Stamp()
    var gps = GPS()

    /// These values with every missing field taken from `other`.
    func filling(from other: ExifValues) -> ExifValues {
        func pick(_ a: Stamp, _ b: Stamp) -> Stamp {
            Stamp(dateTime: a.dateTime ?? b.dateTime, subSeconds: a.subSeconds ?? b.subSeconds, offset: a.offset ?? b.offset)
        }
        var merged = self
        merged.orientation = orientation ?? other.orientation
        merged.make = make ?? other.make
        merged.model = model ?? other.model
        merged.original = pick(original, other.original)
        merged.digitized = pick(digitized, other.digitized)
        merged.modified = pick(modified, other.modified)
        merged.gps = gps.isEmpty ? other.gps : gps
        return merged
    }

    var isEmpty: Bool { self == ExifValues() }

    /// The first valid date of the chain DateTimeOriginal → DateTimeDigitized → DateTime.
    var captureDate: CaptureDate? {
        let links: [(Stamp, DateSource)] = [(original, .dateTimeOriginal), (digitized, .dateTimeDigitized), (modified, .dateTime)]
        for (stamp, source) in links {
            guard let text = stamp.dateTime, let parsed = ExifDateParser.dateTime(text) else { continue }
            var local = parsed.local
            if let subSeconds = stamp.subSeconds, let millisecond = ExifDateParser.milliseconds(subSeconds) {
                local.millisecond = millisecond
            }
            let offset = stamp.offset.flatMap(ExifDateParser.offset) ?? parsed.offset
            return CaptureDate(local: local, offset: offset, source: source, offsetSource: offset == nil ? nil : .exif)
        }
        return nil
    }
}
