public import GalleryLayout
public import Timeline

/// Both levels' grids over one timeline, with O(1) photo lookups, answering zoom and pinch
/// requests.
///
/// ```swift
/// let timeline = try PhotoTimeline(photos: rows)
/// let map = try ZoomMap(timeline: timeline, settings: ZoomSettings(viewport: ViewportSize(width: 375, height: 812)))
/// let t = try map.zoom(from: .coarse, at: GridIndexPath(section: 3, item: 7), contentOffsetY: 1200)
/// print(t.to, timeline.photos[t.targetPhoto].path, t.contentOffsetY, t.clamped)
/// ```
/// - Complexity: building is O(photos); zooming is O(1) after validation; pinching is
///   O(log sections).
public struct ZoomMap: Sendable {
    public let timeline: PhotoTimeline
    public let settings: ZoomSettings
    /// The coarse grid: one section per coarse section, one item per shown photo.
    public let coarse: GridLayout
    /// The fine grid: one section per fine section, one item per photo.
    public let fine: GridLayout
    /// Fine section of each photo.
    let fineSectionOfPhoto: [Int32]
    /// Item of each photo in its coarse section, or -1 when the sample does not show it.
    let coarseItemOfPhoto: [Int32]

    /// Lays out both levels of `timeline`.
    ///
    /// - Throws: ``ZoomError`` with code `invalidSettings` when the settings are out of range.
    public init(timeline: PhotoTimeline, settings: ZoomSettings = ZoomSettings()) throws(ZoomError) {
        try settings.validate()
        precondition(timeline.photos.count < Int(Int32.max), "ZoomMap holds photo positions as Int32")
        self.timeline = timeline
        self.settings = settings
        let width = settings.viewport.width
        coarse = GridLayout(
            level: .coarse, sectionCounts: timeline.coarseSections.map(\.shown.count),
            metrics: settings.coarse, viewportWidth: width)
        fine = GridLayout(
            level: .fine, sectionCounts: timeline.fineSections.map(\.count),
            metrics: settings.fine, viewportWidth: width)

        var fineOf = [Int32](repeating: 0, count: timeline.photos.count)
        fineOf.withUnsafeMutableBufferPointer { fineOf in
            for (index, section) in timeline.fineSections.enumerated() {
                for photo in section.photoRange { fineOf[photo] = Int32(truncatingIfNeeded: index) }
            }
        }
        var coarseItem = [Int32](repeating: -1, count: timeline.photos.count)
        coarseItem.withUnsafeMutableBufferPointer { coarseItem in
            for section in timeline.coarseSections {
                for (item, photo) in section.shown.enumerated() { coarseItem[photo] = Int32(truncatingIfNeeded: item) }
            }
        }
        fineSectionOfPhoto = fineOf
        coarseItemOfPhoto = coarseItem
    }

    /// The grid of `level`.
    public func layout(_ level: TimelineLevel) -> GridLayout {
        level == .coarse ? coarse : fine
    }

    /// Offsets the level can scroll to: `−top inset … max(−top inset, content height + bottom inset − viewport height)`.
    public func scrollRange(_ level: TimelineLevel) -> ClosedRange<Double> {
        grids.scrollRange(level)
    }

    /// Position in ``PhotoTimeline/photos`` of the photo at `indexPath` in `level`.
    public func photo(at indexPath: GridIndexPath, in level: TimelineLevel) throws(ZoomError) -> Int {
        try layout(level).validate(section: indexPath.section, item: indexPath.item)
        return uncheckedPhoto(at: indexPath, in: level)
    }

    /// Where photo `photo` (a position in ``PhotoTimeline/photos``) appears in `level`:
    /// always in the fine level; in the coarse level only when sampled (else `nil`).
    /// - Complexity: O(1).
    public func indexPath(ofPhoto photo: Int, in level: TimelineLevel) -> GridIndexPath? {
        guard timeline.photos.indices.contains(photo) else { return nil }
        let section = Int(fineSectionOfPhoto[photo])
        switch level {
        case .fine:
            return GridIndexPath(section: section, item: photo - timeline.fineSections[section].photoRange.lowerBound)
        case .coarse:
            let item = Int(coarseItemOfPhoto[photo])
            guard item >= 0 else { return nil }
            return GridIndexPath(section: timeline.fineSections[section].coarseSection, item: item)
        }
    }

    /// The coarse section holding photo `photo`.
    public func coarseSection(ofPhoto photo: Int) -> Int? {
        guard timeline.photos.indices.contains(photo) else { return nil }
        return timeline.fineSections[Int(fineSectionOfPhoto[photo])].coarseSection
    }

    @inline(__always)
    func uncheckedPhoto(at indexPath: GridIndexPath, in level: TimelineLevel) -> Int {
        switch level {
        case .coarse: timeline.coarseSections[indexPath.section].shown[indexPath.item]
        case .fine: timeline.fineSections[indexPath.section].photoRange.lowerBound + indexPath.item
        }
    }
}
