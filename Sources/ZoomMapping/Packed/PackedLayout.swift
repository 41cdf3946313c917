public import GalleryLayout

/// One level of the packed timeline for one width: square cells in columns that follow the width,
/// small sections side by side in packed lines, a compact label line above each line.
///
/// ## The packing (the viewer's JavaScript mirrors it step for step)
///
/// Inputs: the level, the width `W` (1…100,000 points), and per section, in date order, its shown
/// item count `n ≥ 0` and its group (coarse: the year of its first day; fine: year·12 + month − 1;
/// years: 0 — see ``group(_:firstDay:)``). With the metrics `m` of the level and the width's
/// ``ViewportClass`` (``PackedMetrics/standard(_:_:)``), `g = m.spacing`, `L = m.labelHeight`,
/// `F = m.footerHeight`:
///
/// 1. `C = max(1, floor((W + g) / (m.targetCell + g) + 0.5))` columns;
///    `cell = (W − (C − 1)·g) / C`; `pitch = cell + g`.
/// 2. Each section is a block of `cols = min(n, C)` columns and `rows = ceil(n / C)` rows.
/// 3. Greedy, in order: a block joins the open line when the line exists, the block and the line
///    are both at most one row, `used + max(cols, 1) ≤ C` (whole columns, no floating point; an
///    empty section needs a free column, so its zero-width block never sits past the right edge),
///    and the group is the previous section's — or, at the fine level only, the previous
///    section's month is *sparse*: of the same year (`floor(group / 12)` equal) and its sections'
///    items total less than `C` (less than one row). It then starts at column `used`, and `used`
///    grows by `cols`.
///    Otherwise it opens a new line at column 0 whose row count is `max(1, rows)`. A section of
///    `C` or more items therefore has full lines of its own; a year (coarse, fine) always starts a
///    line, and so does a month (fine) after a month of a row or more.
/// 4. Lines stack: the first line's top is 0, each next one `top + height + g`, where a line's
///    height is `L + r·cell + (r − 1)·g + F` for its `r` rows. The content height is the last
///    line's `top + height` (0 without sections).
/// 5. A block's cells start at `x = column·pitch`, `y = lineTop + L`; item `i` is at
///    `x + (i mod cols)·pitch`, `y + floor(i / cols)·pitch`, `cell` square. The block's frame is
///    `cols·cell + (cols − 1)·g` wide (0 for an empty section) and `rows·cell + (rows − 1)·g` high.
/// 6. Its label is the band `(x, lineTop, block width, L)` when `L > 0`, else laid over its first
///    row: `(x, y, block width, min(m.overlayLabelHeight, block height))`. Labels never overlap:
///    each is no wider than its own block. The Years level's month strip is `(x, y + block
///    height, block width, F)`.
///
/// Every operation is a plain IEEE-754 double `+ − × ÷` in the order written (or integer column
/// arithmetic), so JavaScript gets the same bits. Positions depend on counts, groups and width only.
///
/// - Complexity: building is O(sections) time and memory; frames O(1); point queries
///   O(log lines + blocks in a line).
public struct PackedLayout: Sendable {
    public let level: PackedLevel
    public let width: Double
    public let metrics: PackedMetrics
    /// Shown items per section.
    public let sectionCounts: [Int]
    public let columns: Int
    public let cellSide: Double
    /// Sum of the lines' heights and the gaps between them.
    public let contentHeight: Double
    /// Per section: its line, first column, columns and rows.
    let blocks: [Slot]
    /// Per line: its top and its row count; blocks of a line are consecutive.
    let lineTops: [Double]
    let lineRows: [Int32]
    /// Per line: its first block (section); one more entry, the section count.
    let lineFirstBlocks: [Int32]

    struct Slot: Sendable {
        var line: Int32
        var column: Int32
        var columns: Int32
        var rows: Int32
    }

    /// Widths the packing accepts, in points.
    public static let widthRange = 1.0...100_000.0

