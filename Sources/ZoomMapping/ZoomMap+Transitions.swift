public import GalleryLayout
public import Timeline

extension ZoomMap {
    /// Zoom in: the tapped coarse cell's photo in the fine level, scrolled so it stays at the same
    /// height on screen (clamped to the fine scroll range).
    public func zoomIn(from indexPath: GridIndexPath, contentOffsetY: Double) throws(ZoomError) -> ZoomTransition {
        try zoom(from: .coarse, at: indexPath, contentOffsetY: contentOffsetY)
    }

    /// Zoom out: the fine cell's photo in the coarse level when the sample shows it, otherwise the
    /// shown photo of the same coarse section nearest in capture time (the earlier on a tie).
    public func zoomOut(from indexPath: GridIndexPath, contentOffsetY: Double) throws(ZoomError) -> ZoomTransition {
        try zoom(from: .fine, at: indexPath, contentOffsetY: contentOffsetY)
    }

    /// Zoom from `level` to the other level, anchored on the cell at `indexPath`.
    ///
    /// - Parameter contentOffsetY: the source level's current content offset.
    /// - Throws: ``ZoomError`` naming the valid range when the section or item does not exist.
    /// - Complexity: O(log k) for a zoom out to an unsampled photo (k ≤ shown items), else O(1).
    public func zoom(from level: TimelineLevel, at indexPath: GridIndexPath, contentOffsetY: Double) throws(ZoomError) -> ZoomTransition {
        let source = layout(level)
        try source.validate(section: indexPath.section, item: indexPath.item)
        let photo = uncheckedPhoto(at: indexPath, in: level)
        let (targetPath, targetPhoto) = target(of: photo, in: level.other)
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

    /// Pinch from `level`: the item under (or nearest to) `focalPoint` keeps its height on screen.
    ///
    /// - Parameters:
    ///   - focalPoint: the pinch centre in viewport coordinates (y = 0 at the top of the viewport).
    ///   - contentOffsetY: the source level's current content offset.
    /// - Throws: ``ZoomError`` with code `focalPointOutsideViewport` when the focal point is not
    ///   in the viewport, `emptyLevel` when there is no photo to anchor on.
    /// - Complexity: O(log sections).
    public func pinch(from level: TimelineLevel, focalPoint: GridPoint, contentOffsetY: Double) throws(ZoomError) -> ZoomTransition {
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
        return try zoom(from: level, at: indexPath, contentOffsetY: contentOffsetY)
    }

    /// Where `photo` goes in `level`, and the photo actually shown there.
    private func target(of photo: Int, in level: TimelineLevel) -> (GridIndexPath, Int) {
        let fineSection = Int(fineSectionOfPhoto[photo])
        switch level {
        case .fine:
            let item = photo - timeline.fineSections[fineSection].photoRange.lowerBound
            return (GridIndexPath(section: fineSection, item: item), photo)
        case .coarse:
            let section = timeline.fineSections[fineSection].coarseSection
            let item = Int(coarseItemOfPhoto[photo])
            if item >= 0 { return (GridIndexPath(section: section, item: item), photo) }
            let nearest = nearestShownItem(to: photo, shown: timeline.coarseSections[section].shown)
            return (GridIndexPath(section: section, item: nearest), timeline.coarseSections[section].shown[nearest])
        }
    }

    /// The item of `shown` (ascending photo positions, not containing `photo`) nearest to `photo`
    /// in capture time; on a tie the earliest in capture order (time, then path).
    private func nearestShownItem(to photo: Int, shown: [Int]) -> Int {
        // First shown position after `photo`.
        var low = 0
        var high = shown.count
        while low < high {
            let mid = (low + high) / 2
            if shown[mid] < photo { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return 0 }
        guard low < shown.count else { return shown.count - 1 }
        let time = timeline.captureMilliseconds(ofPhoto: photo)
        let before = time - timeline.captureMilliseconds(ofPhoto: shown[low - 1])
        let after = timeline.captureMilliseconds(ofPhoto: shown[low]) - time
        guard before <= after else { return low }
        // Shown photos taken at the same moment: the first of them in capture order.
        var item = low - 1
        let earlier = timeline.captureMilliseconds(ofPhoto: shown[item])
        while item > 0, timeline.captureMilliseconds(ofPhoto: shown[item - 1]) == earlier { item -= 1 }
        return item
    }
}
