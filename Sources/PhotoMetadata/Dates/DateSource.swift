/// Where a capture date came from, in the order of the fallback chain.
public enum DateSource: String, Sendable, Hashable, Codable, CaseIterable {
    case dateTimeOriginal = "DateTimeOriginal"
    case dateTimeDigitized = "DateTimeDigitized"
    case dateTime = "DateTime"
    case filename
    case fileModified
}
