public import GalleryLayout
extension GridLayout {
    /// The item whose cell contains `point` (content coordinates), or `nil` over a header, inset,
    /// gap or empty place.
    ///
    /// - Complexity: O(log sections).
    public func indexPath(at point: GridPoint) -> GridIndexPath? {
        guard !sectionCounts.isEmpty, point.y >= 0, point.y < contentHeight else { return nil }
        let section = section(containing: point.y)
        let m = metrics
        let localY = point.y - itemsTop(section)
        let localX = point.x - m.sectionInsets.left
        guard localY >= 0, localX >= 0 else { return nil }
        let row = floorClamped(localY / (cellSide + m.lineSpacing), 0, rowCount(section))
        let column = floorClamped(localX / (cellSide + m.itemSpacing), 0, m.columns)
        guard row < rowCount(section), column < m.columns else { return nil }
        let item = row * m.columns + column
        guard item < sectionCounts[section],
            uncheckedFrame(section: section, item: item).contains(point)
        else { return nil }
        return GridIndexPath(section: section, item: item)
    }

    /// The item nearest to `point`: first the row of cells nearest vertically (0 when the point
    /// is level with it), then the cell of that row nearest horizontally; the earlier on a tie.
    /// `nil` only when the level has no items.
    ///
    /// Rows come first so that the anchor of a pinch sits at the focal point's height: a point
    /// right of a partial last row picks that row's last cell, a point in a header the nearer of
    /// the rows above and below it.
    /// - Complexity: O(log sections), plus the number of empty sections skipped.
    public func nearestIndexPath(to point: GridPoint) -> GridIndexPath? {
        guard !sectionCounts.isEmpty else { return nil }
        let home = section(containing: point.y)
        var best: (section: Int, row: Int, distance: Double)?
        func consider(_ section: Int, _ row: Int) {
            let top = itemsTop(section) + Double(row) * (cellSide + metrics.lineSpacing)
            let distance = max(top - point.y, 0, point.y - (top + cellSide))
            // Rows are offered in content order, so keeping the first minimum keeps the earlier row.
            if best == nil || distance < best!.distance { best = (section, row, distance) }
        }
        if let previous = (0..<home).last(where: { sectionCounts[$0] > 0 }) {
            consider(previous, rowCount(previous) - 1)
        }
        let rows = rowCount(home)
        if rows > 0 {
            let row = floorClamped((point.y - itemsTop(home)) / (cellSide + metrics.lineSpacing), 0, rows - 1)
            consider(home, row)
            if row + 1 < rows { consider(home, row + 1) }
        }
        if let next = (home + 1..<sectionCounts.count).first(where: { sectionCounts[$0] > 0 }) {
            consider(next, 0)
        }
        guard let (section, row, _) = best else { return nil }

        let columns = metrics.columns
        let inRow = min(columns, sectionCounts[section] - row * columns)
        let pitch = cellSide + metrics.itemSpacing
        let column = floorClamped((point.x - metrics.sectionInsets.left) / pitch, 0, inRow - 1)
        var bestColumn = column
        if column + 1 < inRow {
            let left = metrics.sectionInsets.left + Double(column) * pitch
            let right = left + pitch
            // Strictly nearer to the next cell than to the right edge of this one.
            if right - point.x < point.x - (left + cellSide) { bestColumn = column + 1 }
        }
        return GridIndexPath(section: section, item: row * columns + bestColumn)
    }

    /// Items whose cells intersect the visible band `[contentOffsetY, contentOffsetY + viewportHeight)`,
    /// in order.
    ///
    /// The band is the whole viewport, including any area under translucent bars (content insets).
    /// - Complexity: O(log sections + answer).
    public func visibleIndexPaths(contentOffsetY: Double, viewportHeight: Double) -> [GridIndexPath] {
        let top = contentOffsetY
        let bottom = contentOffsetY + viewportHeight
        guard !sectionCounts.isEmpty, bottom > 0, top < contentHeight, viewportHeight > 0 else { return [] }
        var result: [GridIndexPath] = []
        let m = metrics
        let rowPitch = cellSide + m.lineSpacing
        var section = self.section(containing: max(top, 0))
        while section < sectionCounts.count, sectionTops[section] < bottom {
            let rows = rowCount(section)
            if rows > 0 {
                let itemsTop = itemsTop(section)
                var first = floorClamped((top - itemsTop) / rowPitch, 0, rows)
                if first < rows, itemsTop + Double(first) * rowPitch + cellSide <= top { first += 1 }
                var last = ceilClamped((bottom - itemsTop) / rowPitch, -1, rows - 1)
                while last >= first, itemsTop + Double(last) * rowPitch >= bottom { last -= 1 }
                if first <= last {
                    let end = min(sectionCounts[section], (last + 1) * m.columns)
                    for item in first * m.columns..<end {
                        result.append(GridIndexPath(section: section, item: item))
                    }
                }
            }
            section += 1
        }
        return result
    }
}

// Rounding without `rounded(_:)`, which would need libm at link time in a module without Foundation.

/// ⌊value⌋ clamped to `low...high`; NaN gives `low`.
@inline(__always)
func floorClamped(_ value: Double, _ low: Int, _ high: Int) -> Int {
    guard value >= Double(low) else { return low }
    guard value <= Double(high) else { return high }
    let t = Int(value)
    return Double(t) > value ? t - 1 : t
}

/// ⌈value⌉ clamped to `low...high`; NaN gives `low`.
@inline(__always)
func ceilClamped(_ value: Double, _ low: Int, _ high: Int) -> Int {
    guard value >= Double(low) else { return low }
    guard value <= Double(high) else { return high }
    let t = Int(value)
    return Double(t) < value ? t + 1 : t
}
