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

    var orientation: Int?
    var make: String?
    var model: String?
    var original = Stamp()
    var digitized = Stamp()
    var modified = Stamp()

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
            return CaptureDate(local: local, offset: offset, source: source)
        }
        return nil
    }
}
