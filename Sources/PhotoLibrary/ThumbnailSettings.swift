/// How large a photo the thumbnail renderer decodes. Decodes from the `thumbnails` part of the
/// config file.
public struct ThumbnailSettings: Sendable, Hashable, Codable {
    /// Photos whose header declares more pixels than this get a `too-large` placeholder and are
    /// never decoded. The default, 120,000,000, lets every 100-megapixel photo through and stops
    /// a 12,000 × 12,000 one (144 MP), whose progressive JPEG needs about 450 MB to decode.
    public var maxPixels: Int64

    public static let defaultMaxPixels: Int64 = 120_000_000
    /// The largest limit accepted: 2^34 pixels, four times the largest JPEG (65,535²).
    public static let maximumMaxPixels: Int64 = 1 << 34

    public static let `default` = ThumbnailSettings(maxPixels: defaultMaxPixels)

    public init(maxPixels: Int64 = ThumbnailSettings.defaultMaxPixels) {
        self.maxPixels = maxPixels
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxPixels = try c.decodeIfPresent(Int64.self, forKey: .maxPixels) ?? Self.defaultMaxPixels
    }

    /// Refuses a limit outside 1 to `maximumMaxPixels`, naming the key.
    public func validate() throws(LibraryError) {
        guard (1...Self.maximumMaxPixels).contains(maxPixels) else {
            throw LibraryError(.invalidConfiguration, "thumbnails.maxPixels must be 1 to \(Self.maximumMaxPixels) (got \(maxPixels))")
        }
    }
}
