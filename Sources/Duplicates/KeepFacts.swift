/// What decides which file of a duplicate group is kept: the largest picture, then the richest
/// metadata, then the oldest file, then the first path (so the choice is the same on every run).
public struct KeepFacts: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// The capture date came from the picture's metadata (EXIF, XMP, QuickTime), not its name or file time.
    public var hasCaptureDate: Bool
    public var hasPosition: Bool
    public var hasCamera: Bool
    /// Modification time, nanoseconds since 1970.
    public var modified: Int64
    /// The relative path, as text, for the last tie-break.
    public var path: String

    public init(width: Int, height: Int, hasCaptureDate: Bool, hasPosition: Bool, hasCamera: Bool, modified: Int64, path: String) {
        self.width = width
        self.height = height
        self.hasCaptureDate = hasCaptureDate
        self.hasPosition = hasPosition
        self.hasCamera = hasCamera
        self.modified = modified
        self.path = path
    }

    public var pixelCount: Int64 { Int64(max(0, width)) * Int64(max(0, height)) }

    /// Whether two pictures have one shape: their width-to-height ratios within 4 % of each other
    /// (a resized or lightly cropped copy keeps its shape; a portrait is no copy of a landscape),
    /// or either size unknown.
    public func hasShape(of other: KeepFacts) -> Bool {
        guard width > 0, height > 0, other.width > 0, other.height > 0 else { return true }
        let ratio = Double(width * other.height) / Double(height * other.width)
        return max(ratio, 1 / ratio) <= 1.04
    }

    /// How many of capture date, position and camera the file has (0–3).
    public var metadataScore: Int { (hasCaptureDate ? 1 : 0) + (hasPosition ? 1 : 0) + (hasCamera ? 1 : 0) }

    /// Whether `self` is to be kept rather than `other`.
    public func isPreferred(to other: KeepFacts) -> Bool {
        if pixelCount != other.pixelCount { return pixelCount > other.pixelCount }
        if metadataScore != other.metadataScore { return metadataScore > other.metadataScore }
        if modified != other.modified { return modified < other.modified }
        return path.utf8.lexicographicallyPrecedes(other.path.utf8)
    }

    /// Why `self` was kept over `others` (which do not include it): the first rule that decided.
    public func reason(over others: [KeepFacts]) -> String {
        guard let runnerUp = others.min(by: { $0.isPreferred(to: $1) }) else { return "the only file" }
        if pixelCount != runnerUp.pixelCount {
            return "largest picture (\(width)×\(height))"
        }
        if metadataScore != runnerUp.metadataScore {
            let has = [hasCaptureDate ? "capture date" : nil, hasPosition ? "GPS position" : nil, hasCamera ? "camera" : nil]
            return "richest metadata (\(has.compactMap { $0 }.joined(separator: ", ")))"
        }
        if modified != runnerUp.modified { return "oldest file" }
        return "first by path (same size, metadata and age)"
    }
}
