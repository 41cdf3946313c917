public import GalleryLayout
public import Timeline

/// What a zoom asks of the photos: which photo a cell shows, and where a photo lands at the other
/// level. ``ZoomMap`` answers from a whole timeline; a store can answer from persisted sections.
public protocol ZoomPhotoLookup {
    /// The photo (a position in capture order) at `indexPath` of `level`, which exists.
    func shownPhoto(at indexPath: GridIndexPath, in level: TimelineLevel) -> Int
    /// Where `photo` lands in `level`, and the photo shown there: itself, or at the coarse level,
    /// when the sample hides it, the shown photo of its section nearest in time.
    func landing(of photo: Int, in level: TimelineLevel) -> (GridIndexPath, Int)
}

/// Both levels' grids and the settings they were laid out with: the geometry of a zoom, apart
/// from which photos the cells show.
public struct ZoomGrids: Sendable {
    public let settings: ZoomSettings
    public let coarse: GridLayout
    public let fine: GridLayout

    /// Lays out sections of `coarseItems` and `fineItems` items.
    ///
    /// - Throws: ``ZoomError`` with code `invalidSettings` when the settings are out of range.
    public init(coarseItems: [Int], fineItems: [Int], settings: ZoomSettings) throws(ZoomError) {
        try settings.validate()
        self.init(
            settings: settings,
            coarse: GridLayout(level: .coarse, sectionCounts: coarseItems, metrics: settings.coarse, viewportWidth: settings.viewport.width),
            fine: GridLayout(level: .fine, sectionCounts: fineItems, metrics: settings.fine, viewportWidth: settings.viewport.width))
    }

    init(settings: ZoomSettings, coarse: GridLayout, fine: GridLayout) {
        self.settings = settings
        self.coarse = coarse
        self.fine = fine
    }

    /// The grid of `level`.
    public func layout(_ level: TimelineLevel) -> GridLayout {
        level == .coarse ? coarse : fine
    }

    /// Offsets the level can scroll to: `−top inset … max(−top inset, content height + bottom inset − viewport height)`.
    public func scrollRange(_ level: TimelineLevel) -> ClosedRange<Double> {
        let insets = settings.contentInsets
        let lower = -insets.top
        let upper = layout(level).contentHeight + insets.bottom - settings.viewport.height
        return lower...max(lower, upper)
    }

    /// Zoom from `level` to the other level, anchored on the cell at `indexPath` (see
    /// ``ZoomMap/zoom(from:at:contentOffsetY:)``).
    public func zoom(
        from level: TimelineLevel, at indexPath: GridIndexPath, contentOffsetY: Double, photos: some ZoomPhotoLookup
    ) throws(ZoomError) -> ZoomTransition {
        let source = layout(level)
        try source.validate(section: indexPath.section, item: indexPath.item)
        let photo = photos.shownPhoto(at: indexPath, in: level)
        let (targetPath, targetPhoto) = photos.landing(of: photo, in: level.other)
        let target = layout(level.other)
        let sourceFrame = source.uncheckedFrame(section: indexPath.section, item: indexPath.item)
        let targetFrame = target.uncheckedFrame(section: targetPath.section, item: targetPath.item)
        return ZoomTransition(
            from: LevelIndexPath(level: level, indexPath),
            to: LevelIndexPath(level: level.other, targetPath),
            sourcePhoto: photo,
            targetPhoto: targetPhoto,
            sourceFrame: sourceFrame,
            targetFrame: targetFrame,
            offset: AnchoredOffset(
                sourceMinY: sourceFrame.minY, sourceContentOffsetY: contentOffsetY,
                targetMinY: targetFrame.minY, scrollRange: scrollRange(level.other)))
    }

    /// The cell a pinch at `focalPoint` (viewport coordinates) anchors on.
    ///
    /// - Throws: ``ZoomError`` with code `focalPointOutsideViewport` or `emptyLevel`.
    /// - Complexity: O(log sections).
    public func pinchAnchor(from level: TimelineLevel, focalPoint: GridPoint, contentOffsetY: Double) throws(ZoomError) -> GridIndexPath {
        let viewport = settings.viewport
        guard (0...viewport.width).contains(focalPoint.x), (0...viewport.height).contains(focalPoint.y) else {
            throw ZoomError(
                code: .focalPointOutsideViewport, level: level,
                message: "the focal point (\(format(focalPoint.x)), \(format(focalPoint.y))) is outside the viewport: "
                    + "x must be 0–\(format(viewport.width)) and y 0–\(format(viewport.height))")
        }
        let point = GridPoint(x: focalPoint.x, y: contentOffsetY + focalPoint.y)
        guard let indexPath = layout(level).nearestIndexPath(to: point) else {
            throw ZoomError(code: .emptyLevel, level: level, message: "the \(level) level has no photos to zoom on")
        }
        return indexPath
    }

    /// The item of `shown` (ascending photo positions, not containing `photo`) nearest to `photo`
    /// in capture time; on a tie the earliest in capture order (time, then path).
    ///
    /// - Complexity: O(log k) for k shown photos (plus the photos taken at the same moment).
    public static func nearestShownItem(to photo: Int, shown: [Int], captureMilliseconds: (Int) -> Int64) -> Int {
        // First shown position after `photo`.
        let low = shown.partitionPoint { $0 >= photo }
        guard low > 0 else { return 0 }
        guard low < shown.count else { return shown.count - 1 }
        let time = captureMilliseconds(photo)
        let before = time - captureMilliseconds(shown[low - 1])
        let after = captureMilliseconds(shown[low]) - time
        guard before <= after else { return low }
        // Shown photos taken at the same moment: the first of them in capture order.
        var item = low - 1
        let earlier = captureMilliseconds(shown[item])
        while item > 0, captureMilliseconds(shown[item - 1]) == earlier { item -= 1 }
        return item
    }
}
