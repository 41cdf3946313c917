// Packed rows: the timeline's geometry at each level for one width, mirroring Swift's
// `ZoomMapping.PackedLayout` step for step (its doc comment is the algorithm; a browser test holds
// the two to the same positions on random libraries and widths). Square cells in columns that
// follow the width; a section showing fewer photos than a row holds takes only its own columns and
// the next one starts beside it, never across a year, nor across a month (Days) unless that month
// fills less than a row; a compact label line above each packed line. Positions depend on counts, groups and width only, so the layout is
// final before any image loads.

/** Widths from this up are `regular` (tablets and desktops), below it `compact` (phones). */
export const REGULAR_FROM_WIDTH = 600;

/**
 * Per level and viewport class: target cell side, spacing, label line height (0: each label lies
 * over its block's first row, `overlayLabelHeight` high), month strip height.
 */
export const METRICS = {
  years: { compact: { targetCell: 116, spacing: 8, labelHeight: 22, overlayLabelHeight: 0, footerHeight: 18 },
    regular: { targetCell: 200, spacing: 12, labelHeight: 26, overlayLabelHeight: 0, footerHeight: 22 } },
  coarse: { compact: { targetCell: 39, spacing: 1, labelHeight: 14, overlayLabelHeight: 0, footerHeight: 0 },
    regular: { targetCell: 110, spacing: 2, labelHeight: 20, overlayLabelHeight: 0, footerHeight: 0 } },
  fine: { compact: { targetCell: 96, spacing: 1.5, labelHeight: 22, overlayLabelHeight: 0, footerHeight: 0 },
    regular: { targetCell: 200, spacing: 4, labelHeight: 0, overlayLabelHeight: 28, footerHeight: 0 } },
};

export const viewportClass = (width) => (width < REGULAR_FROM_WIDTH ? 'compact' : 'regular');

/** The group of a section starting on `start` (`YYYY-MM-DD`): its year (coarse), year·12 + month − 1 (fine), 0 (years). */
export function groupOf(level, start) {
  if (level === 'years') return 0;
  const year = Number(start.slice(0, 4));
  return level === 'coarse' ? year : year * 12 + Number(start.slice(5, 7)) - 1;
}

/**
 * One level packed into `width` (1…100,000 CSS px): `counts[s]` shown items and `groups[s]` per
 * section, in date order. - Complexity: O(sections) time and memory; frames O(1).
 */
export class PackedLayout {
  constructor(level, counts, groups, width, metrics = METRICS[level][viewportClass(width)]) {
    if (!(width >= 1 && width <= 100000)) throw new RangeError(`the width must be 1 to 100000 px (got ${width})`);
    this.level = level;
    this.width = width;
    this.metrics = metrics;
    const n = counts.length;
    const g = metrics.spacing;
    const c = Math.max(1, Math.floor((width + g) / (metrics.targetCell + g) + 0.5));
    const cell = (width - (c - 1) * g) / c;
    this.columns = c;
    this.cellSide = cell;
    this.pitch = cell + g;
    this.counts = Int32Array.from(counts);
    this.blockLine = new Int32Array(n);
    this.blockColumn = new Int32Array(n);
    this.blockColumns = new Int32Array(n);
    this.blockRows = new Int32Array(n);
    const tops = [];
    const lineRows = [];
    const firsts = [];
    const label = metrics.labelHeight;
    const footer = metrics.footerHeight;
    let lineTop = 0;
    let lineHeight = 0;
    let used = 0;
    let openRows = 0;
    let previousGroup = 0;
    let groupItems = 0; // items of the previous section's group so far
    const sparseMonthsShare = level === 'fine';
    for (let s = 0; s < n; s++) {
      const count = counts[s];
      const cols = Math.min(count, c);
      const rows = Math.floor(count / c) + (count % c === 0 ? 0 : 1);
      const sameGroup = groups[s] === previousGroup;
      let column;
      // an empty section needs a free column, so its zero-width block never sits past the right edge;
      // a sparse month (less than a row) shares its line with the next month of its year
      if (tops.length && rows <= 1 && openRows <= 1 && used + Math.max(cols, 1) <= c
          && (sameGroup || (sparseMonthsShare && groupItems < c && Math.floor(groups[s] / 12) === Math.floor(previousGroup / 12)))) {
        column = used;
        used += cols;
      } else {
        if (tops.length) lineTop = lineTop + lineHeight + g;
        openRows = Math.max(1, rows);
        lineHeight = label + openRows * cell + (openRows - 1) * g + footer;
        tops.push(lineTop);
        lineRows.push(openRows);
        firsts.push(s);
        column = 0;
        used = cols;
      }
      groupItems = sameGroup && s > 0 ? groupItems + count : count;
      previousGroup = groups[s];
      this.blockLine[s] = tops.length - 1;
      this.blockColumn[s] = column;
      this.blockColumns[s] = cols;
      this.blockRows[s] = rows;
    }
    firsts.push(n);
    this.lineTops = Float64Array.from(tops);
    this.lineRows = Int32Array.from(lineRows);
    this.lineFirst = Int32Array.from(firsts);
    this.contentHeight = tops.length ? lineTop + lineHeight : 0;
  }

  get sectionCount() { return this.counts.length; }
  get lineCount() { return this.lineTops.length; }

  cellsTop(line) { return this.lineTops[line] + this.metrics.labelHeight; }

  /** Item `item` of section `s`: `{x, y, side}` in layout coordinates. */
  frame(s, item) {
    const cols = this.blockColumns[s];
    const p = this.pitch;
    return {
      x: this.blockColumn[s] * p + (item % cols) * p,
      y: this.cellsTop(this.blockLine[s]) + Math.floor(item / cols) * p,
      side: this.cellSide,
    };
  }

  /** Section `s`'s block: its cells' box, its label and its month strip, in layout coordinates. */
  block(s) {
    const m = this.metrics;
    const g = m.spacing;
    const line = this.blockLine[s];
    const cols = this.blockColumns[s];
    const rows = this.blockRows[s];
    const x = this.blockColumn[s] * this.pitch;
    const y = this.cellsTop(line);
    const width = cols === 0 ? 0 : cols * this.cellSide + (cols - 1) * g;
    const height = rows === 0 ? 0 : rows * this.cellSide + (rows - 1) * g;
    const overlaid = m.labelHeight === 0;
    const label = overlaid
      ? { x, y, width, height: Math.min(m.overlayLabelHeight, height) }
      : { x, y: this.lineTops[line], width, height: m.labelHeight };
    return { section: s, line, column: this.blockColumn[s], columns: cols, rows, x, y, width, height, label,
      footer: { x, y: y + height, width, height: m.footerHeight } };
  }

  /** Line `line`'s top and height. */
  lineFrame(line) {
    const m = this.metrics;
    const rows = this.lineRows[line];
    return { top: this.lineTops[line], height: m.labelHeight + rows * this.cellSide + (rows - 1) * m.spacing + m.footerHeight };
  }

  /** The last line whose top is at or above `y` (0 above the first; -1 without lines). */
  lineAt(y) {
    const tops = this.lineTops;
    let lo = 0;
    let hi = tops.length - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tops[mid] <= y) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
}
