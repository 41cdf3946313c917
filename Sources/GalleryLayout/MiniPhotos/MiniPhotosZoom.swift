public import Foundation

/// The zoom transition of MiniPhotos between the cluster grid and the moment grid.
public struct MiniPhotosZoom: Sendable, Hashable {
    /// Where the moment grid opens.
    public struct ZoomIn: Sendable, Hashable {
        /// Top of the tapped cell in the cluster grid, in content coordinates.
        public var sourceMinY: CGFloat
        /// Top of the tapped cell in the visible area: `sourceMinY − content offset`.
        public var visibleMinY: CGFloat
        /// Top of the same photo's cell in the moment grid, in content coordinates.
        public var targetMinY: CGFloat
        /// The moment grid's content offset (not clamped): the photo at the same height.
        public var contentOffsetY: CGFloat
    }

    /// How far a cluster cell flies out of the visible bounds.
    public struct PushOut: Sendable, Hashable {
        /// Length of the displacement, a multiple of the step.
        public var magnitude: CGFloat
        /// Horizontal displacement.
        public var dx: CGFloat
        /// Vertical displacement.
        public var dy: CGFloat
    }

    /// The grid zoomed out of ("A").
    public var clusters: MiniPhotosGrid
    /// The grid zoomed into ("B").
    public var moments: MiniPhotosGrid

    /// Pairs the two grids of a screen `width` points wide.
    public init(width: CGFloat) {
        self.init(clusters: .clusters(width: width), moments: .moments(width: width))
    }

    /// Pairs two grids.
    public init(clusters: MiniPhotosGrid, moments: MiniPhotosGrid) {
        self.clusters = clusters
        self.moments = moments
    }

    /// The moment grid's content offset that shows the tapped photo at the height it had in the
    /// cluster grid.
    ///
    /// The result is not clamped to the scroll range, so the photo never jumps.
    public func zoomIn(
        from source: GridIndexPath,
        clusterCounts: [Int],
        contentOffsetY: CGFloat,
        to target: GridIndexPath,
        momentCounts: [Int]
    ) -> ZoomIn {
        let sourceMinY = clusters.itemFrame(at: source, sectionCounts: clusterCounts).minY
        let visibleMinY = sourceMinY - contentOffsetY
        let targetMinY = moments.itemFrame(at: target, sectionCounts: momentCounts).minY
        return ZoomIn(
            sourceMinY: sourceMinY,
            visibleMinY: visibleMinY,
            targetMinY: targetMinY,
            contentOffsetY: targetMinY - visibleMinY
        )
    }

    /// The displacement that takes a cell from `start` out of `boundary`, away from a reference
    /// cell.
    ///
    /// The cell walks in `step`-point steps along `pointer`'s direction (rightward for a zero
    /// pointer) while `boundary` contains it (`minX ≤ x < maxX`, `minY ≤ y < maxY`).
    /// - Parameters:
    ///   - boundary: the visible bounds, in content coordinates.
    ///   - pointer: cell centre minus reference cell centre.
    ///   - start: the cell's centre.
    ///   - step: the walking step, in points (10); a step of 0 or less gives no displacement.
    public static func pushOut(boundary: CGRect, pointer: CGPoint, start: CGPoint, step: CGFloat = 10) -> PushOut {
        let angle = pointer.x == 0 && pointer.y == 0 ? 0 : atan2(Double(pointer.y), Double(pointer.x))
        let cosine = CGFloat(cos(angle))
        let sine = CGFloat(sin(angle))
        guard step > 0 else { return PushOut(magnitude: 0, dx: 0, dy: 0) }
        let stepX = step * cosine
        let stepY = step * sine
        let minX = boundary.origin.x
        let minY = boundary.origin.y
        let maxX = minX + boundary.size.width
        let maxY = minY + boundary.size.height
        var point = start
        var total: CGFloat = 0
        while minX <= point.x, point.x < maxX, minY <= point.y, point.y < maxY {
            let next = CGPoint(x: point.x + stepX, y: point.y + stepY)
            if next == point { break }
            point = next
            total += step
        }
        return PushOut(magnitude: total, dx: total * cosine, dy: total * sine)
    }
}
