/// Photos grouped by date at two levels: fine sections (1–2 days, every photo) and coarse
/// sections (fixed windows of days, a capped sample shown).
///
/// Build it once from the loaded rows; every query afterwards is an array access.
/// ```swift
/// let timeline = try PhotoTimeline(photos: rows, settings: settings)
/// for section in timeline.coarseSections { print(section.label, section.count, section.shown.count) }
/// ```
public struct PhotoTimeline: Sendable {
    public let settings: TimelineSettings
    /// Every photo, in capture order: capture time, then path in UTF-8 byte order.
    /// Sections refer to photos by their position in this array.
    public let photos: [TimelinePhoto]
    /// Fine sections in date order; together they cover `photos` exactly once, in order.
    public let fineSections: [FineSection]
    /// Coarse sections in date order; each is a run of whole fine sections.
    public let coarseSections: [CoarseSection]
    /// `photos[i].captured.millisecondsSince2001`, precomputed.
    package let captureKeys: [Int64]
    /// Whether the input was already in capture order (so no sort was needed).
    public let inputWasSorted: Bool

    /// Groups and samples `photos`, given in any order.
    ///
    /// Loading rows with `ORDER BY` capture time, then path (SQLite's BINARY collation) skips the sort.
    /// Pass the array without keeping it (the last use) and an unsorted input is reordered in place.
    ///
    /// - Complexity: O(n) when the input is already in capture order (checked), O(n log n)
    ///   otherwise; hashing only touches coarse sections larger than `coarse.showAllUpTo`, and
    ///   picks their sample in O(n log k).
    /// - Throws: ``TimelineError`` when the settings are invalid or a photo's date-time is not a
    ///   real moment (the error names its path).
    public init(photos: consuming [TimelinePhoto], settings: TimelineSettings = TimelineSettings()) throws(TimelineError) {
        try settings.validate()
        self.settings = settings

        let (photos, keys, wasSorted) = try Self.captureOrdered(consume photos)
        self.photos = photos
        self.captureKeys = keys
        self.inputWasSorted = wasSorted

        let days = Self.dayRuns(keys: keys, dayStartHour: settings.dayStartHour)
        let (fine, coarse) = Self.sections(days: days, photos: photos, settings: settings)
        self.fineSections = fine
        self.coarseSections = coarse
    }

    /// Number of sections at `level`.
    public func sectionCount(_ level: TimelineLevel) -> Int {
        level == .coarse ? coarseSections.count : fineSections.count
    }

    /// Number of items (shown photos) in a section, or `nil` when the section does not exist.
    public func itemCount(_ level: TimelineLevel, section: Int) -> Int? {
        switch level {
        case .coarse: coarseSections.indices.contains(section) ? coarseSections[section].shown.count : nil
        case .fine: fineSections.indices.contains(section) ? fineSections[section].count : nil
        }
    }

    /// Position in ``photos`` of item `item` of `section` at `level`, or `nil` when out of range.
    public func photoIndex(_ level: TimelineLevel, section: Int, item: Int) -> Int? {
        switch level {
        case .coarse:
            guard coarseSections.indices.contains(section) else { return nil }
            let shown = coarseSections[section].shown
            return shown.indices.contains(item) ? shown[item] : nil
        case .fine:
            guard fineSections.indices.contains(section) else { return nil }
            let range = fineSections[section].photoRange
            return item >= 0 && item < range.count ? range.lowerBound + item : nil
        }
    }

    /// The section at `level` and `index` in a level-independent shape, or `nil` when out of range.
    public func summary(_ level: TimelineLevel, _ index: Int) -> SectionSummary? {
        switch level {
        case .coarse:
            guard coarseSections.indices.contains(index) else { return nil }
            let s = coarseSections[index]
            return SectionSummary(
                level: .coarse, index: index, start: s.firstDay, end: s.lastDay,
                count: s.count, shown: s.shown, label: s.label)
        case .fine:
            guard fineSections.indices.contains(index) else { return nil }
            let s = fineSections[index]
            return SectionSummary(
                level: .fine, index: index, start: s.firstDay, end: s.lastDay,
                count: s.count, shown: Array(s.photoRange), label: s.label)
        }
    }

    /// Every section at `level`, in order (see ``summary(_:_:)``).
    public func summaries(_ level: TimelineLevel) -> [SectionSummary] {
        (0..<sectionCount(level)).compactMap { summary(level, $0) }
    }

    /// Capture time of `photos[index]` in milliseconds since 2001-01-01T00:00 (same wall clock).
    public func captureMilliseconds(ofPhoto index: Int) -> Int64 {
        captureKeys[index]
    }
}
