/// What one render may cost: the pixels its header may declare and the time its decoding may take.
public struct RenderLimits: Sendable, Hashable {
    /// Photos whose header declares more pixels than this are refused before any decoding.
    public var maxPixels: Int64
    /// Decoding and encoding one rendition stops after this long.
    ///
    /// libvips checks it between tiles. A step it does not split is not interrupted: libjpeg
    /// reads every scan of a progressive JPEG in one go, so such a file stops only after that
    /// read (the pixel limit bounds what it costs).
    public var timeLimit: Duration

    /// 120 megapixels: every phone, camera and 100-megapixel medium-format photo passes
    /// (11648 × 8736 is 101.8 MP), a 12,000 × 12,000 one (144 MP) does not. A progressive JPEG
    /// cannot shrink on load, so libjpeg holds all its coefficients: about 3 bytes a pixel
    /// (6 without chroma subsampling), 360 to 720 MB at this limit.
    public static let defaultMaxPixels: Int64 = 120_000_000

    /// 20 seconds: a 144-megapixel progressive JPEG takes about 4 s on a busy 2-core machine, so
    /// no photo within the pixel limit comes near it; the 882-scan JPEG of issue 24 took 38.
    public static let defaultTimeLimit: Duration = .seconds(20)

    public static let `default` = RenderLimits(maxPixels: defaultMaxPixels, timeLimit: defaultTimeLimit)

    /// Limits, each clamped to a usable range: at least one pixel, and up to an hour (a zero time
    /// limit stops a render at its first tile).
    public init(maxPixels: Int64 = RenderLimits.defaultMaxPixels, timeLimit: Duration = RenderLimits.defaultTimeLimit) {
        self.maxPixels = max(1, maxPixels)
        self.timeLimit = min(max(timeLimit, .zero), .seconds(3600))
    }

    /// The time limit in seconds, as libvips takes it.
    var timeLimitSeconds: Double {
        let parts = timeLimit.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
