/// How photos are grouped into sections and sampled.
///
/// JSON keys (all optional when decoding; a missing key takes its default):
/// ```json
/// { "dayStartHour": 0,
///   "fine":   { "mergeLimit": 12 },
///   "coarse": { "spanDays": 14, "sampling": "stable", "showAllUpTo": 10,
///               "sampleStep": 10, "sampleCap": 50, "seed": 20010101 } }
/// ```
/// Decoding does not validate; call ``validate()`` (``PhotoTimeline`` does).
public struct TimelineSettings: Sendable, Hashable, Codable {
    /// Hour (0…23) at which a day starts: with 4, a photo taken at 01:00 belongs to the day before.
    public var dayStartHour: Int
    public var fine: FineSettings
    public var coarse: CoarseSettings

    public init(dayStartHour: Int = 0, fine: FineSettings = FineSettings(), coarse: CoarseSettings = CoarseSettings()) {
        self.dayStartHour = dayStartHour
        self.fine = fine
        self.coarse = coarse
    }

    private enum CodingKeys: String, CodingKey {
        case dayStartHour, fine, coarse
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            dayStartHour: try container.decodeIfPresent(Int.self, forKey: .dayStartHour) ?? 0,
            fine: try container.decodeIfPresent(FineSettings.self, forKey: .fine) ?? FineSettings(),
            coarse: try container.decodeIfPresent(CoarseSettings.self, forKey: .coarse) ?? CoarseSettings()
        )
    }

    /// Throws one error listing every setting out of range, each with its JSON key.
    public func validate() throws(TimelineError) {
        var problems: [(key: String, message: String)] = []
        func check(_ ok: Bool, _ key: String, _ message: String) {
            if !ok { problems.append((key, message)) }
        }
        check((0...23).contains(dayStartHour), "dayStartHour", "dayStartHour must be between 0 and 23 (got \(dayStartHour))")
        check(fine.mergeLimit >= 1, "fine.mergeLimit", "fine.mergeLimit must be at least 1 (got \(fine.mergeLimit))")
        check(coarse.spanDays >= 1, "coarse.spanDays", "coarse.spanDays must be at least 1 (got \(coarse.spanDays))")
        check(coarse.showAllUpTo >= 0, "coarse.showAllUpTo", "coarse.showAllUpTo must be at least 0 (got \(coarse.showAllUpTo))")
        check(coarse.sampleStep >= 1, "coarse.sampleStep", "coarse.sampleStep must be at least 1 (got \(coarse.sampleStep))")
        check(
            coarse.showAllUpTo >= coarse.sampleStep, "coarse.showAllUpTo",
            "coarse.showAllUpTo (\(coarse.showAllUpTo)) must be at least coarse.sampleStep (\(coarse.sampleStep)), or small sections would show nothing"
        )
        check(
            coarse.sampleCap >= max(1, coarse.showAllUpTo), "coarse.sampleCap",
            "coarse.sampleCap must be at least 1 and at least coarse.showAllUpTo (\(coarse.showAllUpTo)) (got \(coarse.sampleCap))"
        )
        guard !problems.isEmpty else { return }
        throw TimelineError(
            code: .invalidSettings,
            subject: problems.map(\.key).joined(separator: ", "),
            message: "invalid timeline settings: " + problems.map(\.message).joined(separator: "; ")
        )
    }
}

/// Settings of the fine level (one or two days per section, every photo shown).
public struct FineSettings: Sendable, Hashable, Codable {
    /// Two consecutive days share a section when together they hold at most this many photos.
    public var mergeLimit: Int

    public init(mergeLimit: Int = 12) {
        self.mergeLimit = mergeLimit
    }

    private enum CodingKeys: String, CodingKey {
        case mergeLimit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(mergeLimit: try container.decodeIfPresent(Int.self, forKey: .mergeLimit) ?? 12)
    }
}

/// Settings of the coarse level (fixed windows of days, a capped sample shown).
public struct CoarseSettings: Sendable, Hashable, Codable {
    /// The default sampling seed (the epoch date, 2001-01-01, as a number).
    public static let defaultSeed: UInt64 = 20_010_101

    /// Window length in days; windows are aligned on Monday 2001-01-01.
    public var spanDays: Int
    /// How the shown photos are chosen.
    public var sampling: SamplingStrategy
    /// Sections of at most this many photos show all of them.
    public var showAllUpTo: Int
    /// Larger sections show a multiple of this many photos…
    public var sampleStep: Int
    /// …and never more than this.
    public var sampleCap: Int
    /// Key of the stable sample's hash: the same seed gives the same sample everywhere.
    public var seed: UInt64

    public init(
        spanDays: Int = 14,
        sampling: SamplingStrategy = .stable,
        showAllUpTo: Int = 10,
        sampleStep: Int = 10,
        sampleCap: Int = 50,
        seed: UInt64 = CoarseSettings.defaultSeed
    ) {
        self.spanDays = spanDays
        self.sampling = sampling
        self.showAllUpTo = showAllUpTo
        self.sampleStep = sampleStep
        self.sampleCap = sampleCap
        self.seed = seed
    }

    private enum CodingKeys: String, CodingKey {
        case spanDays, sampling, showAllUpTo, sampleStep, sampleCap, seed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = CoarseSettings()
        self.init(
            spanDays: try container.decodeIfPresent(Int.self, forKey: .spanDays) ?? defaults.spanDays,
            sampling: try container.decodeIfPresent(SamplingStrategy.self, forKey: .sampling) ?? defaults.sampling,
            showAllUpTo: try container.decodeIfPresent(Int.self, forKey: .showAllUpTo) ?? defaults.showAllUpTo,
            sampleStep: try container.decodeIfPresent(Int.self, forKey: .sampleStep) ?? defaults.sampleStep,
            sampleCap: try container.decodeIfPresent(Int.self, forKey: .sampleCap) ?? defaults.sampleCap,
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? defaults.seed
        )
    }

    /// How many photos a coarse section of `count` photos shows.
    ///
    /// - `stable`: `count` when `count ≤ showAllUpTo`, else `min(sampleCap, sampleStep·⌊count/sampleStep⌋)`
    ///   (defaults: 1–10, 20, 30, 40, 50).
    /// - `stride` (MiniPhotos): `count` when `count ≤ showAllUpTo`, else
    ///   `min(sampleCap, sampleStep·⌊(count−1)/sampleStep⌋)`, the strict thresholds (20 shows 10, 21 shows 20).
    public func shownCount(forSectionOf count: Int) -> Int {
        guard count > showAllUpTo else { return count }
        switch sampling {
        case .stable: return min(sampleCap, sampleStep * (count / sampleStep))
        case .stride: return min(sampleCap, sampleStep * ((count - 1) / sampleStep))
        }
    }
}

/// How a coarse section's shown photos are chosen.
public enum SamplingStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The photos with the smallest keyed hash of (seed, path): stable when photos are added.
    case stable
    /// MiniPhotos' accumulated real stride over capture order (see ``StrideSampling``).
    case stride
}
