// The viewer: wires the timeline, zoom, gestures, scrubber, pager, search, places, URL and live
// library together.

import * as api from './api.js';
import { Timeline } from './timeline.js';
import { Scrubber } from './scrubber.js';
import { Pager } from './pager.js';
import { installPinch } from './gestures.js';
import { animate, easeOut } from './animation.js';
import * as urlState from './history.js';
import { Grid } from './grid.js';
import { SharedLiveLibrary } from './events.js';
import { StatusPill } from './status.js';
import { retryFailed } from './thumbnails.js';
import { SearchField } from './search.js';
import { PlacesPage } from './places.js';

const $ = (selector) => document.querySelector(selector);
const timelineElement = $('#timeline');
const layer = timelineElement.querySelector('.layer');
const debug = { zooms: [], ready: false, errors: [], refreshes: [], returns: [], events: { changed: 0, progress: [] } };
window.shoebox = debug; // read by the browser tests

let library = null;
let busy = false;
let pagerOpening = false; // the pager's first page must not replace the grid's history entry
let urlTimer = 0;
let lastOpened = null; // the photo last opened in the pager in this scope (the one under attention)
let searchLabel = null; // a place's name, when its result was opened from the Places page
let searchFromPlaces = false; // leaving that result shows the Places page again
let beforeSearch = null; // the library's view when the search began (for an empty result's way back)

const timeline = new Timeline(timelineElement, {
  onChange(offset) {
    scrubber.update(offset);
    clearTimeout(urlTimer);
    urlTimer = setTimeout(() => { if (!busy) urlState.replace(currentState()); }, 250);
  },
});

const scrubber = new Scrubber($('#scrubber'), {
  getRange: () => ({ max: timeline.scroller.maxOffset, offset: timeline.offset }),
  scrollTo: (offset) => timeline.scroller.scrollTo(offset),
  labelAt: (offset) => (timeline.grid ? timeline.sectionLabel(timeline.grid.sectionAt(offset + 1)) : ''),
});

const pager = new Pager($('#pager'), {
  sectionCount: () => (timeline.labels.get('fine') || []).length,
  onChange: () => {
    if (pager.current) lastOpened = pager.current.id;
    if (!busy && !pagerOpening) urlState.replace(currentState());
  },
  onClose: () => closePager(true),
});

const status = new StatusPill($('#status'));

const searchField = new SearchField($('#search-input'), $('#result-bar'), {
  onQuery: (q, { submitted = false } = {}) => runSearch(q).then(() => {
    // Enter: the keys go back to the result (+, -, Enter, Escape), and a phone's keyboard closes.
    if (submitted && q) timelineElement.focus({ preventScroll: true });
  }).catch(reportError),
  onClear: () => leaveSearch().catch(reportError),
});

const places = new PlacesPage($('#places'), {
  onOpen: (query, label) => runSearch(query, { label, fromPlaces: true }).catch(reportError),
});
$('#places-button').addEventListener('click', () => (places.isOpen ? closePlaces() : openPlaces()).catch(reportError));

function currentState() {
  const [top] = timeline.anchorCandidates(1);
  const anchor = top ? { id: top.id, section: top.section, item: top.item, dy: top.dy } : null;
  const current = pager.isOpen ? pager.current : null;
  const photo = current ? { id: current.id, section: pager.section, item: pager.index } : null;
  const place = api.currentQuery() && (searchLabel || searchFromPlaces) ? { label: searchLabel, fromPlaces: searchFromPlaces } : null;
  return { q: api.currentQuery(), level: timeline.level, anchor, photo, view: places.isOpen ? 'places' : null, place };
}

function setLevelButtons(level) {
  for (const b of document.querySelectorAll('[data-set-level]')) b.setAttribute('aria-pressed', String(b.dataset.setLevel === level));
}

function viewportParam() {
  const { width, height } = timeline.viewport();
  return `${width}x${height}`;
}

