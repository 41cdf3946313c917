public import GalleryLayout
public import Timeline

/// The packed timeline of one library at one viewport: the Years, Overview (coarse) and Days
/// (fine) layouts, with zooms between any two of them that keep the touched photo at the same
/// height on screen.
///
/// ```swift
/// let map = try PackedZoomMap(timeline: timeline, viewport: ViewportSize(width: 1440, height: 900), today: today)
/// let t = try map.zoom(from: .years, to: .coarse, at: GridIndexPath(section: 3, item: 0), contentOffsetY: 0)
/// ```
/// - Complexity: building is O(photos) (the years and the photo lookups) plus O(sections) per
///   layout; a zoom is O(log sections); a pinch adds O(log lines).
public struct PackedZoomMap: Sendable {
    public let timeline: PhotoTimeline
    /// The years with photos; section `s` of the Years layout is `years[s]`, its one item the key photo.
    public let years: [TimelineYear]
    public let viewport: ViewportSize
    public let contentInsets: ContentInsets
    public let yearsLayout: PackedLayout
    public let coarse: PackedLayout
    public let fine: PackedLayout
    /// The seed-grid map, kept for its O(1) photo lookups (which fine section, which coarse item).
    let lookup: ZoomMap

    /// Packs the three levels of `timeline` for `viewport`.
    ///
    /// - Parameters:
    ///   - today: picks each year's key photo (``PhotoTimeline/years(today:photoCount:isReadable:)``).
    ///   - isReadable: which photos may be a key photo, as the Years answer's caller says (give
    ///     both the same, so a tap lands on the photo the card shows); `nil`: every photo.
    /// - Throws: ``ZoomError`` with code `invalidSettings` when the width is outside 1…100,000
    ///   points or the height or insets are not finite and positive (insets: at least 0).
    public init(
        timeline: PhotoTimeline, viewport: ViewportSize, contentInsets: ContentInsets = ContentInsets(), today: TimelineDay,
        isReadable: ((Int) -> Bool)? = nil
    ) throws(ZoomError) {
        guard viewport.height.isFinite, viewport.height > 0, viewport.height <= 100_000 else {
            throw ZoomError(code: .invalidSettings, level: nil, message: "the viewport height must be 1 to 100000 points (got \(format(viewport.height)))")
        }
        guard contentInsets.top.isFinite, contentInsets.bottom.isFinite, contentInsets.top >= 0, contentInsets.bottom >= 0 else {
            throw ZoomError(code: .invalidSettings, level: nil, message: "content insets must be finite numbers of at least 0")
        }
        precondition(timeline.photos.count < Int(Int32.max), "PackedZoomMap holds photo positions as Int32")
        self.timeline = timeline
        self.viewport = viewport
        self.contentInsets = contentInsets
        let years = timeline.years(today: today, isReadable: isReadable)
        self.years = years
        let width = viewport.width
        yearsLayout = try PackedLayout(level: .years, counts: years.map { _ in 1 }, groups: years.map { _ in 0 }, width: width)
        coarse = try PackedLayout(
            level: .coarse, counts: timeline.coarseSections.map(\.shown.count),
            groups: timeline.coarseSections.map { PackedLayout.group(.coarse, firstDay: $0.firstDay.components) }, width: width)
        fine = try PackedLayout(
            level: .fine, counts: timeline.fineSections.map(\.count),
            groups: timeline.fineSections.map { PackedLayout.group(.fine, firstDay: $0.firstDay.components) }, width: width)
        lookup = try ZoomMap(timeline: timeline)
    }

    /// The layout of `level`.
    public func layout(_ level: PackedLevel) -> PackedLayout {
        switch level {
        case .years: yearsLayout
        case .coarse: coarse
        case .fine: fine
        }
    }

    /// Offsets `level` can scroll to: `−top inset … max(−top inset, content height + bottom inset − viewport height)`.
    public func scrollRange(_ level: PackedLevel) -> ClosedRange<Double> {
        let lower = -contentInsets.top
        let upper = layout(level).contentHeight + contentInsets.bottom - viewport.height
        return lower...max(lower, upper)
    }

    /// Position in ``PhotoTimeline/photos`` of the photo at `indexPath` of `level` (a year's key photo
    /// at the Years level).
    public func photo(at indexPath: GridIndexPath, in level: PackedLevel) throws(ZoomError) -> Int {
        try layout(level).validate(section: indexPath.section, item: indexPath.item)
        return uncheckedPhoto(at: indexPath, in: level)
    }

    func uncheckedPhoto(at indexPath: GridIndexPath, in level: PackedLevel) -> Int {
        switch level {
        case .years: years[indexPath.section].keyPhoto
        case .coarse: lookup.shownPhoto(at: indexPath, in: .coarse)
        case .fine: lookup.shownPhoto(at: indexPath, in: .fine)
        }
    }

    /// The Years section (index in ``years``) holding photo `photo`.
    /// - Complexity: O(log years).
    public func yearSection(ofPhoto photo: Int) -> Int {
        max(0, years.partitionPoint { $0.photoRange.lowerBound > photo } - 1)
    }

    /// Where `photo` lands in `level` and the photo shown there: itself (fine, or coarse when the
    /// sample shows it), the nearest shown photo of its coarse section in time, or its year's card.
    public func landing(of photo: Int, in level: PackedLevel) -> (GridIndexPath, Int) {
        switch level {
        case .years:
            let year = yearSection(ofPhoto: photo)
            return (GridIndexPath(section: year, item: 0), years[year].keyPhoto)
        case .coarse: return lookup.landing(of: photo, in: .coarse)
        case .fine: return lookup.landing(of: photo, in: .fine)
        }
    }

