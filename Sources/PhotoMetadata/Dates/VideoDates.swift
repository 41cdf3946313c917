import WallClock
/// The dates a video container records, kept raw until the chain picks one.
///
/// The chain (DESIGN, "Videos and sidecars"): a QuickTime creation date (local wall clock with
/// its offset) → a container date (AVI `IDIT` in local time, Matroska `DateUTC`) → the `mvhd`
/// creation time, which is UTC. UTC values are shown in the indexing machine's time zone.
struct VideoDates: Sendable, Hashable {
    /// `com.apple.quicktime.creationdate` or a `©day` text, as written.
    var creationText: String?
    /// AVI `IDIT`: local wall clock, no offset.
    var containerLocal: LocalDateTime?
    /// Matroska `DateUTC`, in milliseconds since 1970.
    var containerUTCMilliseconds: Int64?
    /// `mvhd` (or the video track's `mdhd`) creation time, seconds since 1970; never zero.
    var mediaCreateUTC: Int64?

    var isEmpty: Bool { self == VideoDates() }

    /// Earliest plausible UTC instant: dates before 1970-01-02 are zero or garbage in real files.
    static let earliestUTC: Int64 = 86_400
    /// Latest: the end of year 2200, as for EXIF dates.
    static let latestUTC: Int64 = 7_289_654_399

    /// The first valid date of the chain.
    func captureDate(timeZone: LocalTimeZone) -> CaptureDate? {
        if let text = creationText, let parsed = ExifDateParser.dateTime(text) {
            return CaptureDate(local: parsed.local, offset: parsed.offset, source: .creationDate, offsetSource: parsed.offset == nil ? nil : .exif)
        }
        if let containerLocal {
            return CaptureDate(local: containerLocal, source: .dateTimeOriginal)
        }
        if let milliseconds = containerUTCMilliseconds {
            let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
            if Self.plausible(seconds) {
                let fraction = Int(milliseconds - seconds * 1000)
                return timeZone.captureDate(utcSecondsSince1970: seconds, millisecond: fraction == 0 ? nil : fraction, source: .dateTimeOriginal)
            }
        }
        if let seconds = mediaCreateUTC, Self.plausible(seconds) {
            return timeZone.captureDate(utcSecondsSince1970: seconds, source: .mediaCreateDate)
        }
        return nil
    }

    static func plausible(_ seconds: Int64) -> Bool { (earliestUTC...latestUTC).contains(seconds) }
}
