public import Timeline

/// The three levels of the packed timeline: one card per year, Overview (coarse sections) and
/// Days (fine sections).
public enum PackedLevel: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case years
    case coarse
    case fine

    public init(_ level: TimelineLevel) {
        self = level == .coarse ? .coarse : .fine
    }

    /// The timeline level of the sections, `nil` for years.
    public var timelineLevel: TimelineLevel? {
        switch self {
        case .years: nil
        case .coarse: .coarse
        case .fine: .fine
        }
    }

    /// The level a tap or a pinch in goes to: years → coarse → fine; fine stays.
    public var closer: PackedLevel { self == .years ? .coarse : .fine }
    /// The level a pinch out goes to: fine → coarse → years; years stays.
    public var wider: PackedLevel { self == .fine ? .coarse : .years }

    /// Where a zoom from this level goes when no target is named: years → coarse, coarse → fine,
    /// fine → coarse (the seed grid's two-level zoom, with years above).
    public var defaultTarget: PackedLevel { self == .fine ? .coarse : closer }

    public var description: String { rawValue }
}

/// Phone or desktop, by the viewport's width alone: `compact` below 600 points, else `regular`.
public enum ViewportClass: String, Sendable, Hashable, Codable, CaseIterable {
    case compact
    case regular

    /// Widths from 600 points up are `regular` (tablets and desktops).
    public static let regularFromWidth = 600.0

    public init(width: Double) {
        self = width < Self.regularFromWidth ? .compact : .regular
    }
}

/// The constants of one level in one viewport class: everything the packing needs besides the
/// counts, the groups and the width. All in points.
public struct PackedMetrics: Sendable, Hashable, Codable {
    /// The cell side the column count aims at.
    public var targetCell: Double
    /// Gap between cells, horizontally and vertically, and between lines.
    public var spacing: Double
    /// Height of the label line above each packed line; 0 lays each block's label over its photos.
    public var labelHeight: Double
    /// Height of the label laid over a block's first row when `labelHeight` is 0 (never taller
    /// than the block).
    public var overlayLabelHeight: Double
    /// Height of a strip below each line's cells (the Years level's month strip), else 0.
    public var footerHeight: Double

    public init(targetCell: Double, spacing: Double, labelHeight: Double, overlayLabelHeight: Double = 0, footerHeight: Double = 0) {
        self.targetCell = targetCell
        self.spacing = spacing
        self.labelHeight = labelHeight
        self.overlayLabelHeight = overlayLabelHeight
        self.footerHeight = footerHeight
    }

    /// The table of ``PackedLayout``: per level and viewport class (`overlayLabelHeight` only
    /// matters where `labelHeight` is 0).
    ///
    /// | level | class | targetCell | spacing | labelHeight | overlayLabelHeight | footerHeight |
    /// |---|---|---|---|---|---|---|
    /// | years | compact | 116 | 8 | 22 | 0 | 18 |
    /// | years | regular | 200 | 12 | 26 | 0 | 22 |
    /// | coarse | compact | 39 | 1 | 14 | 0 | 0 |
    /// | coarse | regular | 110 | 2 | 20 | 0 | 0 |
    /// | fine | compact | 96 | 1.5 | 22 | 0 | 0 |
    /// | fine | regular | 200 | 4 | 0 | 28 | 0 |
    ///
    /// A 390-point phone gets the seed's 10 Overview and 4 Days columns (cells 38.1 and 96.375)
    /// with a label line above each packed line; a 1440-point desktop 13 Overview columns of
    /// 108.92 (label line above) and 7 Days columns of 202.29, whose labels lie over the photos'
    /// top edge (a label line there would cost a tenth of the height of a 202-point row).
    public static func standard(_ level: PackedLevel, _ viewportClass: ViewportClass) -> PackedMetrics {
        switch (level, viewportClass) {
        case (.years, .compact): PackedMetrics(targetCell: 116, spacing: 8, labelHeight: 22, footerHeight: 18)
        case (.years, .regular): PackedMetrics(targetCell: 200, spacing: 12, labelHeight: 26, footerHeight: 22)
        case (.coarse, .compact): PackedMetrics(targetCell: 39, spacing: 1, labelHeight: 14)
        case (.coarse, .regular): PackedMetrics(targetCell: 110, spacing: 2, labelHeight: 20)
        case (.fine, .compact): PackedMetrics(targetCell: 96, spacing: 1.5, labelHeight: 22)
        case (.fine, .regular): PackedMetrics(targetCell: 200, spacing: 4, labelHeight: 0, overlayLabelHeight: 28)
        }
    }
}
