/// Where the UTC offset of a capture date came from (`offsetSource` in the contract).
///
/// A date whose offset is the indexing machine's zone (a UTC container time, a Takeout
/// timestamp, the modification time) has no source: that offset says where the library was
/// indexed, not where the photo was taken.
public enum OffsetSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Written beside the date in the file or its sidecar: EXIF `OffsetTime*`, or an XMP or
    /// QuickTime date with its offset.
    case exif
    /// Local time minus the GPS time stamp (UTC), rounded to 15 minutes.
    case gpsTime = "gps-time"
    /// The time zone of the place at the position, at that date.
    case place
}
