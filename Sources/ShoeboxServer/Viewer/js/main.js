// The viewer: wires the timeline, zoom, gestures, scrubber, pager and URL together.

import * as api from './api.js';
import { Timeline } from './timeline.js';
import { Scrubber } from './scrubber.js';
import { Pager } from './pager.js';
import { installPinch } from './gestures.js';
import { animate, easeOut } from './animation.js';
import * as urlState from './history.js';

const $ = (selector) => document.querySelector(selector);
const timelineElement = $('#timeline');
const layer = timelineElement.querySelector('.layer');
const debug = { zooms: [], ready: false, errors: [] };
window.shoebox = debug; // read by the browser tests

let library = null;
let busy = false;
let pagerOpening = false; // the pager's first page must not replace the grid's history entry
let urlTimer = 0;

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
  sectionCount: () => (library ? library.sections.fine : 0),
  onChange: () => { if (!busy && !pagerOpening) urlState.replace(currentState()); },
  onClose: () => closePager(true),
});

function currentState() {
  const anchor = timeline.grid && timeline.grid.sections.length ? timeline.grid.anchorAt(timeline.offset) : null;
  const photo = pager.isOpen ? { section: pager.section, item: pager.index } : null;
  return { level: timeline.level, anchor, photo };
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
  layer.style.transformOrigin = `${point.x}px ${point.y + timelineElement.scrollTop}px`;
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
    layer.style.transformOrigin = `${focal.x}px ${focal.y + timelineElement.scrollTop}px`;
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

document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.altKey || e.metaKey) return;
  if (pager.isOpen) {
    if (e.key === 'ArrowRight') { e.preventDefault(); pager.next(); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); pager.previous(); }
    else if (e.key === 'Escape') { e.preventDefault(); closePager(true); }
    return;
  }
  if (e.target instanceof HTMLInputElement) return;
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
  resizeTimer = setTimeout(() => { if (timeline.grid) restore(currentState()).catch(reportError); }, 150);
});

async function restore(state) {
  busy = true;
  try {
    const level = state.level;
    const { width, height } = timeline.viewport();
    const grid = await api.layout(level, width, height);
    let offset = 0;
    const a = state.anchor;
    if (a && a.section < grid.sections.length) {
      const item = Math.min(a.item, Math.max(0, grid.sections[a.section].items - 1));
      offset = grid.sections[a.section].y + grid.headerHeight + grid.sectionInsets.top
        + Math.floor(item / grid.columns) * (grid.cellSide + grid.lineSpacing) - a.dy;
    }
    await timeline.show(level, offset);
    setLevelButtons(level);
    if (state.photo && level === 'fine') await openPager(state.photo.section, state.photo.item, { push: false });
    else if (pager.isOpen) closePager(false);
  } finally {
    busy = false;
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
    const photos = new Intl.NumberFormat('en-GB').format(library.photos);
    $('#summary').textContent = `${photos} ${library.photos === 1 ? 'photo' : 'photos'}${library.videos ? ` · ${library.videos} videos` : ''}`;
    if (library.photos === 0) {
      $('#message').textContent = 'No photos yet: index a folder with "shoebox index FOLDER", then reload.';
      $('#message').hidden = false;
    }
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
start();
