// The virtualised timeline of one level: headers and square cells near the viewport, nothing else.
//
// Cells and headers are recycled from pools; a cell gets `data-section`/`data-item` at once and
// `data-photo-id` when its section's photos arrive (fetched only for sections near the viewport).

import * as api from './api.js';
import { Grid } from './grid.js';
import { BoundedScroller } from './scroller.js';
import { setThumbnail, clearThumbnail } from './thumbnails.js';

const OVERSCAN = 0.4; // viewport heights rendered above and below
const POOL_LIMIT = 120; // spare cells kept for reuse

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
    this.cellPool = [];
    this.headerPool = [];
    this.frame = 0;
    this.scroller = new BoundedScroller(element, this.spacer, (sync) => (sync ? this.render() : this.schedule()));
  }

  get offset() { return this.scroller.offset; }

  viewport() {
    return { width: Math.floor(this.element.clientWidth), height: Math.floor(this.element.clientHeight) };
  }

  /** Shows `level` scrolled to content offset `offset`; resolves once the layout is in place. */
  async show(level, offset) {
    const { width, height } = this.viewport();
    const [layout, list] = await Promise.all([api.layout(level, width, height), api.sectionList(level)]);
    this.labels.set(level, list);
    this.setGrid(new Grid(layout), level);
    this.scroller.scrollTo(offset);
  }

  setGrid(grid, level) {
    for (const key of [...this.cells.keys()]) this.recycleCell(key);
    for (const s of [...this.headers.keys()]) this.recycleHeader(s);
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
    const wantCells = new Set();
    const wantHeaders = new Set();
    const needed = new Set();
    grid.visit(top, bottom, (s) => wantHeaders.add(s), (s, i) => { wantCells.add(`${s}:${i}`); needed.add(s); });
    for (const key of [...this.cells.keys()]) if (!wantCells.has(key)) this.recycleCell(key);
    for (const s of [...this.headers.keys()]) if (!wantHeaders.has(s)) this.recycleHeader(s);
    for (const s of wantHeaders) {
      const el = this.headers.get(s) || this.makeHeader(s);
      el.style.top = `${grid.sections[s].y - base}px`;
    }
    for (const key of wantCells) {
      let el = this.cells.get(key);
      const [s, i] = key.split(':').map(Number);
      if (!el) el = this.makeCell(s, i);
      el.style.top = `${grid.cellTop(s, i) - base}px`;
      el.style.left = `${grid.cellLeft(i)}px`;
    }
    for (const s of needed) this.ensureSection(s);
    this.onChange(offset);
  }

  ensureSection(s) {
    const level = this.level;
    if (api.peekSection(level, s)) return;
    api.section(level, s).then(() => {
      if (this.level !== level) return;
      for (const [key, el] of this.cells) if (key.startsWith(`${s}:`)) this.fill(el, s, Number(el.dataset.item));
    }, () => { /* the section stays as placeholders */ });
  }

  makeCell(s, i) {
    const el = this.cellPool.pop() || this.createCell();
    el.dataset.section = String(s);
    el.dataset.item = String(i);
    this.fill(el, s, i);
    if (!el.parentNode) this.layer.appendChild(el);
    el.hidden = false;
    this.cells.set(`${s}:${i}`, el);
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
    const data = api.peekSection(this.level, s);
    const photo = data && data.photos[i];
    const img = el.firstChild;
    if (!photo) {
      delete el.dataset.photoId;
      el.removeAttribute('aria-label');
      el.classList.remove('video');
      clearThumbnail(img);
      return;
    }
    el.dataset.photoId = String(photo.id);
    el.setAttribute('aria-label', `${photo.mediaType === 'video' ? 'Video' : 'Photo'} ${photo.captured.replace('T', ' ')}`);
    el.classList.toggle('video', photo.mediaType === 'video');
    setThumbnail(img, photo.id);
  }

  recycleCell(key) {
    const el = this.cells.get(key);
    this.cells.delete(key);
    clearThumbnail(el.firstChild);
    delete el.dataset.photoId;
    if (this.cellPool.length >= POOL_LIMIT) { el.remove(); return; }
    el.hidden = true;
    this.cellPool.push(el);
  }

  makeHeader(s) {
    const el = this.headerPool.pop() || this.createHeader();
    const info = (this.labels.get(this.level) || [])[s];
    el.dataset.section = String(s);
    const [title, sub] = el.children;
    title.textContent = info ? info.label : '';
    sub.textContent = info ? countText(info, this.level) : '';
    if (!el.parentNode) this.layer.appendChild(el);
    el.hidden = false;
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

  recycleHeader(s) {
    const el = this.headers.get(s);
    this.headers.delete(s);
    el.hidden = true;
    this.headerPool.push(el);
  }

  /** Viewport y (relative to the timeline's top) of a cell, in content terms. */
  cellViewportY(s, i) { return this.grid.cellTop(s, i) - this.scroller.offset; }

  sectionLabel(s) {
    const list = this.labels.get(this.level) || [];
    return list[s] ? list[s].label : '';
  }
}

const number = new Intl.NumberFormat('en-GB');
function countText(info, level) {
  const noun = (n) => (n === 1 ? 'photo' : 'photos');
  if (level === 'coarse' && info.shown < info.count) return `${number.format(info.shown)} shown of ${number.format(info.count)}`;
  return `${number.format(info.count)} ${noun(info.count)}`;
}