/** Asks the API where the other level must scroll, then shows it there (the API is the one source of truth). */
async function zoom(params, point) {
  if (busy) return null;
  busy = true;
  timelineElement.dataset.busy = 'true';
  clearTimeout(urlTimer);
  const before = currentState();
  try {
    const result = await api.zoom({ ...params, offset: timeline.offset, viewport: viewportParam() });
    const toLevel = result.to.level;
    const oldSide = timeline.grid.cellSide;
    await timeline.show(toLevel, result.contentOffsetY);
    setLevelButtons(toLevel);
    debug.zooms.push(result);
    urlState.replace(before); // Back returns exactly here
    urlState.push(currentState());
    await transition(oldSide / timeline.grid.cellSide, point || {
      x: timeline.grid.cellLeft(result.to.item) + timeline.grid.cellSide / 2,
      y: result.targetViewportY + timeline.grid.cellSide / 2,
    });
    return result;
  } catch (error) {
    reportError(error);
    return null;
  } finally {
    busy = false;
    delete timelineElement.dataset.busy;
  }
}

/** A short zoom of the new grid from the old cell size, about the anchor point. */
async function transition(fromScale, point) {
  timelineElement.dataset.animating = 'true';
  layer.style.transformOrigin = `${point.x}px ${point.y + timeline.scroller.top}px`;
  await animate(200, (p) => {
    const s = fromScale + (1 - fromScale) * p;
    layer.style.transform = p < 1 ? `scale(${s})` : '';
    layer.style.opacity = String(0.4 + 0.6 * p);
  }, easeOut).finished;
  layer.style.transform = '';
  layer.style.opacity = '';
  delete timelineElement.dataset.animating;
}

function zoomAtPoint(direction, point) {
  const level = timeline.level;
  if ((direction === 'in' && level !== 'coarse') || (direction === 'out' && level !== 'fine')) {
    resetPreview();
    return Promise.resolve(null);
  }
  resetPreview();
  return zoom({ from: level, focalY: point.y, focalX: point.x }, point);
}

function viewportCentre() {
  const { width, height } = timeline.viewport();
  return { x: width / 2, y: height / 2 };
}

function resetPreview() {
  if (!busy) { layer.style.transform = ''; layer.style.transformOrigin = ''; }
}

// Taps: a coarse photo zooms in about itself; a fine photo opens the pager.
layer.addEventListener('click', (e) => {
  const cell = e.target.closest('.cell');
  if (!cell || busy) return;
  const section = Number(cell.dataset.section);
  const item = Number(cell.dataset.item);
  if (timeline.level === 'coarse') zoom({ from: 'coarse', section, item });
  else openPager(section, item);
});

installPinch(timelineElement, {
  onPreview(scale, focal) {
    if (busy) return;
    layer.style.transformOrigin = `${focal.x}px ${focal.y + timeline.scroller.top}px`;
    layer.style.transform = `scale(${Math.min(2.5, Math.max(0.4, scale))})`;
  },
  onPinch: (direction, point) => zoomAtPoint(direction, point),
  onCancel: resetPreview,
});

for (const button of document.querySelectorAll('[data-set-level]')) {
  button.addEventListener('click', () => {
    const target = button.dataset.setLevel;
    if (target !== timeline.level) zoomAtPoint(target === 'fine' ? 'in' : 'out', viewportCentre());
  });
}

async function openPager(section, item, { push = true } = {}) {
  pagerOpening = true;
  clearTimeout(urlTimer);
  if (push) urlState.replace(currentState());
  try {
    await pager.open(section, item);
    if (pager.current) lastOpened = pager.current.id;
    document.body.classList.add('pager-open');
    if (push) urlState.push(currentState());
  } catch (error) {
    reportError(error);
  } finally {
    pagerOpening = false;
  }
}

/** Back to the grid at the same place; if the pager moved on, the photo's cell is brought into view. */
function closePager(viaUser) {
  if (!pager.isOpen) return;
  const { section, index } = pager;
  pager.close();
  document.body.classList.remove('pager-open');
  if (timeline.level === 'fine' && timeline.grid) {
    const y = timeline.cellViewportY(section, index);
    const h = timeline.scroller.viewportHeight;
    const side = timeline.grid.cellSide;
    if (y < 0 || y + side > h) timeline.scroller.scrollTo(timeline.grid.cellTop(section, index) - (h - side) / 2);
  }
  timelineElement.focus({ preventScroll: true });
  if (viaUser) urlState.push(currentState());
}

