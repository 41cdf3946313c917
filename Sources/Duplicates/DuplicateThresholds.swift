/// When two pictures count as `similar`: both grey hashes within their Hamming distances, and the
/// colour renditions within a distance (`ColourRendition.distance`, ΔE) that is stricter when
/// either picture holds little detail (a mostly blank page, a flat sky, a dark frame), whose
/// hashes say little.
///
/// The defaults were measured on the photos of the shared corpus and their variants (JPEG
/// quality 60, half size, PNG, WebP, a 3 % crop) against generated look-alikes (text pages,
/// one layout in several colours, dark frames, the demo photos); see "Duplicates" in docs/benchmarks.md.
public struct DuplicateThresholds: Sendable, Hashable {
    public var pHash: Int
    public var dHash: Int
    /// The largest colour distance of two detailed pictures.
    public var colour: Double
    /// The largest colour distance when either picture's `ColourRendition.detail` is below `lowDetail`.
    public var lowDetailColour: Double
    public var lowDetail: Double

    public init(pHash: Int, dHash: Int, colour: Double = 6, lowDetailColour: Double = 1.5, lowDetail: Double = 2) {
        self.pHash = pHash
        self.dHash = dHash
        self.colour = colour
        self.lowDetailColour = lowDetailColour
        self.lowDetail = lowDetail
    }

    public static let `default` = DuplicateThresholds(pHash: 10, dHash: 12)

    /// Whether two fingerprints' hashes are within both Hamming distances (the colours not compared).
    @inlinable
    public func hashesAreClose(_ a: PictureFingerprint, _ b: PictureFingerprint) -> Bool {
        PictureFingerprint.distance(a.pHash, b.pHash) <= pHash && PictureFingerprint.distance(a.dHash, b.dHash) <= dHash
    }

    /// The largest colour distance for these two pictures.
    public func colourLimit(_ a: PictureFingerprint, _ b: PictureFingerprint) -> Double {
        min(a.colour.detail, b.colour.detail) < lowDetail ? lowDetailColour : colour
    }

    /// Whether two fingerprints are within both hash distances and the colour distance.
    public func areSimilar(_ a: PictureFingerprint, _ b: PictureFingerprint) -> Bool {
        hashesAreClose(a, b) && ColourRendition.distance(a.colour, b.colour) <= colourLimit(a, b)
    }
}
