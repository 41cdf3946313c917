public import Foundation

/// A vertical grid of square photo cells in sections, each under a header, as in MiniPhotos.
///
/// Rows are packed from the left; every section has a header, empty ones included. Section
/// insets are 0. MiniPhotos uses two such grids: ``clusters(width:)`` (10 per row, no spacing)
/// and ``moments(width:)`` (4 per row, 1.5 pt spacing); see ``MiniPhotosZoom`` for the
/// transition between them.
public struct MiniPhotosGrid: Sendable, Hashable {
    /// Cells per row, at least 1.
    public let columns: Int
    /// Gap between rows and between cells of a row, in points.
    public var spacing: CGFloat
    /// Height of a section header, in points (50).
    public var headerHeight: CGFloat
    /// Width of the grid (the screen), in points.
    public var width: CGFloat

    /// Creates a grid; fewer than one column counts as one.
    public init(columns: Int, spacing: CGFloat, headerHeight: CGFloat = 50, width: CGFloat) {
        self.columns = max(1, columns)
        self.spacing = spacing
        self.headerHeight = headerHeight
        self.width = width
    }

    /// MiniPhotos' moment-cluster grid ("A"): 10 cells per row, no spacing.
    public static func clusters(width: CGFloat) -> MiniPhotosGrid {
        MiniPhotosGrid(columns: 10, spacing: 0, width: width)
    }

    /// MiniPhotos' moment grid ("B"): 4 cells per row, 1.5 pt spacing.
    public static func moments(width: CGFloat) -> MiniPhotosGrid {
        MiniPhotosGrid(columns: 4, spacing: 1.5, width: width)
    }

    /// Side of a square cell: the width less the gaps, shared by the columns.
    public var cellSide: CGFloat {
        (width - CGFloat(columns - 1) * spacing) / CGFloat(columns)
    }

    /// Number of rows for `itemCount` items.
    public func rowCount(itemCount: Int) -> Int {
        itemCount <= 0 ? 0 : (itemCount + columns - 1) / columns
    }

    /// Height of a section with its header.
    public func sectionHeight(itemCount: Int) -> CGFloat {
        let rows = rowCount(itemCount: itemCount)
        guard rows > 0 else { return headerHeight }
        return headerHeight + (CGFloat(rows) * cellSide + CGFloat(rows - 1) * spacing)
    }

    /// The frame of an item, in content coordinates.
    ///
    /// - Parameter sectionCounts: the number of items of every section, in order.
    /// - Complexity: O(*section*).
    public func itemFrame(at indexPath: GridIndexPath, sectionCounts: [Int]) -> CGRect {
        let cell = cellSide
        var sectionTop: CGFloat = 0
        for count in sectionCounts.prefix(max(0, indexPath.section)) {
            sectionTop += sectionHeight(itemCount: count)
        }
        let row = indexPath.item / columns
        let column = indexPath.item % columns
        let minY = sectionTop + headerHeight + CGFloat(row) * (cell + spacing)
        let minX = CGFloat(column) * (cell + spacing)
        return CGRect(x: minX, y: minY, width: cell, height: cell)
    }

    /// Height of the whole content: every section with its header.
    public func contentHeight(sectionCounts: [Int]) -> CGFloat {
        var height: CGFloat = 0
        for count in sectionCounts {
            height += sectionHeight(itemCount: count)
        }
        return height
    }
}
