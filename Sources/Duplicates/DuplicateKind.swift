/// How alike the files of a duplicate group are, from the strictest tier to the loosest.
public enum DuplicateKind: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
    /// The same bytes (equal size, equal SHA-256).
    case exact
    /// The same decoded picture at 16×16 (a metadata edit, a lossless re-save).
    case samePicture = "same-picture"
    /// The same picture re-encoded, resized, converted or lightly cropped (both perceptual hashes close).
    case similar

    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .exact: 0
        case .samePicture: 1
        case .similar: 2
        }
    }
}
