public import GalleryLayout
public import Timeline

/// One level's vertical grid: for each section a header, then its cells in rows of `columns`
/// square cells (the last row may be partial, left-packed), framed by the section insets.
///
/// Section `s` occupies `[sectionTop(s), sectionTop(s + 1))`:
/// header, top inset, rows (`rows·cell + (rows − 1)·lineSpacing`), bottom inset. An empty section
/// is its header and insets. The content height is the sum of the sections (content insets are
/// not part of it; they widen the scroll range).
///
/// - Complexity: building is O(sections); frames are O(1); point and visibility queries are
///   O(log sections) (plus the size of the answer).
public struct GridLayout: Sendable {
    public let level: TimelineLevel
    public let metrics: GridMetrics
    /// Items per section.
    public let sectionCounts: [Int]
    /// Side of every (square) cell.
    public let cellSide: Double
    /// `sectionTops[s]` is the top of section `s`'s header; the last entry is the content height.
    let sectionTops: [Double]

    /// A layout of `sectionCounts` items. `metrics` should have passed ``ZoomSettings/validate()``.
    public init(level: TimelineLevel, sectionCounts: [Int], metrics: GridMetrics, viewportWidth: Double) {
        self.level = level
        self.metrics = metrics
        self.sectionCounts = sectionCounts
        let cell = metrics.cellSide(viewportWidth: viewportWidth)
        self.cellSide = cell
        var tops = [Double]()
        tops.reserveCapacity(sectionCounts.count + 1)
        var y = 0.0
        tops.append(y)
        let columns = max(metrics.columns, 1)
        for count in sectionCounts {
            let rows = (max(count, 0) + columns - 1) / columns
            var height = metrics.headerHeight + metrics.sectionInsets.top
            if rows > 0 {
                height += Double(rows) * cell + Double(rows - 1) * metrics.lineSpacing
            }
            height += metrics.sectionInsets.bottom
            y += height
            tops.append(y)
        }
        self.sectionTops = tops
    }

    public var sectionCount: Int { sectionCounts.count }

    /// Sum of the section heights.
    public var contentHeight: Double { sectionTops[sectionTops.count - 1] }

    /// Top of section `section`'s header (`contentHeight` for `sectionCount`).
    public func sectionTop(_ section: Int) -> Double { sectionTops[section] }

    // MARK: Frames

    /// The frame of a cell, in content coordinates.
    ///
    /// `minY = sectionTop + header + top inset + row·(cell + lineSpacing)`,
    /// `minX = left inset + column·(cell + itemSpacing)`.
    public func frame(section: Int, item: Int) throws(ZoomError) -> GridRect {
        try validate(section: section, item: item)
        return uncheckedFrame(section: section, item: item)
    }

    public func frame(at indexPath: GridIndexPath) throws(ZoomError) -> GridRect {
        try frame(section: indexPath.section, item: indexPath.item)
    }

    /// The header's frame, full width.
    public func headerFrame(section: Int) throws(ZoomError) -> GridRect {
        guard sectionCounts.indices.contains(section) else {
            throw .section(section, level: level, count: sectionCount)
        }
        return GridRect(minX: 0, minY: sectionTops[section], width: contentWidth, height: metrics.headerHeight)
    }

    /// Throws when `section` or `item` does not exist, naming the valid range.
    public func validate(section: Int, item: Int) throws(ZoomError) {
        guard sectionCounts.indices.contains(section) else {
            throw .section(section, level: level, count: sectionCount)
        }
        guard item >= 0, item < sectionCounts[section] else {
            throw .item(item, section: section, level: level, count: sectionCounts[section])
        }
    }

    @inline(__always)
    func uncheckedFrame(section: Int, item: Int) -> GridRect {
        let row = item / metrics.columns
        let column = item % metrics.columns
        return GridRect(
            minX: metrics.sectionInsets.left + Double(column) * (cellSide + metrics.itemSpacing),
            minY: itemsTop(section) + Double(row) * (cellSide + metrics.lineSpacing),
            width: cellSide, height: cellSide)
    }

    /// Width spanned by full rows, plus the side insets.
    var contentWidth: Double {
        let m = metrics
        return m.sectionInsets.left + Double(m.columns) * cellSide + Double(m.columns - 1) * m.itemSpacing
            + m.sectionInsets.right
    }

    @inline(__always)
    func itemsTop(_ section: Int) -> Double {
        sectionTops[section] + metrics.headerHeight + metrics.sectionInsets.top
    }

    @inline(__always)
    func rowCount(_ section: Int) -> Int {
        (sectionCounts[section] + metrics.columns - 1) / metrics.columns
    }

    /// The section whose span holds `y`, clamped to the first and last section. Needs sections.
    func section(containing y: Double) -> Int {
        // The last section whose top is at or above y.
        max(0, sectionTops.prefix(sectionCounts.count).partitionPoint { $0 > y } - 1)
    }
}
