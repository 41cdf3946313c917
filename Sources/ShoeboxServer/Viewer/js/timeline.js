// The virtualised timeline of one level: headers and square cells near the viewport, nothing else.
//
// One render per animation frame, writes only: the cells that leave the rendered range are reused
// in place for the cells that enter it (no hide/show, no reflow forced by reading layout), each
// cell is placed with a transform that is written only when it changes. A cell gets
// `data-section`/`data-item` at once and `data-photo-id` when the page of its section's photos
// arrives (pages of `api.PAGE` items, fetched only near the viewport).

import * as api from './api.js';
import { Grid } from './grid.js';
import { BoundedScroller } from './scroller.js';
import { setThumbnail, clearThumbnail, cellSize } from './thumbnails.js';

const OVERSCAN = 0.4; // viewport heights rendered above and below
const POOL_LIMIT = 120; // hidden cells kept for reuse
const PREFETCH_WAIT = 400; // ms a new layout waits for its photos at most

export class Timeline {
  constructor(element, { onChange } = {}) {
    this.element = element;
    this.spacer = element.querySelector('.spacer');
    this.layer = element.querySelector('.layer');
    this.onChange = onChange || (() => {});
    this.grid = null;
    this.level = null;
    this.labels = new Map(); // level → section list (labels, counts)
    this.cells = new Map(); // "s:i" → element
    this.headers = new Map(); // s → element
    this.spareCells = []; // in the DOM and visible, free for reuse in this render
    this.spareHeaders = [];
    this.cellPool = []; // hidden
    this.headerPool = [];
    this.frame = 0;
    this.holdFetches = false; // while a new library snapshot is prepared: the old grid fetches nothing
    this.size = { width: 0, height: 0 };
    this.measure();
    this.scroller = new BoundedScroller(element, this.spacer, (sync) => (sync ? this.render() : this.schedule()));
  }

  get offset() { return this.scroller.offset; }

  /** Reads the viewport size (a layout read: call it before writing, e.g. on resize). */
  measure() {
    this.size = { width: Math.floor(this.element.clientWidth), height: Math.floor(this.element.clientHeight) };
    return this.size;
  }

  viewport() { return this.size; }

  /** Shows `level` scrolled to content offset `offset`; resolves once the layout is in place. */
  async show(level, offset) {
    const { width, height } = this.viewport();
    const [layout, list] = await Promise.all([api.layout(level, width, height), api.sectionList(level)]);
    const grid = new Grid(layout);
    await this.prefetch(grid, level, offset);
    this.swap(grid, level, list, offset);
  }

  /** Replaces the grid and scrolls to `offset` in one go (the next paint shows the new layout). */
  swap(grid, level, list, offset) {
    this.holdFetches = false;
    this.labels.set(level, list);
    this.setGrid(grid, level);
    this.scroller.scrollTo(offset);
  }