    /// Packs sections of `counts` items whose groups are `groups` (same length) into `width`.
    ///
    /// - Parameter metrics: the level's constants; by default the table of
    ///   ``PackedMetrics/standard(_:_:)`` for `width`'s class.
    /// - Throws: ``ZoomError`` with code `invalidSettings` for a width outside 1…100,000 points,
    ///   a negative count, mismatched arrays or metrics that leave no room.
    public init(level: PackedLevel, counts: [Int], groups: [Int], width: Double, metrics: PackedMetrics? = nil) throws(ZoomError) {
        guard width.isFinite, Self.widthRange.contains(width) else {
            throw ZoomError(code: .invalidSettings, level: level.timelineLevel,
                            message: "the width must be 1 to 100000 points (got \(format(width)))")
        }
        guard counts.count == groups.count else {
            throw ZoomError(code: .invalidSettings, level: level.timelineLevel,
                            message: "\(counts.count) section counts but \(groups.count) groups")
        }
        let m = metrics ?? .standard(level, ViewportClass(width: width))
        for (name, value) in [("targetCell", m.targetCell), ("spacing", m.spacing), ("labelHeight", m.labelHeight),
                              ("overlayLabelHeight", m.overlayLabelHeight), ("footerHeight", m.footerHeight)]
        where !value.isFinite || value < 0 || value > 100_000 || (name == "targetCell" && !(value > m.spacing)) {
            throw ZoomError(code: .invalidSettings, level: level.timelineLevel,
                            message: "\(name) must be 0 to 100000 points, and targetCell more than spacing (got \(format(value)))")
        }
        if let negative = counts.firstIndex(where: { $0 < 0 }) {
            throw ZoomError(code: .invalidSettings, level: level.timelineLevel,
                            message: "section \(negative) has a negative count (\(counts[negative]))")
        }
        self.level = level
        self.width = width
        self.metrics = m
        self.sectionCounts = counts

        let g = m.spacing
        // `+ 0.5` then floor (truncation: the value is positive), as JavaScript's Math.floor(x + 0.5).
        let c = max(1, Int((width + g) / (m.targetCell + g) + 0.5))
        let cell = (width - Double(c - 1) * g) / Double(c)
        columns = c
        cellSide = cell
        let label = m.labelHeight
        let footer = m.footerHeight

        var slots = [Slot]()
        slots.reserveCapacity(counts.count)
        var tops: [Double] = []
        var rowsOfLine: [Int32] = []
        var firsts: [Int32] = []
        var lineTop = 0.0
        var lineHeight = 0.0
        var used = 0
        var openRows = 0
        var previousGroup = 0
        // Items of the previous section's group so far (all of them once the group changes).
        var groupItems = 0
        let sparseMonthsShare = level == .fine
        counts.withUnsafeBufferPointer { counts in
            groups.withUnsafeBufferPointer { groups in
                for s in 0..<counts.count {
                    let n = counts[s]
                    let cols = min(n, c)
                    let rows = n / c + (n % c == 0 ? 0 : 1)
                    let sameGroup = groups[s] == previousGroup
                    let column: Int
                    if !tops.isEmpty, rows <= 1, openRows <= 1, used + max(cols, 1) <= c,
                       sameGroup || (sparseMonthsShare && groupItems < c && Self.year(ofMonth: groups[s]) == Self.year(ofMonth: previousGroup)) {
                        column = used
                        used += cols
                    } else {
                        if !tops.isEmpty { lineTop = lineTop + lineHeight + g }
                        openRows = max(1, rows)
                        lineHeight = label + Double(openRows) * cell + Double(openRows - 1) * g + footer
                        tops.append(lineTop)
                        rowsOfLine.append(Int32(truncatingIfNeeded: openRows))
                        firsts.append(Int32(truncatingIfNeeded: s))
                        column = 0
                        used = cols
                    }
                    groupItems = sameGroup && s > 0 ? groupItems + n : n
                    previousGroup = groups[s]
                    slots.append(Slot(
                        line: Int32(truncatingIfNeeded: tops.count - 1), column: Int32(truncatingIfNeeded: column),
                        columns: Int32(truncatingIfNeeded: cols), rows: Int32(truncatingIfNeeded: rows)))
                }
            }
        }
        firsts.append(Int32(truncatingIfNeeded: counts.count))
        blocks = slots
        lineTops = tops
        lineRows = rowsOfLine
        lineFirstBlocks = firsts
        contentHeight = tops.isEmpty ? 0 : lineTop + lineHeight
    }

    /// The group of a section whose first day is `firstDay`: the year at the coarse level, the
    /// month (`year·12 + month − 1`) at the fine level, 0 for years (cards pack freely).
    public static func group(_ level: PackedLevel, firstDay: TimelineDayComponents) -> Int {
        switch level {
        case .years: 0
        case .coarse: firstDay.year
        case .fine: firstDay.year * 12 + firstDay.month - 1
        }
    }

    /// The year of a fine group (`year·12 + month − 1`): `floor(group / 12)`.
    static func year(ofMonth group: Int) -> Int {
        group >= 0 ? group / 12 : (group - 11) / 12
    }

    public var sectionCount: Int { sectionCounts.count }
    public var lineCount: Int { lineTops.count }
    /// `cellSide + spacing`.
    public var pitch: Double { cellSide + metrics.spacing }

