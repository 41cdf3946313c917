public import GalleryLayout

extension PackedLayout {
    /// The item nearest to `point` (content coordinates): first the row of cells nearest
    /// vertically (0 when the point is level with it; the earlier on a tie), then the cell of that
    /// row nearest horizontally (the earlier on a tie). `nil` only when there is no item.
    ///
    /// - Complexity: O(log lines + blocks of the lines looked at), plus empty lines skipped.
    public func nearestIndexPath(to point: GridPoint) -> GridIndexPath? {
        guard !lineTops.isEmpty else { return nil }
        let home = max(0, lineTops.partitionPoint { $0 > point.y } - 1)
        let p = pitch
        var best: (line: Int, row: Int, distance: Double)?
        func consider(_ line: Int, _ row: Int) {
            guard hasItems(line: line, row: row) else { return }
            let top = cellsTop(line: line) + Double(row) * p
            let distance = max(top - point.y, 0, point.y - (top + cellSide))
            if best == nil || distance < best!.distance { best = (line, row, distance) }
        }
        // Lines are offered in content order, so keeping the first minimum keeps the earlier row.
        if let previous = (0..<home).last(where: { lineHasItems($0) }) { consider(previous, Int(lineRows[previous]) - 1) }
        let rows = Int(lineRows[home])
        let row = floorClamped((point.y - cellsTop(line: home)) / p, 0, rows - 1)
        consider(home, row)
        if row + 1 < rows { consider(home, row + 1) }
        if let next = (home + 1..<lineTops.count).first(where: { lineHasItems($0) }) { consider(next, 0) }
        guard let (line, row, _) = best else { return nil }

        var nearest: (section: Int, item: Int, distance: Double)?
        for section in sections(inLine: line) {
            let slot = blocks[section]
            let cols = Int(slot.columns)
            let inRow = min(cols, sectionCounts[section] - row * cols)
            guard inRow > 0 else { continue }
            let x0 = Double(slot.column) * p
            // The cell of this block nearest to point.x, then its distance.
            let column = floorClamped((point.x - x0) / p, 0, inRow - 1)
            for c in [column, min(column + 1, inRow - 1)] {
                let left = x0 + Double(c) * p
                let distance = max(left - point.x, 0, point.x - (left + cellSide))
                if nearest == nil || distance < nearest!.distance { nearest = (section, row * cols + c, distance) }
            }
        }
        return nearest.map { GridIndexPath(section: $0.section, item: $0.item) }
    }

    /// Whether row `row` of line `line` holds a cell.
    func hasItems(line: Int, row: Int) -> Bool {
        sections(inLine: line).contains { section in
            let cols = Int(blocks[section].columns)
            return cols > 0 && sectionCounts[section] > row * cols
        }
    }

    func lineHasItems(_ line: Int) -> Bool { hasItems(line: line, row: 0) }

    /// Sections whose blocks (with their labels) intersect `[top, top + height)`, in order.
    ///
    /// - Complexity: O(log lines + answer).
    public func visibleSections(top: Double, height: Double) -> Range<Int> {
        guard !lineTops.isEmpty, height > 0 else { return 0..<0 }
        let first = max(0, lineTops.partitionPoint { $0 > top } - 1)
        let bottom = top + height
        let end = lineTops.partitionPoint { $0 >= bottom }
        guard end > first else { return 0..<0 }
        return Int(lineFirstBlocks[first])..<Int(lineFirstBlocks[end])
    }

    /// Checks the layout's promises, trapping on the first broken one: blocks inside the width, no
    /// two blocks or labels overlapping, every block below or right of the one before (date
    /// reading order), a group change starting a line unless it follows a sparse month of the same
    /// year (fine), and the content height covering every line. For tests; O(sections).
    public func _checkInvariants(groups: [Int]? = nil) {
        let tolerance = 1e-6
        precondition(columns >= 1 && cellSide > 0, "columns \(columns), cell \(cellSide)")
        // Items per group, to tell a sparse month (less than a row) from a fuller one.
        var groupItems: [Int: Int] = [:]
        if let groups { for (s, g) in groups.enumerated() { groupItems[g, default: 0] += sectionCounts[s] } }
        var previous: PackedBlock?
        for section in 0..<sectionCount {
            let b = uncheckedBlock(section)
            precondition(b.columns == min(sectionCounts[section], columns), "section \(section): \(b.columns) columns")
            precondition(b.column + b.columns <= columns, "section \(section) runs past the last column")
            precondition(b.frame.maxX <= width + tolerance, "section \(section) is wider than the layout")
            precondition(b.frame.maxY + metrics.footerHeight <= contentHeight + tolerance, "section \(section) below the content")
            precondition(b.labelFrame.width <= b.frame.width + tolerance && b.labelFrame.minX == b.frame.minX, "label of \(section) wider than its block")
            if let previous {
                if b.line == previous.line {
                    precondition(!b.startsLine, "section \(section) starts a line it shares")
                    precondition(b.column >= previous.column + previous.columns, "section \(section) overlaps section \(section - 1)")
                    precondition(b.rows <= 1 && previous.rows <= 1, "a multi-row block shares line \(b.line)")
                    if let groups, groups[section] != groups[section - 1] {
                        let sparse = level == .fine && groupItems[groups[section - 1]]! < columns
                            && Self.year(ofMonth: groups[section]) == Self.year(ofMonth: groups[section - 1])
                        precondition(sparse, "section \(section) shares a line across groups after a month of a row or more")
                    }
                } else {
                    precondition(b.line == previous.line + 1 && b.startsLine && b.column == 0, "section \(section) skips a line")
                    let (top, height) = lineFrame(previous.line)
                    precondition(lineTops[b.line] >= top + height, "line \(b.line) overlaps the line above")
                    precondition(b.labelFrame.minY >= top + height, "label of \(section) overlaps the line above")
                }
            } else {
                precondition(b.line == 0 && lineTops[0] == 0, "the first section is not at the top")
            }
            previous = b
        }
        if sectionCount == 0 { precondition(contentHeight == 0 && lineTops.isEmpty, "empty layout with lines") }
    }
}
