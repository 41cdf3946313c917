/// The largest Hamming distances at which two pictures count as `similar`: both hashes must be
/// within theirs.
///
/// The defaults were measured on the 299 photos of the shared corpus and their variants (JPEG
/// quality 60, half size, PNG, WebP, a 3 % crop); see the README's "Duplicates and stacks".
public struct DuplicateThresholds: Sendable, Hashable {
    public var pHash: Int
    public var dHash: Int

    public init(pHash: Int, dHash: Int) {
        self.pHash = pHash
        self.dHash = dHash
    }

    public static let `default` = DuplicateThresholds(pHash: 10, dHash: 12)

    /// Whether two fingerprints are within both thresholds.
    @inlinable
    public func areSimilar(_ a: PictureFingerprint, _ b: PictureFingerprint) -> Bool {
        PictureFingerprint.distance(a.pHash, b.pHash) <= pHash && PictureFingerprint.distance(a.dHash, b.dHash) <= dHash
    }
}