    // MARK: Frames

    /// Section `section`'s block: where it is, its label and its month strip.
    public func block(_ section: Int) throws(ZoomError) -> PackedBlock {
        guard sectionCounts.indices.contains(section) else { throw outOfRange(section: section) }
        return uncheckedBlock(section)
    }

    /// The frame of item `item` of `section`, in content coordinates.
    public func frame(section: Int, item: Int) throws(ZoomError) -> GridRect {
        try validate(section: section, item: item)
        return uncheckedFrame(section: section, item: item)
    }

    /// Throws when `section` or `item` does not exist, naming the valid range.
    public func validate(section: Int, item: Int) throws(ZoomError) {
        guard sectionCounts.indices.contains(section) else { throw outOfRange(section: section) }
        guard item >= 0, item < sectionCounts[section] else {
            let count = sectionCounts[section]
            let valid = count == 0 ? "has no items" : count == 1 ? "has only item 0" : "has items 0–\(count - 1)"
            throw ZoomError(code: .itemOutOfRange, level: level.timelineLevel,
                            message: "item \(item) is out of range: section \(section) of the \(level) level \(valid)")
        }
    }

    func outOfRange(section: Int) -> ZoomError {
        let count = sectionCount
        let valid = count == 0 ? "has no sections" : count == 1 ? "has only section 0" : "has sections 0–\(count - 1)"
        return ZoomError(code: .sectionOutOfRange, level: level.timelineLevel,
                         message: "section \(section) is out of range: the \(level) level \(valid)")
    }

    @inline(__always)
    func cellsTop(line: Int) -> Double { lineTops[line] + metrics.labelHeight }

    @inline(__always)
    func uncheckedFrame(section: Int, item: Int) -> GridRect {
        let slot = blocks[section]
        let cols = Int(slot.columns)
        let p = pitch
        return GridRect(
            minX: Double(slot.column) * p + Double(item % cols) * p,
            minY: cellsTop(line: Int(slot.line)) + Double(item / cols) * p,
            width: cellSide, height: cellSide)
    }

    func uncheckedBlock(_ section: Int) -> PackedBlock {
        let slot = blocks[section]
        let line = Int(slot.line)
        let g = metrics.spacing
        let cols = Int(slot.columns)
        let rows = Int(slot.rows)
        let x = Double(slot.column) * pitch
        let y = cellsTop(line: line)
        let width = cols == 0 ? 0 : Double(cols) * cellSide + Double(cols - 1) * g
        let height = rows == 0 ? 0 : Double(rows) * cellSide + Double(rows - 1) * g
        let frame = GridRect(minX: x, minY: y, width: width, height: height)
        let overlaid = metrics.labelHeight == 0
        let label = overlaid
            ? GridRect(minX: x, minY: y, width: width, height: min(metrics.overlayLabelHeight, height))
            : GridRect(minX: x, minY: lineTops[line], width: width, height: metrics.labelHeight)
        return PackedBlock(
            section: section, line: line, column: Int(slot.column), columns: cols, rows: rows, frame: frame,
            labelFrame: label, labelOverlaid: overlaid,
            footerFrame: GridRect(minX: x, minY: y + height, width: width, height: metrics.footerHeight),
            startsLine: Int(lineFirstBlocks[line]) == section)
    }

    /// The top of line `line` and its height.
    public func lineFrame(_ line: Int) -> (top: Double, height: Double) {
        let rows = Int(lineRows[line])
        let m = metrics
        return (lineTops[line], m.labelHeight + Double(rows) * cellSide + Double(rows - 1) * m.spacing + m.footerHeight)
    }

    /// Blocks (sections) of line `line`.
    public func sections(inLine line: Int) -> Range<Int> {
        Int(lineFirstBlocks[line])..<Int(lineFirstBlocks[line + 1])
    }
}

/// A day's calendar components, as ``PackedLayout/group(_:firstDay:)`` reads them.
public typealias TimelineDayComponents = (year: Int, month: Int, day: Int)

/// One section's place in a ``PackedLayout``.
public struct PackedBlock: Sendable, Hashable {
    public let section: Int
    /// The packed line it sits in, its first column and how many columns and rows it spans.
    public let line: Int
    public let column: Int
    public let columns: Int
    public let rows: Int
    /// Its cells' bounding box.
    public let frame: GridRect
    /// Where its label goes: the label line above (the block's width) or over its first row.
    public let labelFrame: GridRect
    public let labelOverlaid: Bool
    /// The month strip below the cells (zero height except at the Years level).
    public let footerFrame: GridRect
    /// Whether it is the first block of its line.
    public let startsLine: Bool
}