/** A field that takes typing: keys there are text, not shortcuts. */
function isTextInput(target) {
  return target instanceof HTMLTextAreaElement || target.isContentEditable
    || (target instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'range', 'submit'].includes(target.type));
}

document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.altKey || e.metaKey) return;
  if (e.key === '/' && !e.ctrlKey && !isTextInput(e.target)) {
    e.preventDefault();
    if (pager.isOpen) closePager(true);
    searchField.focus();
    return;
  }
  if (pager.isOpen) {
    if (e.key === 'ArrowRight') { e.preventDefault(); pager.next(); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); pager.previous(); }
    else if (e.key === 'Escape') { e.preventDefault(); closePager(true); }
    return;
  }
  if (isTextInput(e.target)) return;
  if (e.key === 'Escape' && places.isOpen) { e.preventDefault(); closePlaces().catch(reportError); return; }
  if (e.key === 'Escape' && api.currentQuery()) { e.preventDefault(); leaveSearch().catch(reportError); return; }
  if (places.isOpen) return;
  if (e.key === '+' || e.key === '=') { e.preventDefault(); zoomAtPoint('in', viewportCentre()); }
  else if (e.key === '-' || e.key === '_') { e.preventDefault(); zoomAtPoint('out', viewportCentre()); }
  else if (e.key === 'Home' && !e.ctrlKey) { e.preventDefault(); timeline.scroller.scrollTo(0); }
  else if (e.key === 'End' && !e.ctrlKey) { e.preventDefault(); timeline.scroller.scrollTo(timeline.scroller.maxOffset); }
  else if (e.key === 'Enter' && e.target === timelineElement) {
    const { x, y } = viewportCentre();
    const hit = timeline.grid.cellAtPoint(x, y, timeline.offset) || timeline.grid.anchorAt(timeline.offset);
    if (timeline.level === 'coarse') zoom({ from: 'coarse', section: hit.section, item: hit.item });
    else openPager(hit.section, hit.item);
  }
});

window.addEventListener('popstate', () => restore(urlState.readURL()).catch(reportError));

let resizeTimer = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (!timeline.grid) return;
    const state = currentState();
    timeline.measure();
    restore(state).catch(reportError);
  }, 150);
});

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** Content offset that puts item `item` of section `section` at viewport y `dy` in `grid`. */
function offsetFor(grid, { section, item, dy }) {
  if (section >= grid.sections.length) return grid.contentHeight;
  const i = Math.min(item, Math.max(0, grid.sections[section].items - 1));
  return grid.cellTop(section, i) - dy;
}

/**
 * Where photo `id` is shown at `level`: `{section, item, how}`, or null when the library has no such
 * photo. At the coarse level a photo the sample hides is replaced by its nearest shown neighbour,
 * as the server's zoom mapping picks it (`how: 'neighbour'`).
 */
async function locate(id, level, position) {
  const pos = position === undefined ? await api.position(id) : position;
  if (!pos) return null;
  if (pos[level]) return { ...pos[level], how: 'photo' };
  const z = await api.zoom({ from: 'fine', section: pos.fine.section, item: pos.fine.item, offset: 0, viewport: viewportParam() });
  return { section: z.to.section, item: z.to.item, how: 'neighbour' };
}

