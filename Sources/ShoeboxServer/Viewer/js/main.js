// The viewer: makes the pages and wires input to the app (app.js), which holds the one view state.

import { Timeline } from './timeline.js';
import { Scrubber } from './scrubber.js';
import { Pager } from './pager.js';
import { installPinch } from './gestures.js';
import * as viewState from './view-state.js';
import { SharedLiveLibrary } from './events.js';
import { StatusPill } from './status.js';
import { retryFailed } from './thumbnails.js';
import { SearchField } from './search.js';
import { PlacesPage } from './places.js';
import { DuplicatesPage } from './duplicates.js';
import { MapPage } from './map.js';
import { App } from './app.js';
import { CompactBar } from './bar.js';
import { Selection } from './select.js';
import { AdjustSheet, Toast } from './adjust.js';

const $ = (selector) => document.querySelector(selector);
const element = $('#timeline');
const layer = element.querySelector('.layer');
const debug = { zooms: [], ready: false, errors: [], refreshes: [], returns: [], events: { changed: 0, progress: [] } };
window.shoebox = debug; // read by the browser tests

let app = null;
const report = (error) => app.reportError(error);

const timeline = new Timeline(element, {
  onChange(offset) {
    scrubber.update(offset);
    app.replaceURLSoon();
  },
  onLayout: (grid) => scrubber.setYears(grid.yearMarks()),
});

const scrubber = new Scrubber($('#scrubber'), {
  getRange: () => ({ max: timeline.scroller.maxOffset, offset: timeline.offset }),
  scrollTo: (offset) => timeline.scroller.scrollTo(offset),
  labelAt: (offset) => (timeline.grid ? timeline.sectionLabel(timeline.grid.sectionAt(offset + 1)) : ''),
});

const pager = new Pager($('#pager'), {
  sectionCount: () => (timeline.labels.get('fine') || []).length,
  onChange: () => app.pagerChanged(),
  onClose: () => app.closePhoto(true),
});

const status = new StatusPill($('#status'));

const searchField = new SearchField($('#search-input'), $('#result-bar'), {
  onQuery: (q, { submitted = false } = {}) => app.search(q).then(() => {
    // Enter: the keys go back to the result (+, -, Enter, Escape), and a phone's keyboard closes.
    if (submitted && q) element.focus({ preventScroll: true });
  }).catch(report),
  onClear: () => app.leaveSearch().catch(report),
});

const places = new PlacesPage($('#places'), $('#places-button'), {
  onOpen: (query, label) => app.search(query, { label, fromPlaces: true }).catch(report),
  onMap: (query) => app.openMapAround(query).catch(report),
});

const duplicates = new DuplicatesPage($('#duplicates'), $('#duplicates-button'), {
  onOpen: (id) => app.openFromPage(id).catch(report),
});

const map = new MapPage($('#map'), $('#map-button'), {
  onOpen: (bbox, count) => app.openArea(bbox, count).catch(report),
  onMove: () => app.replaceURLSoon(),
});

app = new App({
  element, layer, timeline, pager, pages: { places, duplicates, map }, searchField, debug,
  elements: { noResults: $('#no-results'), message: $('#message'), summary: $('#summary'), searchInput: $('#search-input') },
});

const bar = new CompactBar($('#bar'));
$('#search-cancel').addEventListener('click', () => app.leaveSearch().catch(report));

$('#places-button').addEventListener('click', () => app.togglePage('places').catch(report));
$('#duplicates-button').addEventListener('click', () => app.togglePage('duplicates').catch(report));
$('#map-button').addEventListener('click', () => app.togglePage('map').catch(report));

// Selection and corrections: `#select` toggles the mode, `#adjust` opens the sheet for the selection.
const adjustButton = $('#adjust');
const selection = new Selection($('#select'), {
  timeline,
  onChange(s) {
    adjustButton.hidden = !s.active;
    adjustButton.disabled = s.count === 0;
    adjustButton.textContent = s.count ? `Adjust ${s.count}…` : 'Adjust…';
  },
});
const toast = new Toast($('#toast'));
const adjustSheet = new AdjustSheet($('#adjust-sheet'), {
  selection, toast, onError: report,
  onApplied: () => { selection.clear(); app.checkForChanges(); },
});
adjustButton.addEventListener('click', () => adjustSheet.open());
debug.selection = selection;

