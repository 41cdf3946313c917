public import Timeline

/// The geometry of one level's grid: square cells in rows, a header above every section.
///
/// JSON keys, all optional: `columns`, `itemSpacing`, `lineSpacing`, `headerHeight`,
/// `sectionInsets` (`top`, `left`, `bottom`, `right`). Inside ``ZoomSettings`` missing keys take the
/// level's defaults (``coarse`` or ``fine``); a `GridMetrics` decoded on its own takes ``fine``'s.
public struct GridMetrics: Sendable, Hashable, Codable {
    /// Cells per row.
    public var columns: Int
    /// Horizontal gap between cells of a row.
    public var itemSpacing: Double
    /// Vertical gap between rows.
    public var lineSpacing: Double
    /// Height of the header above every section.
    public var headerHeight: Double
    /// Space around each section's cells (below its header).
    public var sectionInsets: SectionInsets

    public init(
        columns: Int, itemSpacing: Double, lineSpacing: Double, headerHeight: Double = 50,
        sectionInsets: SectionInsets = SectionInsets()
    ) {
        self.columns = columns
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.headerHeight = headerHeight
        self.sectionInsets = sectionInsets
    }

    /// 10 columns, no spacing, 50-pt headers (MiniPhotos' grid A).
    public static let coarse = GridMetrics(columns: 10, itemSpacing: 0, lineSpacing: 0)
    /// 4 columns, 1.5-pt spacing, 50-pt headers (MiniPhotos' grid B).
    public static let fine = GridMetrics(columns: 4, itemSpacing: 1.5, lineSpacing: 1.5)

    /// The default metrics of `level`.
    public static func defaults(for level: TimelineLevel) -> GridMetrics {
        level == .coarse ? .coarse : .fine
    }

    /// Side of a square cell: (width − left − right insets − (columns − 1)·itemSpacing) / columns.
    public func cellSide(viewportWidth: Double) -> Double {
        (viewportWidth - sectionInsets.left - sectionInsets.right - Double(columns - 1) * itemSpacing) / Double(columns)
    }

    private enum CodingKeys: String, CodingKey {
        case columns, itemSpacing, lineSpacing, headerHeight, sectionInsets
    }

    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, defaults: .fine)
    }

    /// Decodes, taking every missing key from `defaults`.
    init(from decoder: any Decoder, defaults: GridMetrics) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            columns: try c.decodeIfPresent(Int.self, forKey: .columns) ?? defaults.columns,
            itemSpacing: try c.decodeIfPresent(Double.self, forKey: .itemSpacing) ?? defaults.itemSpacing,
            lineSpacing: try c.decodeIfPresent(Double.self, forKey: .lineSpacing) ?? defaults.lineSpacing,
            headerHeight: try c.decodeIfPresent(Double.self, forKey: .headerHeight) ?? defaults.headerHeight,
            sectionInsets: try c.decodeIfPresent(SectionInsets.self, forKey: .sectionInsets) ?? defaults.sectionInsets)
    }
}

/// Space around a section's cells. JSON keys `top`, `left`, `bottom`, `right`, each optional (0).
public struct SectionInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    private enum CodingKeys: String, CodingKey {
        case top, left, bottom, right
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            top: try c.decodeIfPresent(Double.self, forKey: .top) ?? 0,
            left: try c.decodeIfPresent(Double.self, forKey: .left) ?? 0,
            bottom: try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0,
            right: try c.decodeIfPresent(Double.self, forKey: .right) ?? 0)
    }
}

/// Space above and below the scrolled content, e.g. a 64-pt navigation bar on top.
/// JSON keys `top`, `bottom`, each optional (0).
public struct ContentInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var bottom: Double

    public init(top: Double = 0, bottom: Double = 0) {
        self.top = top
        self.bottom = bottom
    }

    private enum CodingKeys: String, CodingKey {
        case top, bottom
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            top: try c.decodeIfPresent(Double.self, forKey: .top) ?? 0,
            bottom: try c.decodeIfPresent(Double.self, forKey: .bottom) ?? 0)
    }
}

/// The visible area's size in points. JSON keys `width`, `height`, each optional (390 × 844).
public struct ViewportSize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double = 390, height: Double = 844) {
        self.width = width
        self.height = height
    }

    private enum CodingKeys: String, CodingKey {
        case width, height
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            width: try c.decodeIfPresent(Double.self, forKey: .width) ?? 390,
            height: try c.decodeIfPresent(Double.self, forKey: .height) ?? 844)
    }
}