async function restore(state) {
  while (busy) await sleep(30); // a zoom, refresh or another restore finishes first
  busy = true;
  timelineElement.dataset.busy = 'true';
  try {
    const level = state.level;
    const q = state.q || '';
    const total = q ? api.searchTotal(q) : Promise.resolve(0);
    total.catch(() => {}); // awaited below, with the layout
    const newScope = q !== api.currentQuery();
    if (newScope) {
      timeline.holdFetches = true; // the old grid's sections are not the new scope's
      api.setQuery(q);
      lastOpened = null;
    }
    searchLabel = (q && state.place && state.place.label) || null;
    searchFromPlaces = Boolean(q && state.place && state.place.fromPlaces);
    searchField.setValue(searchLabel ? '' : q); // a place's query is the bar's business, not the field's
    document.body.classList.toggle('searching', Boolean(q));
    // "Searching…" while a new scope loads; the bar moves the timeline when it comes or goes
    if (newScope && searchField.showResult(q, null, searchLabel)) timeline.measure();
    const { width, height } = timeline.viewport();
    const [layout, list, count] = await Promise.all([api.layout(level, width, height), api.sectionList(level), total]);
    searchField.showResult(q, count, searchLabel);
    timelineElement.dataset.query = q;
    debug.search = q ? { query: q, total: count } : null;
    const grid = new Grid(layout);
    let offset = 0;
    const a = state.anchor;
    if (a) {
      const found = a.id !== null && a.id !== undefined ? await locate(a.id, level) : null;
      offset = offsetFor(grid, found ? { ...found, dy: a.dy } : a);
    }
    await timeline.prefetch(grid, level, offset);
    timeline.swap(grid, level, list, offset);
    setLevelButtons(level);
    const empty = Boolean(q) && list.length === 0;
    document.body.classList.toggle('empty-result', empty);
    $('#no-results').hidden = !empty;
    let photo = state.photo;
    if (photo && photo.id !== null && level === 'fine') {
      const pos = await api.position(photo.id);
      photo = pos ? pos.fine : null;
    }
    if (photo && level === 'fine') await openPager(photo.section, photo.item, { push: false });
    else if (pager.isOpen) closePager(false);
    if (state.view === 'places') await showPlaces();
    else hidePlaces();
  } finally {
    busy = false;
    delete timelineElement.dataset.busy;
  }
}

// Search and places: a result is a timeline of its own (every request carries its `q`); leaving it
// shows the whole library at the photo the person was looking at.

/**
 * Shows the result of search `q` as a timeline (coarse level, from its start). The first search
 * from the library (or from Places) is a new history entry; refining it as one types replaces it.
 */
async function runSearch(q, { label = null, fromPlaces = false } = {}) {
  q = q.trim();
  if (!q) return leaveSearch();
  if (q === api.currentQuery() && !places.isOpen) return;
  const entering = !api.currentQuery() || places.isOpen;
  if (!api.currentQuery()) beforeSearch = currentState();
  const place = label ? { label, fromPlaces } : (!entering && searchFromPlaces ? { label: null, fromPlaces: true } : null);
  clearTimeout(urlTimer);
  if (pager.isOpen) closePager(false);
  urlState.replace(currentState());
  await restore({ q, level: 'coarse', anchor: null, photo: null, view: null, place });
  if (entering) urlState.push(currentState()); else urlState.replace(currentState());
  if (fromPlaces) timelineElement.focus({ preventScroll: true });
}

/**
 * The photo under attention and its viewport y: the one last opened in the pager if it is on
 * screen, else the one nearest the viewport's centre; null for an empty view.
 */
function attentionPhoto() {
  const grid = timeline.grid;
  if (!grid || !grid.sections.length) return null;
  const h = timeline.scroller.viewportHeight;
  if (lastOpened !== null) {
    const cell = layer.querySelector(`.cell[data-photo-id="${lastOpened}"]`);
    if (cell && !cell.hidden) {
      const dy = timeline.cellViewportY(Number(cell.dataset.section), Number(cell.dataset.item));
      if (dy > -grid.cellSide && dy < h) return { id: lastOpened, dy, how: 'opened' };
    }
  }
  // The shown photo nearest the viewport's centre (the centre may fall on a header or a gap).
  const { x, y } = viewportCentre();
  const half = grid.cellSide / 2;
  let best = null;
  let bestDistance = Infinity;
  for (const c of timeline.anchorCandidates(Infinity)) {
    if (c.id === null) continue;
    const distance = Math.hypot(grid.cellLeft(c.item) + half - x, c.dy + half - y);
    if (distance < bestDistance) { best = c; bestDistance = distance; }
  }
  return best ? { id: best.id, dy: best.dy, how: 'centre' } : null;
}

