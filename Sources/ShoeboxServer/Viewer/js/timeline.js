// The virtualised timeline of one level (years, coarse or fine, packed: grid.js): labels and square
// cells near the viewport, nothing else. At the Years level each year is a card (its label, the key
// photo's cell and a strip of its twelve months' counts).
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
  constructor(element, { onChange, onLayout } = {}) {
    this.element = element;
    this.spacer = element.querySelector('.spacer');
    this.layer = element.querySelector('.layer');
    this.onChange = onChange || (() => {});
    this.onLayout = onLayout || (() => {}); // a new grid is in place
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
    const grid = await this.load(level);
    await this.prefetch(grid, level, offset);
    this.swap(grid, level, grid.list, offset);
  }

  /** The packed grid of `level` for this viewport, in the current scope. */
  async load(level) {
    const size = this.viewport();
    const [list, insets] = await Promise.all([api.sectionList(level), api.insets(size.width, size.height)]);
    return new Grid(level, list, size, insets);
  }

  /** Replaces the grid and scrolls to `offset` in one go (the next paint shows the new layout). */
  swap(grid, level, list, offset) {
    this.holdFetches = false;
    this.labels.set(level, list);
    this.setGrid(grid, level);
    this.scroller.scrollTo(offset);
  }

  setGrid(grid, level) {
    if (level === 'years' || this.level === 'years') {
      // Year cards hold their cells: nothing is reused between the Years level and another.
      for (const el of [...this.cells.values(), ...this.headers.values(), ...this.cellPool, ...this.headerPool]) el.remove();
      this.cellPool = [];
      this.headerPool = [];
    } else {
      // The cells stay where they are until render() reuses them: nothing is hidden in between.
      for (const el of this.cells.values()) this.spareCells.push(el);
      for (const el of this.headers.values()) this.spareHeaders.push(el);
    }
    this.cells.clear();
    this.headers.clear();
    this.grid = grid;
    this.level = level;
    this.element.dataset.level = level;
    this.element.style.setProperty('--cell', `${grid.cellSide}px`);
    this.element.style.setProperty('--label', `${grid.packed.metrics.labelHeight}px`);
    this.element.style.setProperty('--footer', `${grid.packed.metrics.footerHeight}px`);
    this.element.classList.toggle('labels-over', grid.packed.metrics.labelHeight === 0);
    this.scroller.setContent(grid.contentHeight, this.viewport().height);
    this.onLayout(grid);
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
      const b = grid.blockFrame(s);
      const years = this.level === 'years';
      const height = years ? b.label.height + b.height + b.footer.height : b.label.height;
      if (el._w !== b.width || el._h !== height) {
        el._w = b.width;
        el._h = height;
        el.style.width = `${b.width}px`;
        el.style.height = `${height}px`;
      }
      // A card at the right edge keeps its count clear of the scrubber's thumb.
      if (years) el.classList.toggle('at-right-edge', b.x + b.width >= grid.packed.width - 1);
      place(el, b.label.x, b.label.y - base);
    }
    for (let k = 0; k < wantCells.length; k += 2) {
      const s = wantCells[k];
      const i = wantCells[k + 1];
      const key = `${s}:${i}`;
      const el = this.cells.get(key) || this.takeCell(s, i, key);
      const card = this.level === 'years' ? this.headers.get(s) : null;
      if (card) {
        if (el.parentNode !== card) card.insertBefore(el, card.lastChild);
        const b = grid.blockFrame(s);
        place(el, grid.cellLeft(s, i) - b.label.x, grid.cellTop(s, i) - b.label.y);
      } else place(el, grid.cellLeft(s, i), grid.cellTop(s, i) - base);
    }
    // What was not reused leaves the picture.
    while (this.spareCells.length) this.releaseCell(this.spareCells.pop());
    while (this.spareHeaders.length) this.releaseHeader(this.spareHeaders.pop());
    for (const [s, [first, last]] of ranges) this.ensurePages(s, first, last);
    this.onChange(offset);
  }

  /** Fetches the pages of section `s` that hold items first…last, and fills their cells when they come. */
  ensurePages(s, first, last) {
    if (this.holdFetches || this.level === 'years') return;
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
    if (level === 'years') return Promise.resolve();
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
        delete el.dataset.stackCount;
        el.removeAttribute('aria-label');
        el.classList.remove('video', 'stack');
      }
      clearThumbnail(img);
      return;
    }
    const id = String(photo.id);
    // Selection mode (select.js) marks each cell it renders; outside it no cell carries the state.
    if (this.isSelected) el.setAttribute('aria-selected', String(this.isSelected(photo.id)));
    else if (el.hasAttribute('aria-selected')) el.removeAttribute('aria-selected');
    const size = cellSize(photo, this.grid.cellSide);
    if (el.dataset.photoId === id && img.dataset.size === size) return;
    el.dataset.photoId = id;
    const kind = photo.mediaType === 'video' ? 'Video' : 'Photo';
    // A stack (burst, RAW+JPEG, edit) is one cell with its count; the pager shows every member.
    if (photo.stackCount > 1) {
      el.dataset.stackCount = String(photo.stackCount);
      el.lastChild.textContent = String(photo.stackCount);
      el.setAttribute('aria-label', `${kind} ${photo.captured.replace('T', ' ')}, a stack of ${photo.stackCount}`);
    } else {
      delete el.dataset.stackCount;
      el.lastChild.textContent = '';
      el.setAttribute('aria-label', `${kind} ${photo.captured.replace('T', ' ')}`);
    }
    el.classList.toggle('stack', photo.stackCount > 1);
    el.classList.toggle('video', photo.mediaType === 'video');
    setThumbnail(img, photo.id, size);
  }

  releaseCell(el) {
    clearThumbnail(el.firstChild);
    el.removeAttribute('aria-selected');
    delete el.dataset.photoId;
    delete el.dataset.stackCount;
    el.classList.remove('stack');
    if (this.cellPool.length >= POOL_LIMIT) { el.remove(); return; }
    el.hidden = true;
    this.cellPool.push(el);
  }

  takeHeader(s) {
    const el = this.spareHeaders.pop() || this.headerPool.pop() || this.createHeader();
    const info = (this.labels.get(this.level) || [])[s];
    el.dataset.section = String(s);
    if (this.level === 'years') fillYearCard(el, info);
    else {
      const [title, sub] = el.children;
      fillTitle(title, info);
      sub.textContent = info ? countText(info, this.level) : '';
      el.title = info ? `${headerTitle(info)} · ${countText(info, this.level)}` : '';
    }
    if (!el.parentNode) this.layer.appendChild(el);
    if (el.hidden) el.hidden = false;
    this.headers.set(s, el);
    return el;
  }

  createHeader() {
    if (this.level === 'years') return createYearCard();
    const el = document.createElement('div');
    el.className = 'section-header';
    el.dataset.sectionHeader = '';
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
    if (!grid || !grid.sectionCount) return [];
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
    if (!list[s]) return '';
    return list[s].label ?? String(list[s].year);
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
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A Years card: the year, "this day, N years ago" (shortened to "this day", or left out, where the
 * card is narrow: the year is never cut) and its count over the key photo, the twelve months'
 * counts under it.
 */
function createYearCard() {
  const el = document.createElement('div');
  el.className = 'section-header year-card';
  el.setAttribute('role', 'group');
  const title = document.createElement('div');
  title.className = 'year-title';
  const ago = document.createElement('span');
  ago.className = 'ago';
  ago.append(document.createElement('span'), document.createElement('span'));
  ago.children[0].className = 'long';
  ago.children[1].className = 'short';
  title.append(document.createElement('span'), ago, document.createElement('span'));
  title.children[0].className = 'title';
  title.children[2].className = 'count';
  const months = document.createElement('div');
  months.className = 'months';
  for (let m = 0; m < 12; m++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'month';
    b.dataset.month = String(m + 1);
    b.append(document.createElement('span'));
    months.append(b);
  }
  el.append(title, months);
  return el;
}

function fillYearCard(el, info) {
  const title = el.querySelector('.year-title');
  const months = el.querySelector('.months'); // the key photo's cell sits between them
  if (!info) { delete el.dataset.year; return; }
  el.dataset.year = String(info.year);
  el.dataset.count = String(info.count);
  el.setAttribute('aria-label', `${info.year}: ${number.format(info.count)} ${info.count === 1 ? 'photo' : 'photos'}`);
  title.querySelector('.title').textContent = String(info.year);
  title.querySelector('.count').textContent = number.format(info.count);
  const ago = title.querySelector('.ago');
  const [long, short] = thisDayText(info);
  ago.children[0].textContent = long;
  ago.children[1].textContent = short;
  ago.title = long;
  const most = Math.max(1, ...info.months);
  info.months.forEach((n, m) => {
    const b = months.children[m];
    b.dataset.count = String(n);
    b.disabled = n === 0;
    b.title = `${MONTHS[m]} ${info.year}: ${number.format(n)} ${n === 1 ? 'photo' : 'photos'}`;
    b.firstChild.style.height = `${n ? Math.max(12, Math.round((100 * n) / most)) : 0}%`;
  });
}

/** ["This day, 7 years ago", "This day"] when the key photo was taken on today's month and day, else empty texts. */
function thisDayText(info) {
  const today = new Date();
  const day = info.keyDay || '';
  const same = Number(day.slice(5, 7)) === today.getMonth() + 1 && Number(day.slice(8, 10)) === today.getDate();
  const years = today.getFullYear() - info.year;
  if (!same || years <= 0) return ['', ''];
  return [`This day, ${years} ${years === 1 ? 'year' : 'years'} ago`, 'This day'];
}
function countText(info, level) {
  const noun = (n) => (n === 1 ? 'photo' : 'photos');
  if (level === 'coarse' && info.shown < info.count) return `${number.format(info.shown)} shown of ${number.format(info.count)}`;
  // A stack is one cell but all of its photos here (`photoCount`, given when there is a stack).
  const photos = info.photoCount ?? info.count;
  return `${number.format(photos)} ${noun(photos)}`;
}

/**
 * A header's title: the section's place names as a link to the map there (`.place-names`, its first
 * place in `data-place`), then its dates.
 */
function fillTitle(title, info) {
  const places = info && Array.isArray(info.places) ? info.places.filter(Boolean) : [];
  if (!places.length) { title.textContent = info ? info.label : ''; return; }
  const names = document.createElement('span');
  names.className = 'place-names';
  names.dataset.place = places[0];
  names.title = `${places[0]} on the map`;
  names.textContent = places.join(', ');
  title.replaceChildren(names, ` · ${info.label}`);
}

/** "Lisbon, Sintra · 8 – 14 Mar 2025": the section's places (if any) before its dates. */
export function headerTitle(info) {
  const places = Array.isArray(info.places) ? info.places.filter(Boolean) : [];
  return places.length ? `${places.join(', ')} · ${info.label}` : info.label;
}