    /// Zoom from `level` to `target`, anchored on the cell at `indexPath`: the photo it shows lands
    /// at the same height on screen (clamped to `target`'s scroll range) — its top where the
    /// tapped cell's top was, except from years, where the centres are level: a year's key photo
    /// is larger than the cell it opens (125 against 38 points on a phone), and a finger on its
    /// middle would be below a cell whose top took the card photo's top.
    ///
    /// From years, the key photo opens Overview on itself or, when the sample hides it, on the
    /// shown photo of its coarse section nearest in time; to years, any photo opens its year's card.
    /// - Parameter contentOffsetY: `level`'s current content offset.
    /// - Throws: ``ZoomError`` naming the valid range when the section or item does not exist.
    /// - Complexity: O(log k) for k shown photos of a coarse section, O(log years) to years.
    public func zoom(from level: PackedLevel, to target: PackedLevel, at indexPath: GridIndexPath, contentOffsetY: Double) throws(ZoomError) -> PackedTransition {
        let source = layout(level)
        try source.validate(section: indexPath.section, item: indexPath.item)
        let photo = uncheckedPhoto(at: indexPath, in: level)
        let (targetPath, targetPhoto) = level == target ? (indexPath, photo) : landing(of: photo, in: target)
        let sourceFrame = source.uncheckedFrame(section: indexPath.section, item: indexPath.item)
        let targetFrame = layout(target).uncheckedFrame(section: targetPath.section, item: targetPath.item)
        let shift = level == .years && target != .years ? (sourceFrame.height - targetFrame.height) / 2 : 0
        return PackedTransition(
            from: PackedIndexPath(level: level, indexPath), to: PackedIndexPath(level: target, targetPath),
            sourcePhoto: photo, targetPhoto: targetPhoto, sourceFrame: sourceFrame, targetFrame: targetFrame,
            offset: AnchoredOffset(
                sourceMinY: sourceFrame.minY, sourceContentOffsetY: contentOffsetY,
                targetMinY: targetFrame.minY, scrollRange: scrollRange(target), shift: shift))
    }

    /// Pinch from `level` to `target`: the item under (or nearest to) `focalPoint` (viewport
    /// coordinates) keeps its height on screen.
    ///
    /// - Throws: ``ZoomError`` with code `focalPointOutsideViewport` or `emptyLevel`.
    /// - Complexity: O(log lines) plus the zoom's.
    public func pinch(from level: PackedLevel, to target: PackedLevel, focalPoint: GridPoint, contentOffsetY: Double) throws(ZoomError) -> PackedTransition {
        guard (0...viewport.width).contains(focalPoint.x), (0...viewport.height).contains(focalPoint.y) else {
            throw ZoomError(
                code: .focalPointOutsideViewport, level: level.timelineLevel,
                message: "the focal point (\(format(focalPoint.x)), \(format(focalPoint.y))) is outside the viewport: "
                    + "x must be 0–\(format(viewport.width)) and y 0–\(format(viewport.height))")
        }
        guard let indexPath = layout(level).nearestIndexPath(to: GridPoint(x: focalPoint.x, y: contentOffsetY + focalPoint.y)) else {
            throw ZoomError(code: .emptyLevel, level: level.timelineLevel, message: "the \(level) level has no photos to zoom on")
        }
        return try zoom(from: level, to: target, at: indexPath, contentOffsetY: contentOffsetY)
    }
}

extension PackedZoomMap {
    /// A resize or a rotation: the photo at the top of `old`'s screen (the one nearest the top
    /// edge's left end, under the top inset) keeps its height on screen in `new`, a map of the
    /// same timeline at another viewport.
    ///
    /// - Parameter contentOffsetY: `level`'s content offset in `old`.
    /// - Throws: ``ZoomError`` with code `emptyLevel` when the level has no photos.
    /// - Complexity: O(log lines) plus the blocks of the lines looked at.
    public static func resize(_ level: PackedLevel, contentOffsetY: Double, from old: PackedZoomMap, to new: PackedZoomMap) throws(ZoomError) -> PackedTransition {
        let point = GridPoint(x: 0, y: contentOffsetY + old.contentInsets.top)
        guard let indexPath = old.layout(level).nearestIndexPath(to: point) else {
            throw ZoomError(code: .emptyLevel, level: level.timelineLevel, message: "the \(level) level has no photos to keep in place")
        }
        // Both maps hold the same sections, so the photo keeps its index path.
        let photo = old.uncheckedPhoto(at: indexPath, in: level)
        let sourceFrame = old.layout(level).uncheckedFrame(section: indexPath.section, item: indexPath.item)
        let targetFrame = new.layout(level).uncheckedFrame(section: indexPath.section, item: indexPath.item)
        return PackedTransition(
            from: PackedIndexPath(level: level, indexPath), to: PackedIndexPath(level: level, indexPath),
            sourcePhoto: photo, targetPhoto: photo, sourceFrame: sourceFrame, targetFrame: targetFrame,
            offset: AnchoredOffset(
                sourceMinY: sourceFrame.minY, sourceContentOffsetY: contentOffsetY,
                targetMinY: targetFrame.minY, scrollRange: new.scrollRange(level)))
    }
}

/// A (section, item) position of a packed level.
public struct PackedIndexPath: Sendable, Hashable, CustomStringConvertible {
    public var level: PackedLevel
    public var section: Int
    public var item: Int

    public init(level: PackedLevel, _ indexPath: GridIndexPath) {
        self.level = level
        section = indexPath.section
        item = indexPath.item
    }

    public var indexPath: GridIndexPath { GridIndexPath(section: section, item: item) }
    public var description: String { "\(level) (\(section), \(item))" }
}

/// The answer to a zoom between packed levels (as ``ZoomTransition`` for the seed grid).
public typealias PackedTransition = GridTransition<PackedIndexPath>