/**
 * Back to the whole library (Escape, ×, an emptied field), at the same level with the photo under
 * attention at the same viewport y (a coarse sample that hides it shows its nearest neighbour).
 * A place's result opened from the Places page shows that page again over it.
 */
async function leaveSearch() {
  if (!api.currentQuery()) {
    searchField.setValue('');
    (places.isOpen ? $('#places') : timelineElement).focus({ preventScroll: true });
    return;
  }
  clearTimeout(urlTimer);
  if (pager.isOpen) closePager(false);
  const target = attentionPhoto();
  const view = searchFromPlaces ? 'places' : null;
  const state = target
    ? { q: '', level: timeline.level, anchor: { id: target.id, section: 0, item: 0, dy: target.dy }, photo: null, view }
    : { ...(beforeSearch || { level: 'coarse', anchor: null, photo: null }), q: '', view };
  urlState.replace(currentState());
  $('#search-input').value = '';
  await restore(state);
  debug.returns.push({ ...target, level: timeline.level });
  urlState.push(currentState());
  if (!places.isOpen) timelineElement.focus({ preventScroll: true });
}

async function showPlaces() {
  $('#places-button').setAttribute('aria-pressed', 'true');
  document.body.classList.add('places-open');
  const shown = places.show();
  $('#places').focus({ preventScroll: true });
  await shown;
}

function hidePlaces() {
  if (!places.isOpen) return;
  places.hide();
  $('#places-button').setAttribute('aria-pressed', 'false');
  document.body.classList.remove('places-open');
}

async function openPlaces() {
  if (places.isOpen) return;
  clearTimeout(urlTimer);
  if (pager.isOpen) closePager(false);
  urlState.replace(currentState());
  await showPlaces();
  urlState.push(currentState());
}

async function closePlaces() {
  if (!places.isOpen) return;
  hidePlaces();
  urlState.push(currentState());
  timelineElement.focus({ preventScroll: true });
}

// The live library: on `library-changed`, the new snapshot replaces the old one without moving
// what the person is looking at.

let refreshing = null;
let refreshAgain = false;

function libraryChanged() {
  debug.events.changed += 1;
  if (refreshing) { refreshAgain = true; return; }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      while (busy) await sleep(50); // a zoom or restore finishes first
      try { await refresh(); } catch (error) { reportError(error); }
    } while (refreshAgain);
  })().finally(() => { refreshing = null; });
}

/**
 * Drops every cached answer, fetches the new layout and finds the anchor in it: the photo at the
 * top-left of the first row that starts inside the viewport keeps its viewport y. If that photo is
 * gone, the next visible one (row by row) is the anchor. At the coarse level, a photo the new sample
 * no longer shows is replaced by a visible one that is still shown, else by its nearest shown
 * neighbour (the server's zoom mapping) at the same y. If no visible photo is left at all, the
 * section holding the first one's date keeps its header at the same y. Scrolling while this runs
 * is kept (the anchor moves with it).
 */
