/// A fine section: one day, or two consecutive days of the same coarse window; every photo shown.
public struct FineSection: Sendable, Hashable {
    /// First and last day (equal for a one-day section, consecutive for two days).
    public let firstDay: TimelineDay
    public let lastDay: TimelineDay
    /// Positions in ``PhotoTimeline/photos``; item `i` of the section is `photoRange.lowerBound + i`.
    public let photoRange: Range<Int>
    /// Index of the coarse section that contains this one.
    public let coarseSection: Int

    init(firstDay: TimelineDay, lastDay: TimelineDay, photoRange: Range<Int>, coarseSection: Int) {
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.photoRange = photoRange
        self.coarseSection = coarseSection
    }

    public var count: Int { photoRange.count }

    /// "Sat 8 Mar 2025" or "8 – 9 Mar 2025" (see ``TimelineDay/rangeLabel(from:to:)``).
    public var label: String { TimelineDay.rangeLabel(from: firstDay, to: lastDay) }
}

/// A coarse section: the photos of one fixed window of days, of which a capped sample is shown.
public struct CoarseSection: Sendable, Hashable {
    /// First and last day of the whole window (`coarse.spanDays` days, aligned on 2001-01-01).
    public let windowStart: TimelineDay
    public let windowEnd: TimelineDay
    /// First and last day that have photos: the window clipped to its photos.
    public let firstDay: TimelineDay
    public let lastDay: TimelineDay
    /// Positions in ``PhotoTimeline/photos``.
    public let photoRange: Range<Int>
    /// The fine sections this window is made of, in order.
    public let fineSections: Range<Int>
    /// Positions in ``PhotoTimeline/photos`` of the shown photos, ascending (capture order).
    /// Item `i` of the section is `shown[i]`.
    public let shown: [Int]

    init(
        windowStart: TimelineDay, windowEnd: TimelineDay, firstDay: TimelineDay, lastDay: TimelineDay,
        photoRange: Range<Int>, fineSections: Range<Int>, shown: [Int]
    ) {
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.photoRange = photoRange
        self.fineSections = fineSections
        self.shown = shown
    }

    /// Photos in the section (shown or not).
    public var count: Int { photoRange.count }

    /// The days that have photos, e.g. "3 – 15 Mar 2025"; a single day reads "Sat 8 Mar 2025".
    ///
    /// The label is clipped to the photos, not the window: it says when the photos were taken.
    /// Use ``windowLabel`` for the whole window.
    public var label: String { TimelineDay.rangeLabel(from: firstDay, to: lastDay) }

    /// The whole window, e.g. "3 – 16 Mar 2025".
    public var windowLabel: String { TimelineDay.rangeLabel(from: windowStart, to: windowEnd) }
}

/// A level-independent view of a section, shaped like the CLI's `sections` output.
public struct SectionSummary: Sendable, Hashable {
    public let level: TimelineLevel
    public let index: Int
    /// First and last day with photos (`start`/`end` in JSON, via ``TimelineDay/isoString``).
    public let start: TimelineDay
    public let end: TimelineDay
    /// Photos in the section.
    public let count: Int
    /// Positions in ``PhotoTimeline/photos`` of the shown photos, in capture order.
    public let shown: [Int]
    /// Human label, e.g. "8 – 9 Mar 2025".
    public let label: String
}
