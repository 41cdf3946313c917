/// Where a capture date came from, in the order of the fallback chain.
///
/// Photos: `DateTimeOriginal` → `DateTimeDigitized` → `DateTime`. Videos: `CreationDate`
/// (QuickTime keys or user data) → `DateTimeOriginal` (AVI `IDIT`, Matroska `DateUTC`) →
/// `MediaCreateDate` (`mvhd`). Then, for both, the sidecars, the file name and the
/// modification time.
public enum DateSource: String, Sendable, Hashable, Codable, CaseIterable {
    case dateTimeOriginal = "DateTimeOriginal"
    case dateTimeDigitized = "DateTimeDigitized"
    case dateTime = "DateTime"
    /// A QuickTime `com.apple.quicktime.creationdate` key or `©day` user-data date, with its offset.
    case creationDate = "CreationDate"
    /// The `mvhd` creation time (UTC), shown in the indexing machine's time zone.
    case mediaCreateDate = "MediaCreateDate"
    /// An XMP sidecar (`NAME.EXT.xmp` or `NAME.xmp`).
    case xmpSidecar
    /// A Google Takeout JSON sidecar (`photoTakenTime`, UTC).
    case takeoutJSON
    case filename
    case fileModified
}
