// Where cells and headers sit in one level's content, from `/api/layout` (content coordinates, CSS px).
//
// The layout gives each section's `y`, `height` and item count; everything else follows from the
// grid metrics, so nothing here is O(photos): lookups are binary searches over section tops.

export class Grid {
  constructor(layout) {
    this.layout = layout;
    this.level = layout.level;
    this.columns = layout.columns;
    this.cellSide = layout.cellSide;
    this.spacing = layout.spacing;
    this.lineSpacing = layout.lineSpacing;
    this.headerHeight = layout.headerHeight;
    this.insets = layout.sectionInsets;
    this.sections = layout.sections;
    this.contentHeight = layout.contentHeight;
    this.viewportHeight = layout.viewportHeight;
    this.pitchY = this.cellSide + this.lineSpacing;
    this.pitchX = this.cellSide + this.spacing;
  }

  get maxOffset() { return Math.max(0, this.contentHeight - this.viewportHeight); }

  rowsTop(s) { return this.sections[s].y + this.headerHeight + this.insets.top; }

  cellTop(s, item) { return this.rowsTop(s) + Math.floor(item / this.columns) * this.pitchY; }

  cellLeft(item) { return this.insets.left + (item % this.columns) * this.pitchX; }

  /** Index of the last section whose top is at or above `y` (0 when `y` is above the first). */
  sectionAt(y) {
    const list = this.sections;
    let lo = 0;
    let hi = list.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (list[mid].y <= y) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Sections and rows that intersect `[top, bottom)`: calls `headerFn(s)` for each visible header and
   * `cellFn(s, item)` for each visible cell. - Complexity: O(log sections + visible).
   */
  visit(top, bottom, headerFn, cellFn) {
    if (!this.sections.length) return;
    for (let s = Math.max(0, this.sectionAt(top)); s < this.sections.length; s++) {
      const sec = this.sections[s];
      if (sec.y >= bottom) break;
      if (sec.y + sec.height <= top) continue;
      if (sec.y < bottom && sec.y + this.headerHeight > top) headerFn(s);
      const rowsTop = this.rowsTop(s);
      const rows = Math.ceil(sec.items / this.columns);
      const first = Math.max(0, Math.floor((top - rowsTop) / this.pitchY));
      const last = Math.min(rows - 1, Math.floor((bottom - rowsTop) / this.pitchY));
      for (let r = first; r <= last; r++) {
        const end = Math.min(sec.items, (r + 1) * this.columns);
        for (let i = r * this.columns; i < end; i++) cellFn(s, i);
      }
    }
  }

  /** The cell nearest the top edge of a view scrolled to `offset`: `{section, item, dy}` (dy = its viewport y). */
  anchorAt(offset) {
    const s = this.sectionAt(offset);
    if (s < 0) return { section: 0, item: 0, dy: 0 };
    const sec = this.sections[s];
    const rowsTop = this.rowsTop(s);
    let row = Math.max(0, Math.floor((offset - rowsTop) / this.pitchY));
    const rows = Math.ceil(sec.items / this.columns);
    if (row >= rows) row = Math.max(0, rows - 1);
    const item = Math.min(sec.items - 1, row * this.columns);
    return { section: s, item: Math.max(0, item), dy: this.cellTop(s, Math.max(0, item)) - offset };
  }

  /** The cell under viewport point (x, y) of a view scrolled to `offset`, or null (header, gap). */
  cellAtPoint(x, y, offset) {
    const cy = y + offset;
    const s = this.sectionAt(cy);
    if (s < 0) return null;
    const row = Math.floor((cy - this.rowsTop(s)) / this.pitchY);
    const col = Math.floor((x - this.insets.left) / this.pitchX);
    if (row < 0 || col < 0 || col >= this.columns) return null;
    const item = row * this.columns + col;
    return item < this.sections[s].items ? { section: s, item } : null;
  }

  /** Date-scrubber position of a section: fraction of the scroll range at its top. */
  clampOffset(offset) { return Math.min(Math.max(0, offset), this.maxOffset); }
}
