public import ZoomMapping

/// A packed level for one viewport, as `/api/layout?packed=1` answers it: the packing's
/// constants and every block, so a viewer can check its own packing against the server's.
public struct PackedLayoutJSON: Encodable, Sendable {
    /// One section's block: cells from (`x`, `y`), `columns` × `rows` cells of `cellSide`; its
    /// label `(x, labelY, width, labelHeight)`.
    public struct Block: Encodable, Sendable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
        public var columns: Int
        public var rows: Int
        public var line: Int
        public var items: Int
        public var labelY: Double
        public var labelHeight: Double
    }

    public var level: String
    public var packed = true
    public var viewportWidth: Double
    public var viewportHeight: Double
    /// `compact` (below 600 points) or `regular`.
    public var viewportClass: String
    public var columns: Int
    public var cellSide: Double
    public var spacing: Double
    /// The label line's height (0: labels laid over the photos).
    public var labelHeight: Double
    public var labelOverlaid: Bool
    public var footerHeight: Double
    public var contentInsetTop: Double
    public var contentInsetBottom: Double
    public var contentHeight: Double
    public var lines: Int
    public var sections: [Block]

    public init(level: PackedLevel, map: PackedZoomMap) {
        let layout = map.layout(level)
        let m = layout.metrics
        self.level = level.rawValue
        viewportWidth = map.viewport.width
        viewportHeight = map.viewport.height
        viewportClass = ViewportClass(width: map.viewport.width).rawValue
        columns = layout.columns
        cellSide = layout.cellSide
        spacing = m.spacing
        labelHeight = m.labelHeight
        labelOverlaid = m.labelHeight == 0
        footerHeight = m.footerHeight
        contentInsetTop = map.contentInsets.top
        contentInsetBottom = map.contentInsets.bottom
        contentHeight = layout.contentHeight
        lines = layout.lineCount
        sections = (0..<layout.sectionCount).map { section in
            let b = try! layout.block(section)
            return Block(
                x: b.frame.minX, y: b.frame.minY, width: b.frame.width, height: b.frame.height, columns: b.columns, rows: b.rows,
                line: b.line, items: layout.sectionCounts[section], labelY: b.labelFrame.minY, labelHeight: b.labelFrame.height)
        }
    }
}
