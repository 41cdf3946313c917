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
        let row = clampedInt(localY / (cellSide + m.lineSpacing), 0, rowCount(section))
        let column = clampedInt(localX / (cellSide + m.itemSpacing), 0, m.columns)
        guard row < rowCount(section), column < m.columns else { return nil }
        let item = row * m.columns + column
        guard item < sectionCounts[section],
            uncheckedFrame(section: section, item: item).contains(point)
        else { return nil }
        return GridIndexPath(section: section, item: item)
    }

    /// The item whose cell is nearest to `point` (Euclidean distance to the cell, 0 inside),
    /// the earlier item on a tie; `nil` only when the level has no items.
    ///
    /// A point in a header is usually nearest the section's first row (or the previous
    /// section's last row); a point beyond a partial last row may be nearest the row above.
    /// - Complexity: O(log sections), plus the number of empty sections skipped.
    public func nearestIndexPath(to point: GridPoint) -> GridIndexPath? {
        guard !sectionCounts.isEmpty else { return nil }
        let home = section(containing: point.y)
        var best: (path: GridIndexPath, distance: Double)?
        func consider(_ section: Int) {
            guard let candidate = nearest(in: section, to: point) else { return }
            if best == nil || candidate.distance < best!.distance
                || (candidate.distance == best!.distance && candidate.path < best!.path)
            {
                best = candidate
            }
        }
        consider(home)
        if let previous = (0..<home).last(where: { sectionCounts[$0] > 0 }) { consider(previous) }
        if let next = (home + 1..<sectionCounts.count).first(where: { sectionCounts[$0] > 0 }) { consider(next) }
        return best?.path
    }

    /// The nearest item of one section: among the rows around the point's row, the columns
    /// around its column.
    private func nearest(in section: Int, to point: GridPoint) -> (path: GridIndexPath, distance: Double)? {
        let count = sectionCounts[section]
        guard count > 0 else { return nil }
        let m = metrics
        let rows = rowCount(section)
        let rowPitch = cellSide + m.lineSpacing
        let columnPitch = cellSide + m.itemSpacing
        let row = clampedInt(((point.y - itemsTop(section)) / rowPitch).rounded(.down), 0, rows - 1)
        let rawColumn = ((point.x - m.sectionInsets.left) / columnPitch).rounded(.down)
        var best: (path: GridIndexPath, distance: Double)?
        for r in max(row - 1, 0)...min(row + 1, rows - 1) {
            let inRow = min(m.columns, count - r * m.columns)
            let column = clampedInt(rawColumn, 0, inRow - 1)
            for c in column...min(column + 1, inRow - 1) {
                let item = r * m.columns + c
                let distance = uncheckedFrame(section: section, item: item).distanceSquared(to: point)
                if best == nil || distance < best!.distance
                    || (distance == best!.distance && item < best!.path.item)
                {
                    best = (GridIndexPath(section: section, item: item), distance)
                }
            }
        }
        return best
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
                var first = clampedInt(((top - itemsTop) / rowPitch).rounded(.down), 0, rows)
                if first < rows, itemsTop + Double(first) * rowPitch + cellSide <= top { first += 1 }
                var last = clampedInt(((bottom - itemsTop) / rowPitch).rounded(.up), -1, rows - 1)
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

/// `value` truncated toward zero and clamped to `low...high`; NaN gives `low`.
@inline(__always)
func clampedInt(_ value: Double, _ low: Int, _ high: Int) -> Int {
    guard value >= Double(low) else { return low }
    guard value <= Double(high) else { return high }
    return Int(value)
}
