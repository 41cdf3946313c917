/// Running counts of what a cache has done since it was made.
public struct ThumbnailStatistics: Sendable, Hashable {
    /// Images served from the disk cache.
    public var hits = 0
    /// Images served from memory, without reading their file.
    public var memoryHits = 0
    /// Placeholders served from a remembered failure, without touching the photo.
    public var rememberedFailures = 0
    /// Photos decoded and encoded.
    public var generated = 0
    /// Decodes started: renders the pool admitted, whatever their outcome.
    public var renders = 0
    /// Requests that waited for a render of the same photo and size already under way, and got
    /// its result instead of rendering again.
    public var joined = 0
    /// Photos that could not be made (undecodable, too large, missing or unreadable).
    public var failed = 0

    public init() {}
}
