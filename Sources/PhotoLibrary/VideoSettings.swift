/// How `GET /api/photos/{id}/video` plays a video the browser cannot play as it is. Decodes from
/// the `video` part of the config file.
public struct VideoSettings: Sendable, Hashable, Codable {
    /// Whether such a video is transcoded to H.264/AAC MP4 on first request; when off, it has no
    /// playback, only its original to download.
    public var transcode: Bool
    /// The largest height (the shorter side of a portrait video) a transcode keeps, in pixels.
    public var maxHeight: Int
    /// Megabytes the transcoded videos may take on disk; the least recently played go first.
    public var cacheMegabytes: Int

    public static let defaultMaxHeight = 1080
    public static let defaultCacheMegabytes = 4096
    public static let `default` = VideoSettings()

    public init(transcode: Bool = true, maxHeight: Int = VideoSettings.defaultMaxHeight, cacheMegabytes: Int = VideoSettings.defaultCacheMegabytes) {
        self.transcode = transcode
        self.maxHeight = maxHeight
        self.cacheMegabytes = cacheMegabytes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transcode = try c.decodeIfPresent(Bool.self, forKey: .transcode) ?? true
        maxHeight = try c.decodeIfPresent(Int.self, forKey: .maxHeight) ?? Self.defaultMaxHeight
        cacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .cacheMegabytes) ?? Self.defaultCacheMegabytes
    }

    /// Refuses a height outside 144 to 4320 or a cache outside 1 MB to 16 TB, naming the key.
    public func validate() throws(LibraryError) {
        guard (144...4320).contains(maxHeight) else {
            throw LibraryError(.invalidConfiguration, "video.maxHeight must be 144 to 4320 (got \(maxHeight))")
        }
        guard (1...16_000_000).contains(cacheMegabytes) else {
            throw LibraryError(.invalidConfiguration, "video.cacheMegabytes must be 1 to 16000000 (got \(cacheMegabytes))")
        }
    }
}