async function refresh() {
  busy = true;
  timelineElement.dataset.busy = 'true';
  const started = performance.now();
  try {
    const level = timeline.level;
    const oldGrid = timeline.grid;
    const offsetBefore = timeline.offset;
    const candidates = oldGrid ? timeline.anchorCandidates(24).filter((c) => c.id !== null) : [];
    timeline.holdFetches = true; // the old grid's sections are not the new snapshot's
    api.reset();
    library = await api.getJSON('/api/library');
    showSummary();
    const q = api.currentQuery();
    if (q && searchField.showResult(q, await api.searchTotal(q), searchLabel)) timeline.measure();
    const { width, height } = timeline.viewport();
    const [layout, list] = await Promise.all([api.layout(level, width, height), api.sectionList(level)]);
    const grid = new Grid(layout);
    let target = null;
    let anchor = null;
    let hidden = null; // a candidate still in the library but not shown at this level
    for (let k = 0; k < candidates.length && !target; k += 8) {
      const batch = candidates.slice(k, k + 8);
      const positions = await Promise.all(batch.map((c) => api.position(c.id)));
      for (let j = 0; j < batch.length; j++) {
        const pos = positions[j];
        if (pos && pos[level]) { anchor = batch[j]; target = { ...pos[level], dy: anchor.dy, how: 'photo' }; break; }
        if (pos && !hidden) hidden = { candidate: batch[j], pos };
      }
    }
    if (!target && hidden) {
      anchor = hidden.candidate;
      target = { ...(await locate(anchor.id, level, hidden.pos)), dy: anchor.dy };
    }
    let offset;
    if (target) offset = offsetFor(grid, target);
    else if (candidates.length && grid.sections.length) {
      anchor = candidates[0];
      const day = anchor.captured.slice(0, 10);
      let s = list.findIndex((x) => x.end >= day);
      if (s < 0) s = list.length - 1;
      const headerDy = oldGrid.sections[anchor.section].y - offsetBefore;
      offset = grid.sections[s].y - headerDy;
      target = { section: s, item: 0, dy: headerDy, how: 'date' };
    } else offset = 0;
    await timeline.prefetch(grid, level, offset);
    offset += timeline.offset - offsetBefore; // what the person scrolled meanwhile
    timeline.swap(grid, level, list, offset);
    updateMessage();
    debug.refreshes.push({
      anchor: anchor && { id: anchor.id, section: anchor.section, item: anchor.item, dy: anchor.dy },
      target, offset: timeline.offset, ms: Math.round(performance.now() - started),
    });
    if (pager.isOpen && pager.current) {
      const pos = await api.position(pager.current.id);
      if (pos) await pager.open(pos.fine.section, pos.fine.item);
    }
    urlState.replace(currentState());
  } finally {
    timeline.holdFetches = false;
    busy = false;
    delete timelineElement.dataset.busy;
  }
}

const live = new SharedLiveLibrary('/api/events', {
  onChanged: libraryChanged,
  onProgress(p) {
    debug.events.progress.push(p);
    if (debug.events.progress.length > 50) debug.events.progress.shift();
    status.indexProgress(p);
  },
  onConnection({ connected, reconnected }) {
    status.connection(connected);
    if (reconnected) { retryFailed(); checkForChanges(); }
  },
});

/** After a reconnect: the library may have changed while the events were not heard. */
async function checkForChanges() {
  try {
    const now = await api.getJSON('/api/library');
    if (library && now.lastIndexed !== library.lastIndexed) libraryChanged();
  } catch { /* offline again: the next reconnect asks again */ }
}

function showSummary() {
  debug.library = library;
  const photos = new Intl.NumberFormat('en-GB').format(library.photos);
  $('#summary').textContent = `${photos} ${library.photos === 1 ? 'photo' : 'photos'}${library.videos ? ` · ${library.videos} videos` : ''}`;
}

let emptyShown = false;
function updateMessage() {
  const box = $('#message');
  if (library.photos === 0) {
    box.textContent = 'No photos yet: index a folder with "shoebox index FOLDER", or serve it with --watch.';
    box.hidden = false;
    emptyShown = true;
  } else if (emptyShown) {
    box.hidden = true;
    emptyShown = false;
  }
}

function reportError(error) {
  debug.errors.push(String(error && error.message || error));
  const box = $('#message');
  box.textContent = error && error.message ? `Something went wrong: ${error.message}` : 'Something went wrong.';
  box.hidden = false;
}

async function start() {
  try {
    library = await api.getJSON('/api/library');
    showSummary();
    updateMessage();
    live.start();
    await restore(urlState.readURL());
    urlState.replace(currentState());
    timelineElement.focus({ preventScroll: true });
  } catch (error) {
    reportError(error);
  }
  debug.ready = true;
  document.documentElement.dataset.ready = 'true';
}

debug.timeline = timeline;
debug.pager = pager;
debug.live = live;
start();
