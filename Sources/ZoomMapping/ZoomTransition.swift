/// The answer to a zoom: where the photo is in the other level and where to scroll. `Path` names
/// a cell: ``LevelIndexPath`` in the seed grid (``ZoomTransition``), ``PackedIndexPath`` between
/// packed levels (``PackedTransition``).
public struct GridTransition<Path: Sendable & Hashable>: Sendable, Hashable {
    /// The tapped (or focal) cell.
    public let from: Path
    /// The cell to show in the other level.
    public let to: Path
    /// Position in ``PhotoTimeline/photos`` of the photo at `from`.
    public let sourcePhoto: Int
    /// Position in ``PhotoTimeline/photos`` of the photo at `to`; differs from `sourcePhoto` only
    /// when zooming out from a photo the coarser level does not show.
    public let targetPhoto: Int
    /// Frames in each level's content coordinates.
    public let sourceFrame: GridRect
    public let targetFrame: GridRect
    /// The scroll offsets.
    public let offset: AnchoredOffset

    /// The offset to scroll the target level to (clamped to its scroll range).
    public var contentOffsetY: Double { offset.contentOffsetY }
    /// Whether clamping moved it; then the photo does not stay at the same height.
    public var clamped: Bool { offset.clamped }
    /// The offset that would keep the photo exactly in place.
    public var unclampedContentOffsetY: Double { offset.unclampedContentOffsetY }
    /// The source cell's minY on screen (viewport coordinates) before the zoom.
    public var sourceViewportY: Double { offset.anchorY }
    /// The target cell's minY on screen after the zoom; equals `sourceViewportY` unless clamped
    /// (or shifted: a packed zoom from years keeps the cells' centres level instead).
    public var targetViewportY: Double { targetFrame.minY - offset.contentOffsetY }
    /// Whether `to` shows the same photo as `from`.
    public var isSamePhoto: Bool { sourcePhoto == targetPhoto }
}

/// A zoom between the seed grid's two levels.
public typealias ZoomTransition = GridTransition<LevelIndexPath>