  setGrid(grid, level) {
    // The cells stay where they are until render() reuses them: nothing is hidden in between.
    for (const el of this.cells.values()) this.spareCells.push(el);
    for (const el of this.headers.values()) this.spareHeaders.push(el);
    this.cells.clear();
    this.headers.clear();
    this.grid = grid;
    this.level = level;
    this.element.dataset.level = level;
    this.element.style.setProperty('--cell', `${grid.cellSide}px`);
    this.scroller.setContent(grid.contentHeight, this.viewport().height);
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  render() {
    if (this.frame) { cancelAnimationFrame(this.frame); this.frame = 0; }
    const grid = this.grid;
    if (!grid) return;
    const offset = this.scroller.offset;
    const base = this.scroller.base;
    const h = this.scroller.viewportHeight;
    const top = offset - h * OVERSCAN;
    const bottom = offset + h * (1 + OVERSCAN);
    const wantCells = [];
    const wantHeaders = [];
    const ranges = new Map(); // section → [first item, last item] rendered
    grid.visit(top, bottom, (s) => wantHeaders.push(s), (s, i) => {
      wantCells.push(s, i);
      const r = ranges.get(s);
      if (r) r[1] = i; else ranges.set(s, [i, i]);
    });
    const keep = new Set();
    for (let k = 0; k < wantCells.length; k += 2) keep.add(`${wantCells[k]}:${wantCells[k + 1]}`);
    for (const [key, el] of this.cells) if (!keep.has(key)) { this.cells.delete(key); this.spareCells.push(el); }
    const keepHeaders = new Set(wantHeaders);
    for (const [s, el] of this.headers) if (!keepHeaders.has(s)) { this.headers.delete(s); this.spareHeaders.push(el); }

    for (const s of wantHeaders) {
      const el = this.headers.get(s) || this.takeHeader(s);
      place(el, 0, grid.sections[s].y - base);
    }
    for (let k = 0; k < wantCells.length; k += 2) {
      const s = wantCells[k];
      const i = wantCells[k + 1];
      const key = `${s}:${i}`;
      const el = this.cells.get(key) || this.takeCell(s, i, key);
      place(el, grid.cellLeft(i), grid.cellTop(s, i) - base);
    }
    // What was not reused leaves the picture.
    while (this.spareCells.length) this.releaseCell(this.spareCells.pop());
    while (this.spareHeaders.length) this.releaseHeader(this.spareHeaders.pop());
    for (const [s, [first, last]] of ranges) this.ensurePages(s, first, last);
    this.onChange(offset);
  }

  /** Fetches the pages of section `s` that hold items first…last, and fills their cells when they come. */
  ensurePages(s, first, last) {
    if (this.holdFetches) return;
    const level = this.level;
    for (let p = Math.floor(first / api.PAGE); p <= Math.floor(last / api.PAGE); p++) {
      if (api.hasPage(level, s, p * api.PAGE)) continue;
      api.page(level, s, p).then(() => {
        if (this.level !== level) return;
        for (let i = p * api.PAGE; i < (p + 1) * api.PAGE; i++) {
          const el = this.cells.get(`${s}:${i}`);
          if (el) this.fill(el, s, i);
        }
      }, () => { /* the cells stay placeholders; the next render asks again */ });
    }
  }

  /**
   * Resolves when the photos of every cell rendered at `offset` in `grid` have arrived (or failed),
   * or after `wait` ms, so a new layout appears with its photos rather than blank cells first.
   */
  prefetch(grid, level, offset, wait = PREFETCH_WAIT) {
    offset = grid.clampOffset(offset);
    const h = this.viewport().height;
    const ranges = new Map();
    grid.visit(offset - h * OVERSCAN, offset + h * (1 + OVERSCAN), () => {}, (s, i) => {
      const r = ranges.get(s);
      if (r) r[1] = i; else ranges.set(s, [i, i]);
    });
    const requests = [];
    for (const [s, [first, last]] of ranges) {
      for (let p = Math.floor(first / api.PAGE); p <= Math.floor(last / api.PAGE); p++) requests.push(api.page(level, s, p).catch(() => null));
    }
    return Promise.race([Promise.all(requests), new Promise((resolve) => { setTimeout(resolve, wait); })]);
  }

  takeCell(s, i, key) {
    const el = this.spareCells.pop() || this.cellPool.pop() || this.createCell();
    el.dataset.section = String(s);
    el.dataset.item = String(i);
    this.fill(el, s, i);
    if (!el.parentNode) this.layer.appendChild(el);
    if (el.hidden) el.hidden = false;
    this.cells.set(key, el);
    return el;
  }

  createCell() {
    const el = document.createElement('div');
    el.className = 'cell';
    el.tabIndex = -1;
    el.setAttribute('role', 'button');
    const img = document.createElement('img');
    img.alt = '';
    img.decoding = 'async';
    img.draggable = false;
    img.hidden = true;
    el.appendChild(img);
    const badge = document.createElement('span');
    badge.className = 'badge';
    el.appendChild(badge);
    return el;
  }

  fill(el, s, i) {
    const photo = api.peekPhoto(this.level, s, i);
    const img = el.firstChild;
    if (!photo) {
      if (el.dataset.photoId !== undefined) {
        delete el.dataset.photoId;
        el.removeAttribute('aria-label');
        el.classList.remove('video');
      }
      clearThumbnail(img);
      return;
    }
    const id = String(photo.id);
    const size = cellSize(photo, this.grid.cellSide);
    if (el.dataset.photoId === id && img.dataset.size === size) return;
    el.dataset.photoId = id;
    el.setAttribute('aria-label', `${photo.mediaType === 'video' ? 'Video' : 'Photo'} ${photo.captured.replace('T', ' ')}`);
    el.classList.toggle('video', photo.mediaType === 'video');
    setThumbnail(img, photo.id, size);
  }

  releaseCell(el) {
    clearThumbnail(el.firstChild);
    delete el.dataset.photoId;
    if (this.cellPool.length >= POOL_LIMIT) { el.remove(); return; }
    el.hidden = true;
    this.cellPool.push(el);
  }

  takeHeader(s) {
    const el = this.spareHeaders.pop() || this.headerPool.pop() || this.createHeader();
    const info = (this.labels.get(this.level) || [])[s];
    el.dataset.section = String(s);
    const [title, sub] = el.children;
    title.textContent = info ? headerTitle(info) : '';
    sub.textContent = info ? countText(info, this.level) : '';
    if (!el.parentNode) this.layer.appendChild(el);
    if (el.hidden) el.hidden = false;
    this.headers.set(s, el);
    return el;
  }

  createHeader() {
    const el = document.createElement('div');
    el.className = 'section-header';
    el.setAttribute('role', 'heading');
    el.setAttribute('aria-level', '2');
    el.append(document.createElement('span'), document.createElement('span'));
    el.children[0].className = 'title';
    el.children[1].className = 'count';
    return el;
  }

  releaseHeader(el) {
    el.hidden = true;
    this.headerPool.push(el);
  }

  /** Viewport y (relative to the timeline's top) of a cell, in content terms. */
  cellViewportY(s, i) { return this.grid.cellTop(s, i) - this.scroller.offset; }

  /**
   * The photos the person is looking at, best anchor first: the cells of the rows from the first
   * one that starts inside the viewport (then the rows under it, then the row cut by the top
   * edge), each `{section, item, dy, id, captured}` with `dy` its viewport y; `id` is null while
   * its page has not arrived.
   */
  anchorCandidates(limit = 24) {
    const grid = this.grid;
    if (!grid || !grid.sections.length) return [];
    const offset = this.scroller.offset;
    const h = this.scroller.viewportHeight;
    const inside = [];
    const cut = [];
    grid.visit(offset, offset + h, () => {}, (s, i) => {
      const dy = grid.cellTop(s, i) - offset;
      const photo = api.peekPhoto(this.level, s, i);
      const c = { section: s, item: i, dy, id: photo ? photo.id : null, captured: photo ? photo.captured : null };
      (dy >= -0.5 ? inside : cut).push(c);
    });
    return inside.concat(cut).slice(0, limit);
  }

  sectionLabel(s) {
    const list = this.labels.get(this.level) || [];
    return list[s] ? list[s].label : '';
  }
}

/** Moves a cell or header to (x, y) in the layer, writing only when it moved. */
function place(el, x, y) {
  if (el._x === x && el._y === y) return;
  el._x = x;
  el._y = y;
  el.style.transform = `translate(${x}px, ${y}px)`;
}

const number = new Intl.NumberFormat('en-GB');
function countText(info, level) {
  const noun = (n) => (n === 1 ? 'photo' : 'photos');
  if (level === 'coarse' && info.shown < info.count) return `${number.format(info.shown)} shown of ${number.format(info.count)}`;
  return `${number.format(info.count)} ${noun(info.count)}`;
}

/** "Lisbon, Sintra · 8 – 14 Mar 2025": the section's places (if any) before its dates. */
export function headerTitle(info) {
  const places = Array.isArray(info.places) ? info.places.filter(Boolean) : [];
  return places.length ? `${places.join(', ')} · ${info.label}` : info.label;
}
