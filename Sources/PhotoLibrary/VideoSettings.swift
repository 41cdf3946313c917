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
    /// Megabytes of address space each ffmpeg or ffprobe may map; past it the video fails with
    /// that reason.
    public var memoryMegabytes: Int
    /// Seconds one transcode may take before it is stopped; 0, the default: ten minutes and ten
    /// times the video's length, at most a day.
    public var transcodeSeconds: Int

    public static let defaultMaxHeight = 1080
    public static let defaultCacheMegabytes = 4096
    public static let defaultMemoryMegabytes = 2048
    public static let `default` = VideoSettings()

    public init(
        transcode: Bool = true, maxHeight: Int = VideoSettings.defaultMaxHeight, cacheMegabytes: Int = VideoSettings.defaultCacheMegabytes,
        memoryMegabytes: Int = VideoSettings.defaultMemoryMegabytes, transcodeSeconds: Int = 0
    ) {
        self.transcode = transcode
        self.maxHeight = maxHeight
        self.cacheMegabytes = cacheMegabytes
        self.memoryMegabytes = memoryMegabytes
        self.transcodeSeconds = transcodeSeconds
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transcode = try c.decodeIfPresent(Bool.self, forKey: .transcode) ?? true
        maxHeight = try c.decodeIfPresent(Int.self, forKey: .maxHeight) ?? Self.defaultMaxHeight
        cacheMegabytes = try c.decodeIfPresent(Int.self, forKey: .cacheMegabytes) ?? Self.defaultCacheMegabytes
        memoryMegabytes = try c.decodeIfPresent(Int.self, forKey: .memoryMegabytes) ?? Self.defaultMemoryMegabytes
        transcodeSeconds = try c.decodeIfPresent(Int.self, forKey: .transcodeSeconds) ?? 0
    }

    /// Refuses a height outside 144 to 4320, a cache outside 1 MB to 16 TB, a memory limit outside
    /// 256 MB to 1 TB or a transcode limit outside 0 (automatic) to a day, naming the key.
    public func validate() throws(LibraryError) {
        guard (144...4320).contains(maxHeight) else {
            throw LibraryError(.invalidConfiguration, "video.maxHeight must be 144 to 4320 (got \(maxHeight))")
        }
        guard (1...16_000_000).contains(cacheMegabytes) else {
            throw LibraryError(.invalidConfiguration, "video.cacheMegabytes must be 1 to 16000000 (got \(cacheMegabytes))")
        }
        guard (256...1_000_000).contains(memoryMegabytes) else {
            throw LibraryError(.invalidConfiguration, "video.memoryMegabytes must be 256 to 1000000 (got \(memoryMegabytes))")
        }
        guard (0...86_400).contains(transcodeSeconds) else {
            throw LibraryError(.invalidConfiguration, "video.transcodeSeconds must be 0 (automatic) to 86400 (got \(transcodeSeconds))")
        }
    }
}
