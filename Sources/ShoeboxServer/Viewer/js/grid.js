// Where cells and labels sit in one level's content (CSS px), from the packed layout of its
// sections (packing.js) and the content insets: content y = inset top + layout y.
//
// Nothing here is O(photos): lookups are binary searches over the packed lines.

import { PackedLayout, groupOf } from './packing.js';

export class Grid {
  /**
   * `list`: the level's sections as `/api/sections?level=` gives them (years: one card each, its
   * key photo the one item); `insets`: `{top, bottom}`.
   */
  constructor(level, list, { width, height }, insets = { top: 0, bottom: 0 }) {
    this.level = level;
    this.list = list;
    const counts = level === 'years' ? list.map(() => 1) : list.map((s) => s.shown ?? s.count);
    const groups = list.map((s) => (level === 'years' ? 0 : groupOf(level, s.start)));
    this.packed = new PackedLayout(level, counts, groups, Math.max(1, Math.min(100000, width)));
    this.top = insets.top;
    this.cellSide = this.packed.cellSide;
    this.columns = this.packed.columns;
    this.contentHeight = insets.top + this.packed.contentHeight + insets.bottom;
    this.viewportHeight = height;
  }

  get maxOffset() { return Math.max(0, this.contentHeight - this.viewportHeight); }
  get sectionCount() { return this.packed.sectionCount; }
  itemCount(s) { return this.packed.counts[s]; }

  cellTop(s, item) { return this.top + this.packed.frame(s, item).y; }
  cellLeft(s, item) { return this.packed.frame(s, item).x; }

  /** The top of section `s`'s label (its line's top). */
  sectionTop(s) { return this.top + this.packed.lineTops[this.packed.blockLine[s]]; }

  /** Section `s`'s label band, month strip and cells' box, in content coordinates. */
  blockFrame(s) {
    const b = this.packed.block(s);
    const shift = (r) => ({ ...r, y: r.y + this.top });
    return { ...b, y: b.y + this.top, label: shift(b.label), footer: shift(b.footer) };
  }

  /** Index of the first section of the last line whose top is at or above `y` (0 above the first; -1 when empty). */
  sectionAt(y) {
    const line = this.packed.lineAt(y - this.top);
    return line < 0 ? -1 : this.packed.lineFirst[line];
  }

  /**
   * Sections and cells that intersect `[top, bottom)`: `headerFn(s)` for each block whose label band
   * is visible, `cellFn(s, item)` for each visible cell. - Complexity: O(log lines + visible).
   */
  visit(top, bottom, headerFn, cellFn) {
    const p = this.packed;
    if (!p.lineCount) return;
    const pitch = p.pitch;
    const label = p.metrics.labelHeight;
    for (let line = Math.max(0, p.lineAt(top - this.top)); line < p.lineCount; line++) {
      const lineTop = this.top + p.lineTops[line];
      if (lineTop >= bottom) break;
      const { height } = p.lineFrame(line);
      if (lineTop + height <= top) continue;
      const cellsTop = lineTop + label;
      for (let s = p.lineFirst[line]; s < p.lineFirst[line + 1]; s++) {
        if (lineTop + label > top || label === 0 || p.metrics.footerHeight > 0) headerFn(s);
        const cols = p.blockColumns[s];
        const items = p.counts[s];
        if (!items) continue;
        const rows = p.blockRows[s];
        const first = Math.max(0, Math.floor((top - cellsTop) / pitch));
        const last = Math.min(rows - 1, Math.floor((bottom - cellsTop) / pitch));
        for (let r = first; r <= last; r++) {
          const end = Math.min(items, (r + 1) * cols);
          for (let i = r * cols; i < end; i++) cellFn(s, i);
        }
      }
    }
  }

  /** The cell nearest the top edge of a view scrolled to `offset`: `{section, item, dy}` (dy = its viewport y). */
  anchorAt(offset) {
    let found = null;
    this.visit(offset, offset + this.viewportHeight, () => {}, (s, i) => {
      if (found) return;
      const dy = this.cellTop(s, i) - offset;
      if (dy >= -0.5) found = { section: s, item: i, dy };
    });
    if (found) return found;
    const s = Math.max(0, this.sectionAt(offset));
    return { section: s, item: 0, dy: this.sectionCount ? this.cellTop(s, 0) - offset : 0 };
  }

  /** The cell under viewport point (x, y) of a view scrolled to `offset`, or null (label, gap). */
  cellAtPoint(x, y, offset) {
    const p = this.packed;
    const cy = y + offset - this.top;
    const line = p.lineAt(cy);
    if (line < 0) return null;
    const row = Math.floor((cy - p.cellsTop(line)) / p.pitch);
    const column = Math.floor(x / p.pitch);
    if (row < 0 || column < 0 || column >= p.columns) return null;
    if (cy - p.cellsTop(line) - row * p.pitch > p.cellSide || x - column * p.pitch > p.cellSide) return null;
    for (let s = p.lineFirst[line]; s < p.lineFirst[line + 1]; s++) {
      const c = column - p.blockColumn[s];
      if (c < 0 || c >= p.blockColumns[s]) continue;
      const item = row * p.blockColumns[s] + c;
      return row < p.blockRows[s] && item < p.counts[s] ? { section: s, item } : null;
    }
    return null;
  }

  /** Where each year starts: `[{year, offset}]`, the content offset of its first section's top. */
  yearMarks() {
    const marks = [];
    let last = null;
    this.list.forEach((s, k) => {
      const year = this.level === 'years' ? s.year : Number(s.start.slice(0, 4));
      if (year !== last) { marks.push({ year, offset: this.sectionTop(k) }); last = year; }
    });
    return marks;
  }

  clampOffset(offset) { return Math.min(Math.max(0, offset), this.maxOffset); }
}
