public import Foundation

/// A Spotify-style cover carousel: square cells in a horizontal row, scaled down and faded with
/// their distance to the centre, snapping to the biggest cell when dragging ends.
///
/// Cells are `side` points square (`side` = the collection view's height), separated by
/// ``Configuration/lineSpacing``, with a content inset of ``contentInset`` on both sides so the
/// first and last cells can reach the centre.
public struct CoverCarousel: Sendable, Hashable {
    /// Constants of the scale and fade.
    public struct Configuration: Sendable, Hashable {
        /// Gap between cells, in points (10).
        public var lineSpacing: CGFloat
        /// Scale headroom above 1 before clamping, so a band around the centre stays at 1 (0.02).
        public var scaleTolerance: CGFloat
        /// Scale lost per unit of distance / centre x (0.105).
        public var scaleFactor: CGFloat
        /// Smallest scale (0.860091).
        public var minimumScale: CGFloat
        /// Scale that maps to ``minimumAlpha`` (0.86); scale 1 maps to alpha 1, linearly and
        /// unclamped.
        public var alphaScaleFloor: CGFloat
        /// Alpha at ``alphaScaleFloor`` (0.25).
        public var minimumAlpha: CGFloat

        /// Creates a configuration; the defaults are the tutorial's.
        public init(
            lineSpacing: CGFloat = 10,
            scaleTolerance: CGFloat = 0.02,
            scaleFactor: CGFloat = 0.105,
            minimumScale: CGFloat = 0.860091,
            alphaScaleFloor: CGFloat = 0.86,
            minimumAlpha: CGFloat = 0.25
        ) {
            self.lineSpacing = lineSpacing
            self.scaleTolerance = scaleTolerance
            self.scaleFactor = scaleFactor
            self.minimumScale = minimumScale
            self.alphaScaleFloor = alphaScaleFloor
            self.minimumAlpha = minimumAlpha
        }
    }

    /// The appearance of one visible cell.
    public struct Cell: Sendable, Hashable {
        /// The cell's index.
        public var index: Int
        /// Centre x in the superview's coordinates (the layout centre, not the scaled one).
        public var centerX: CGFloat
        /// Distance from the carousel's centre, in points.
        public var distance: CGFloat
        /// Scale to apply about the cell's centre.
        public var scale: CGFloat
        /// Opacity.
        public var alpha: CGFloat
        /// Width of the scaled cell: `side × scale`.
        public var frameWidth: CGFloat
        /// The unscaled frame, in content coordinates.
        public var frame: CGRect
    }

    /// The result of one scroll update.
    public struct Step: Sendable, Hashable {
        /// The carousel's centre x in the superview's coordinates.
        public var centerX: CGFloat
        /// The visible cells, in index order.
        public var cells: [Cell]
        /// The widest visible cell (first wins ties; 0 when none is wider than 1 pt): snap to it
        /// when dragging ends.
        public var snapIndex: Int
    }

    /// Side of a square cell, in points.
    public var side: CGFloat
    /// Width of the collection view, in points.
    public var viewWidth: CGFloat
    /// The collection view's x in its superview, in points.
    public var originX: CGFloat
    /// The number of cells.
    public var count: Int
    /// Spacing and fade constants.
    public var configuration: Configuration

    /// Creates a carousel of `count` cells of `side` points in a view `viewWidth` wide.
    public init(
        side: CGFloat,
        viewWidth: CGFloat,
        originX: CGFloat = 0,
        count: Int,
        configuration: Configuration = Configuration()
    ) {
        self.side = side
        self.viewWidth = viewWidth
        self.originX = originX
        self.count = count
        self.configuration = configuration
    }

    /// Left and right content inset: half the view minus half a cell.
    public var contentInset: CGFloat { (viewWidth - side) / 2 }

    /// Width of the content, insets excluded.
    public var contentWidth: CGFloat {
        CGFloat(count) * side + CGFloat(max(0, count - 1)) * configuration.lineSpacing
    }

    /// Centre x of cell `index`, in content coordinates.
    public func cellCenterX(at index: Int) -> CGFloat {
        CGFloat(index) * (side + configuration.lineSpacing) + side / 2
    }

    /// Scale and alpha of a cell `distance` points from a centre at `centerX`.
    ///
    /// The scale is capped at 1 and floored at ``Configuration/minimumScale``; the alpha follows
    /// the scale linearly.
    public func scaleAndAlpha(distance: CGFloat, centerX: CGFloat) -> (scale: CGFloat, alpha: CGFloat) {
        let c = configuration
        var scale = 1 + c.scaleTolerance - distance / centerX * c.scaleFactor
        if scale > 1 {
            scale = 1
        }
        if scale < c.minimumScale {
            scale = c.minimumScale
        }
        let alpha = ((1 - c.minimumAlpha) * (scale - c.alphaScaleFloor)) / (1 - c.alphaScaleFloor) + c.minimumAlpha
        return (scale, alpha)
    }

    /// Scale, alpha and snap target of the visible cells for a content offset.
    ///
    /// A cell is visible when it overlaps the view's bounds.
    /// - Complexity: O(*n*).
    public func step(contentOffsetX: CGFloat) -> Step {
        let centerX = originX + viewWidth / 2
        var cells: [Cell] = []
        var best = 0
        var bestWidth: CGFloat = 1
        for index in 0..<max(0, count) {
            let contentCenter = cellCenterX(at: index)
            let left = contentCenter - side / 2 - contentOffsetX
            guard left + side > 0, left < viewWidth else { continue }
            let cellCenterX = originX + contentCenter - contentOffsetX
            let distance = abs(cellCenterX - centerX)
            let (scale, alpha) = scaleAndAlpha(distance: distance, centerX: centerX)
            let frameWidth = side * scale
            if frameWidth > bestWidth {
                best = index
                bestWidth = frameWidth
            }
            cells.append(Cell(
                index: index,
                centerX: cellCenterX,
                distance: distance,
                scale: scale,
                alpha: alpha,
                frameWidth: frameWidth,
                frame: GalleryMath.frame(centerX: contentCenter, centerY: side / 2, width: side, height: side)
            ))
        }
        return Step(centerX: centerX, cells: cells, snapIndex: best)
    }

    /// The content offset that centres cell `index`, clamped to the scroll range.
    public func snapOffsetX(forIndex index: Int) -> CGFloat {
        let inset = contentInset
        return GalleryMath.clamp(cellCenterX(at: index) - viewWidth / 2, -inset, contentWidth + inset - viewWidth)
    }

    /// Where to scroll when dragging ends at `contentOffsetX`: the widest visible cell centred.
    public func snapOffsetX(afterDragEndingAt contentOffsetX: CGFloat) -> CGFloat {
        snapOffsetX(forIndex: step(contentOffsetX: contentOffsetX).snapIndex)
    }
}
