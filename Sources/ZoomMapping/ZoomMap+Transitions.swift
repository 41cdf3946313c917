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
        try grids.zoom(from: level, at: indexPath, contentOffsetY: contentOffsetY, photos: self)
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
        let indexPath = try grids.pinchAnchor(from: level, focalPoint: focalPoint, contentOffsetY: contentOffsetY)
        return try zoom(from: level, at: indexPath, contentOffsetY: contentOffsetY)
    }

    /// Both grids, for the zoom arithmetic shared with other photo lookups.
    var grids: ZoomGrids { ZoomGrids(settings: settings, coarse: coarse, fine: fine) }
}

extension ZoomMap: ZoomPhotoLookup {
    public func shownPhoto(at indexPath: GridIndexPath, in level: TimelineLevel) -> Int {
        uncheckedPhoto(at: indexPath, in: level)
    }

    public func landing(of photo: Int, in level: TimelineLevel) -> (GridIndexPath, Int) {
        let fineSection = Int(fineSectionOfPhoto[photo])
        switch level {
        case .fine:
            let item = photo - timeline.fineSections[fineSection].photoRange.lowerBound
            return (GridIndexPath(section: fineSection, item: item), photo)
        case .coarse:
            let section = timeline.fineSections[fineSection].coarseSection
            let item = Int(coarseItemOfPhoto[photo])
            if item >= 0 { return (GridIndexPath(section: section, item: item), photo) }
            let shown = timeline.coarseSections[section].shown
            let nearest = ZoomGrids.nearestShownItem(to: photo, shown: shown, captureMilliseconds: timeline.captureMilliseconds(ofPhoto:))
            return (GridIndexPath(section: section, item: nearest), shown[nearest])
        }
    }
}
