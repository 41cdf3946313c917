public import Timeline
public import ZoomMapping

/// A level's grid for one viewport, as `/api/layout` answers it: enough for a viewer to place
/// every header and cell without a layout pass of its own.
public struct LayoutJSON: Encodable, Sendable {
    public struct Section: Encodable, Sendable {
        /// Top of the section's header, in content coordinates.
        public var y: Double
        /// Header plus rows plus insets.
        public var height: Double
        /// Cells in the section (the shown photos at the coarse level).
        public var items: Int
    }

    public var level: String
    public var viewportWidth: Double
    public var viewportHeight: Double
    public var columns: Int
    public var cellSide: Double
    public var spacing: Double
    public var lineSpacing: Double
    public var headerHeight: Double
    public var sectionInsets: [String: Double]
    public var contentInsetTop: Double
    public var contentInsetBottom: Double
    /// Sum of the section heights (content insets not included).
    public var contentHeight: Double
    public var sections: [Section]

    public init(level: TimelineLevel, map: ZoomMap) {
        let layout = map.layout(level)
        let metrics = layout.metrics
        self.level = level.rawValue
        viewportWidth = map.settings.viewport.width
        viewportHeight = map.settings.viewport.height
        columns = metrics.columns
        cellSide = layout.cellSide
        spacing = metrics.itemSpacing
        lineSpacing = metrics.lineSpacing
        headerHeight = metrics.headerHeight
        sectionInsets = ["top": metrics.sectionInsets.top, "left": metrics.sectionInsets.left,
                         "bottom": metrics.sectionInsets.bottom, "right": metrics.sectionInsets.right]
        contentInsetTop = map.settings.contentInsets.top
        contentInsetBottom = map.settings.contentInsets.bottom
        contentHeight = layout.contentHeight
        sections = (0..<layout.sectionCount).map { index in
            let top = layout.sectionTop(index)
            return Section(y: top, height: layout.sectionTop(index + 1) - top, items: layout.sectionCounts[index])
        }
    }
}