// Taps: a year's or a coarse photo zooms in about itself; a fine photo opens the pager; a month
// of a year card opens Overview there; a section's place names open the map there. While
// selecting, a photo toggles its selection and a section's header selects the section.
layer.addEventListener('click', (e) => {
  if (selection.active) {
    const cell = e.target.closest('.cell[data-photo-id]');
    if (cell) { selection.click(cell, { shift: e.shiftKey }).catch(report); return; }
    const header = e.target.closest('[data-section-header]');
    if (header && !header.dataset.year) { selection.selectSection(Number(header.dataset.section)).catch(report); return; }
  }
  const month = e.target.closest('.month');
  const card = month && month.closest('[data-year]');
  if (card) { app.openMonth(Number(card.dataset.year), Number(month.dataset.month)).catch(report); return; }
  const place = e.target.closest('.place-names');
  if (place) { app.openMapAround(place.dataset.place).catch(report); return; }
  const cell = e.target.closest('.cell');
  if (cell) app.activate(Number(cell.dataset.section), Number(cell.dataset.item));
});

installPinch(element, {
  onPreview: (scale, focal) => app.previewPinch(scale, focal),
  onPinch: (direction, point) => app.zoomAtPoint(direction, point),
  onCancel: () => app.resetPreview(),
});

for (const button of document.querySelectorAll('[data-set-level]')) {
  button.addEventListener('click', () => app.setLevel(button.dataset.setLevel));
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
    if (pager.isOpen) app.closePhoto(true);
    bar.openSearch();
    searchField.focus();
    return;
  }
  if (pager.isOpen) {
    if (e.key === 'ArrowRight') { e.preventDefault(); pager.next(); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); pager.previous(); }
    else if (e.key === 'Escape') { e.preventDefault(); app.closePhoto(true); }
    return;
  }
  if (isTextInput(e.target) || adjustSheet.isOpen) return;
  if (e.key === 'Escape' && selection.active) { e.preventDefault(); selection.setActive(false); return; }
  if (e.key === 'Escape') { if (app.escape()) e.preventDefault(); return; }
  if (app.openPage()) return;
  if (e.key === '+' || e.key === '=') { e.preventDefault(); app.zoomAtPoint('in', app.viewportCentre()); }
  else if (e.key === '-' || e.key === '_') { e.preventDefault(); app.zoomAtPoint('out', app.viewportCentre()); }
  else if (e.key === 'Home' && !e.ctrlKey) { e.preventDefault(); timeline.scroller.scrollTo(0); }
  else if (e.key === 'End' && !e.ctrlKey) { e.preventDefault(); timeline.scroller.scrollTo(timeline.scroller.maxOffset); }
  else if (e.key === 'Enter' && e.target === element) app.activateCentre();
});

window.addEventListener('popstate', () => app.restore(viewState.fromURL()).catch(report));

let resizeTimer = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => app.relayout(), 150);
});

const live = new SharedLiveLibrary('/api/events', {
  onChanged: () => app.libraryChanged(),
  onProgress(p) {
    debug.events.progress.push(p);
    if (debug.events.progress.length > 50) debug.events.progress.shift();
    status.indexProgress(p);
  },
  onConnection({ connected, reconnected }) {
    status.connection(connected);
    if (reconnected) { retryFailed(); app.checkForChanges(); }
  },
});

debug.timeline = timeline;
debug.pager = pager;
debug.live = live;
app.start(live);

// A read-only server (`serve --read-only`) refuses corrections: no Select button then.
fetch('/api/library', { headers: { Accept: 'application/json' } })
  .then((response) => (response.ok ? response.json() : null))
  .then((library) => { if (library && library.readOnly) $('#select').hidden = true; })
  .catch(() => {});
