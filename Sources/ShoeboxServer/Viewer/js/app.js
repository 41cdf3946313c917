// The viewer's behaviour: one view state (view-state.js) and the changes between states — zoom,
// the pager, search, the pages over the timeline (Places, Duplicates), the URL, and the live library.
// Changes run one at a time (serial.js). Pages (the timeline, the pager, Places, Duplicates) show
// what the state says; main.js wires the
// page's elements and input to the methods here.

import * as api from './api.js';
import { animate, easeOut } from './animation.js';
import { Serial } from './serial.js';
import * as viewState from './view-state.js';

const { LEVELS, isScoped, scopeKey } = viewState;
const URL_DELAY = 250; // ms of stillness before a scroll is written to the URL

export class App {
  /**
   * `parts`: the timeline element and its layer, the Timeline, Pager, SearchField and StatusPill, the
   * pages over the timeline by view (`{places: PlacesPage, duplicates: DuplicatesPage}`, each with
   * `enter(state)`, `leave()` and `isOpen`), and `debug` (window.shoebox, read by the browser tests).
   */
  constructor({ element, layer, timeline, pager, pages, searchField, debug, elements }) {
    this.element = element;
    this.layer = layer;
    this.timeline = timeline;
    this.pager = pager;
    this.pages = pages;
    this.searchField = searchField;
    this.debug = debug;
    this.elements = elements; // { noResults, message, summary, searchInput }
    this.changes = new Serial(element);
    /** The view state; `opened` is the photo last opened in the pager in this scope (the one under attention). */
    this.state = { ...viewState.makeState(), opened: null };
    this.library = null;
    this.urlTimer = 0;
    this.emptyShown = false;
    this.refreshing = null;
    this.refreshAgain = false;
  }

  // The state: the stored view, level and scope, with the anchor and open photo read off the pages.

  current() {
    const [top] = this.timeline.anchorCandidates(1);
    const anchor = top ? { id: top.id, section: top.section, item: top.item, dy: top.dy } : null;
    const shown = this.pager.isOpen ? this.pager.shown : null;
    const photo = shown ? { id: shown.id, section: this.pager.section, item: shown.item } : null;
    const { view, scope } = this.state;
    const map = this.pages.map ? this.pages.map.view() || this.state.map : this.state.map;
    return viewState.makeState({ view, level: this.timeline.level || this.state.level, scope, anchor, photo, map });
  }

  /** Writes the state to the URL after the view has been still for a moment (scrolling). */
  replaceURLSoon() {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => { if (!this.changes.active) viewState.replace(this.current()); }, URL_DELAY);
  }

  replaceURL() { clearTimeout(this.urlTimer); viewState.replace(this.current()); }
  pushURL() { clearTimeout(this.urlTimer); viewState.push(this.current()); }

  pagerChanged() {
    if (this.pager.current) this.state.opened = this.pager.shown.id;
    if (!this.changes.active) this.replaceURL();
  }

  setLevelButtons(level) {
    for (const b of document.querySelectorAll('[data-set-level]')) b.setAttribute('aria-pressed', String(b.dataset.setLevel === level));
  }

  viewportParam() {
    const { width, height } = this.timeline.viewport();
    return `${width}x${height}`;
  }

  viewportCentre() {
    const { width, height } = this.timeline.viewport();
    return { x: width / 2, y: height / 2 };
  }

  // Zoom between the levels.

  /**
   * Asks the API where level `params.to` must scroll, then shows it there (the API is the one
   * source of truth; the packed layouts' content starts at the inset top, the API's at 0).
   */
  zoom(params, point) {
    return this.changes.runIfIdle(async () => {
      const timeline = this.timeline;
      const before = this.current();
      try {
        const top = timeline.grid.top;
        const result = await api.zoom({ packed: 1, ...params, offset: timeline.offset - top, viewport: this.viewportParam() });
        const toLevel = result.to.level;
        const oldSide = timeline.grid.cellSide;
        await timeline.show(toLevel, result.contentOffsetY + top);
        this.state.level = toLevel;
        this.setLevelButtons(toLevel);
        this.debug.zooms.push(result);
        viewState.replace(before); // Back returns exactly here
        this.pushURL();
        await this.transition(oldSide / timeline.grid.cellSide, point || {
          x: timeline.grid.cellLeft(result.to.section, result.to.item) + timeline.grid.cellSide / 2,
          y: result.targetViewportY + timeline.grid.cellSide / 2,
        });
        return result;
      } catch (error) {
        this.reportError(error);
        return null;
      }
    });
  }

  /** A short zoom of the new grid from the old cell size, about the anchor point. */
  async transition(fromScale, point) {
    const layer = this.layer;
    this.element.dataset.animating = 'true';
    layer.style.transformOrigin = `${point.x}px ${point.y + this.timeline.scroller.top}px`;
    await animate(200, (p) => {
      const s = fromScale + (1 - fromScale) * p;
      layer.style.transform = p < 1 ? `scale(${s})` : '';
      layer.style.opacity = String(0.4 + 0.6 * p);
    }, easeOut).finished;
    layer.style.transform = '';
    layer.style.opacity = '';
    delete this.element.dataset.animating;
  }

  /** A pinch or a key: one level closer (`in`) or wider (`out`), about `point`. */
  zoomAtPoint(direction, point) {
    const from = this.timeline.level;
    const to = LEVELS[LEVELS.indexOf(from) + (direction === 'in' ? 1 : -1)];
    this.resetPreview();
    if (!to) return Promise.resolve(null);
    return this.zoomTo(to, point);
  }

  zoomTo(to, point) {
    return this.zoom({ from: this.timeline.level, to, focalY: point.y, focalX: point.x }, point);
  }

  /** The level switch: zoom about the viewport's centre. */
  setLevel(target) {
    if (target !== this.timeline.level && LEVELS.includes(target)) this.zoomTo(target, this.viewportCentre());
  }

  previewPinch(scale, focal) {
    if (this.changes.active) return;
    this.layer.style.transformOrigin = `${focal.x}px ${focal.y + this.timeline.scroller.top}px`;
    this.layer.style.transform = `scale(${Math.min(2.5, Math.max(0.4, scale))})`;
  }

  resetPreview() {
    if (!this.changes.active) { this.layer.style.transform = ''; this.layer.style.transformOrigin = ''; }
  }

  /** A tap or Enter on a cell: a coarse photo zooms in about itself; a fine photo opens the pager. */
  activate(section, item) {
    if (this.changes.active) return;
    const level = this.timeline.level;
    if (level === 'fine') this.changes.runIfIdle(() => this.openPhoto(section, item));
    else this.zoom({ from: level, to: LEVELS[LEVELS.indexOf(level) + 1], section, item });
  }

  /** A month of a Years card: Overview with the month's first section at the top. */
  openMonth(year, month) {
    return this.changes.runIfIdle(async () => {
      const list = await api.sectionList('coarse');
      const first = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
      let s = list.findIndex((x) => x.end >= first);
      if (s < 0) s = list.length - 1;
      const before = this.current();
      const grid = await this.timeline.load('coarse');
      await this.timeline.prefetch(grid, 'coarse', grid.sectionTop(s));
      this.timeline.swap(grid, 'coarse', list, grid.sectionTop(s));
      this.state.level = 'coarse';
      this.setLevelButtons('coarse');
      viewState.replace(before);
      this.pushURL();
    });
  }

  /** Enter on the timeline: the cell at the viewport's centre (or the top one). */
  activateCentre() {
    const { x, y } = this.viewportCentre();
    const grid = this.timeline.grid;
    const hit = grid.cellAtPoint(x, y, this.timeline.offset) || grid.anchorAt(this.timeline.offset);
    this.activate(hit.section, hit.item);
  }

  // The pager.

  async openPhoto(section, item, { push = true } = {}) {
    if (push) this.replaceURL();
    try {
      await this.pager.enter(section, item);
      if (this.pager.current) this.state.opened = this.pager.shown.id;
      if (push) this.pushURL();
    } catch (error) {
      this.reportError(error);
    }
  }

  /** Back to the grid at the same place; if the pager moved on, the photo's cell is brought into view. */
  closePhoto(viaUser) {
    const { pager, timeline } = this;
    if (!pager.isOpen) return;
    const { section, index } = pager;
    pager.leave();
    if (timeline.level === 'fine' && timeline.grid) {
      const y = timeline.cellViewportY(section, index);
      const h = timeline.scroller.viewportHeight;
      const side = timeline.grid.cellSide;
      if (y < 0 || y + side > h) timeline.scroller.scrollTo(timeline.grid.cellTop(section, index) - (h - side) / 2);
    }
    this.element.focus({ preventScroll: true });
    if (viaUser) this.pushURL();
  }

  // Showing a state (a URL, Back/Forward, a resize, a search).

  /** Shows `state`: its scope and level with the anchor at its viewport y, its photo and its page. */
  restore(state) {
    return this.changes.run(() => this.show(viewState.makeState(state)));
  }

  async show({ view, level, scope, anchor, photo, map = null }) {
    const { timeline, searchField } = this;
    const q = scope.q;
    const scoped = isScoped(scope);
    const shown = resultName(scope); // what the result bar names ('' for the library)
    const total = scoped ? api.searchTotal(q, scope.bbox) : Promise.resolve(0);
    total.catch(() => {}); // awaited below, with the layout
    const newScope = scopeKey(scope) !== api.currentScopeKey();
    if (newScope) {
      timeline.holdFetches = true; // the old grid's sections are not the new scope's
      api.setScope(scope);
    }
    this.state = { ...this.state, level, scope, map: map || this.state.map, opened: newScope ? null : this.state.opened };
    searchField.setValue(scope.label ? '' : q); // a place's query is the bar's business, not the field's
    document.body.classList.toggle('searching', scoped);
    // "Searching…" while a new scope loads; the bar moves the timeline when it comes or goes
    if (newScope && searchField.showResult(shown, null, scope.label)) timeline.measure();
    const [grid, count] = await Promise.all([timeline.load(level), total]);
    const list = grid.list;
    searchField.showResult(shown, count, scope.label);
    this.element.dataset.query = q;
    this.element.dataset.bbox = scope.bbox;
    this.debug.search = scoped ? { query: q, bbox: scope.bbox, total: count } : null;
    let offset = 0;
    if (anchor) {
      const found = anchor.id !== null && anchor.id !== undefined ? await this.locate(anchor.id, level) : null;
      offset = offsetFor(grid, found ? { ...found, dy: anchor.dy } : anchor);
    }
    await timeline.prefetch(grid, level, offset);
    timeline.swap(grid, level, list, offset);
    this.setLevelButtons(level);
    const empty = scoped && list.length === 0;
    document.body.classList.toggle('empty-result', empty);
    this.elements.noResults.hidden = !empty;
    let open = photo;
    if (open && open.id !== null && level === 'fine') {
      const pos = await api.position(open.id);
      open = pos ? pos.fine : null;
    }
    if (open && level === 'fine') await this.openPhoto(open.section, open.item, { push: false });
    else if (this.pager.isOpen) this.closePhoto(false);
    await this.enterView(view);
  }

  /** After a resize: the same state, laid out for the new viewport. */
  relayout() {
    if (!this.timeline.grid) return;
    const state = this.current();
    this.timeline.measure();
    this.restore(state).catch((error) => this.reportError(error));
  }

  /**
   * Where photo `id` is shown at `level`: `{section, item, how}`, or null when the library has no such
   * photo. At the coarse level a photo the sample hides is replaced by its nearest shown neighbour,
   * as the server's zoom mapping picks it (`how: 'neighbour'`).
   */
  async locate(id, level, position) {
    const pos = position === undefined ? await api.position(id) : position;
    if (!pos) return null;
    if (pos[level]) return { ...pos[level], how: 'photo' };
    if (level === 'years') {
      const [fine, years] = await Promise.all([api.sectionList('fine'), api.sectionList('years')]);
      const year = fine[pos.fine.section] ? Number(fine[pos.fine.section].start.slice(0, 4)) : NaN;
      const section = years.findIndex((y) => y.year === year);
      return section < 0 ? null : { section, item: 0, how: 'year' };
    }
    const z = await api.zoom({ packed: 1, from: 'fine', to: level, section: pos.fine.section, item: pos.fine.item, offset: 0, viewport: this.viewportParam() });
    return { section: z.to.section, item: z.to.item, how: 'neighbour' };
  }

  // Search and places: a result is a timeline of its own (every request carries its `q`); leaving it
  // shows the whole library at the photo the person was looking at.

  /**
   * Shows the result of search `q` as a timeline (coarse level, from its start). The first search
   * from the library (or from Places) is a new history entry; refining it as one types replaces it.
   * `label`: a place's name, when the result is opened from the Places page (`fromPlaces`).
   */
  async search(q, { label = null, fromPlaces = false } = {}) {
    q = q.trim();
    if (!q) return this.leaveSearch();
    const was = this.state.scope;
    const onPage = this.openPage() !== null;
    if (q === was.q && !was.bbox && !onPage) return;
    const entering = !isScoped(was) || onPage;
    const { level, anchor, photo } = this.current();
    const back = isScoped(was) ? was.back : { level, anchor, photo };
    const scope = label
      ? viewState.searchScope(q, { label, fromPlaces, back })
      : viewState.searchScope(q, { fromPlaces: !entering && was.fromPlaces, back });
    if (this.pager.isOpen) this.closePhoto(false);
    this.replaceURL();
    await this.restore({ view: 'timeline', level: 'coarse', scope, anchor: null, photo: null });
    if (entering) this.pushURL(); else this.replaceURL();
    if (fromPlaces) this.element.focus({ preventScroll: true });
  }

  /**
   * A map marker: the timeline of the photos of its cell (`bbox`, 'W,S,E,N') at the coarse level,
   * a new history entry; Escape (or Back) shows the map again where it was.
   */
  async openArea(bbox, count) {
    const map = this.pages.map && this.pages.map.view();
    const { level, anchor, photo } = this.current();
    const label = `this place on the map`;
    const scope = viewState.boxScope(bbox, { label, back: { level, anchor, photo } });
    if (this.pager.isOpen) this.closePhoto(false);
    this.replaceURL();
    await this.restore({ view: 'timeline', level: 'coarse', scope, anchor: null, photo: null, map });
    this.debug.area = { bbox, count };
    this.pushURL();
    this.element.focus({ preventScroll: true });
  }

  /**
   * The Map page around the photos of search `query` (a place's query, a section's place name), a
   * new history entry; nothing happens when none of them has a position.
   */
  async openMapAround(query) {
    const bounds = await api.mapBounds(query);
    if (!bounds.bbox) return;
    if (this.pager.isOpen) this.closePhoto(false);
    this.replaceURL();
    this.pages.map.focus(bounds.bbox);
    if (isScoped(this.state.scope)) await this.restore({ ...this.current(), view: 'map', scope: viewState.LIBRARY, map: null });
    else await this.enterView('map');
    this.pushURL();
  }

  /**
   * The photo under attention and its viewport y: the one last opened in the pager if it is on
   * screen, else the one nearest the viewport's centre; null for an empty view.
   */
  attentionPhoto() {
    const { timeline } = this;
    const grid = timeline.grid;
    if (!grid || !grid.sectionCount) return null;
    const h = timeline.scroller.viewportHeight;
    const opened = this.state.opened;
    if (opened !== null) {
      const cell = this.layer.querySelector(`.cell[data-photo-id="${opened}"]`);
      if (cell && !cell.hidden) {
        const dy = timeline.cellViewportY(Number(cell.dataset.section), Number(cell.dataset.item));
        if (dy > -grid.cellSide && dy < h) return { id: opened, dy, how: 'opened' };
      }
    }
    // The shown photo nearest the viewport's centre (the centre may fall on a header or a gap).
    const { x, y } = this.viewportCentre();
    const half = grid.cellSide / 2;
    let best = null;
    let bestDistance = Infinity;
    for (const c of timeline.anchorCandidates(Infinity)) {
      if (c.id === null) continue;
      const distance = Math.hypot(grid.cellLeft(c.section, c.item) + half - x, c.dy + half - y);
      if (distance < bestDistance) { best = c; bestDistance = distance; }
    }
    return best ? { id: best.id, dy: best.dy, how: 'centre' } : null;
  }

  /**
   * Back to the whole library (Escape, ×, an emptied field), at the same level with the photo under
   * attention at the same viewport y (a coarse sample that hides it shows its nearest neighbour).
   * A place's result opened from the Places page shows that page again over it.
   */
  async leaveSearch() {
    const { scope } = this.state;
    if (!isScoped(scope)) {
      this.searchField.setValue('');
      (this.openPage() || this).element.focus({ preventScroll: true });
      return;
    }
    if (this.pager.isOpen) this.closePhoto(false);
    const target = this.attentionPhoto();
    const view = scope.fromPlaces ? 'places' : scope.fromMap ? 'map' : 'timeline';
    const state = target
      ? { level: this.timeline.level, anchor: { id: target.id, section: 0, item: 0, dy: target.dy }, photo: null }
      : (scope.back || { level: 'coarse', anchor: null, photo: null });
    this.replaceURL();
    this.elements.searchInput.value = '';
    await this.restore({ ...state, view, scope: viewState.LIBRARY });
    this.debug.returns.push({ ...target, level: this.timeline.level });
    this.pushURL();
    if (!this.openPage()) this.element.focus({ preventScroll: true });
  }

  // The pages over the timeline (Places, Duplicates): one open at a time, named by the state's view.

  /** The page shown over the timeline, or null. */
  openPage() {
    return Object.values(this.pages).find((page) => page.isOpen) || null;
  }

  /** Shows view `view`: its page (the others leave), or only the timeline. */
  async enterView(view) {
    this.state.view = this.pages[view] ? view : 'timeline';
    for (const [name, page] of Object.entries(this.pages)) if (name !== this.state.view) page.leave();
    if (this.pages[view]) await this.pages[view].enter(this.current());
  }

  /** A page's button: opens page `view` (a new history entry), or closes it when it is open. */
  async togglePage(view) {
    if (this.state.view === view && this.pages[view].isOpen) {
      await this.enterView('timeline');
      this.pushURL();
      this.element.focus({ preventScroll: true });
      return;
    }
    if (this.pager.isOpen) this.closePhoto(false);
    this.replaceURL();
    await this.enterView(view);
    this.pushURL();
  }

  /**
   * A photo opened from a page (a Duplicates file): the whole library's Days with the photo in the
   * pager; Back shows the page again.
   */
  openFromPage(id) {
    this.replaceURL();
    const anchor = { id, section: 0, item: 0, dy: this.timeline.scroller.viewportHeight / 3 };
    return this.restore({ view: 'timeline', level: 'fine', scope: viewState.LIBRARY, anchor, photo: { id, section: null, item: null } })
      .then(() => this.pushURL());
  }

  /** Escape, outside the pager and text fields: leaves the open page, else the search. Returns whether it did. */
  escape() {
    const page = this.openPage();
    if (page) { this.togglePage(this.state.view).catch((error) => this.reportError(error)); return true; }
    if (isScoped(this.state.scope)) { this.leaveSearch().catch((error) => this.reportError(error)); return true; }
    return false;
  }

  // The live library: on `library-changed`, the new snapshot replaces the old one without moving
  // what the person is looking at.

  libraryChanged() {
    this.debug.events.changed += 1;
    if (this.refreshing) { this.refreshAgain = true; return; }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try { await this.changes.run(() => this.refresh()); } catch (error) { this.reportError(error); }
      } while (this.refreshAgain);
    })().finally(() => { this.refreshing = null; });
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
  async refresh() {
    const { timeline, pager } = this;
    const started = performance.now();
    try {
      const level = timeline.level;
      const oldGrid = timeline.grid;
      const offsetBefore = timeline.offset;
      const candidates = oldGrid ? timeline.anchorCandidates(24).filter((c) => c.id !== null) : [];
      timeline.holdFetches = true; // the old grid's sections are not the new snapshot's
      api.reset();
      this.library = await api.getJSON('/api/library');
      this.showSummary();
      const { scope } = this.state;
      if (isScoped(scope) && this.searchField.showResult(resultName(scope), await api.searchTotal(scope.q, scope.bbox), scope.label)) timeline.measure();
      const grid = await timeline.load(level);
      const list = grid.list;
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
        target = { ...(await this.locate(anchor.id, level, hidden.pos)), dy: anchor.dy };
      }
      let offset;
      if (target) offset = offsetFor(grid, target);
      else if (candidates.length && grid.sectionCount) {
        anchor = candidates[0];
        const day = anchor.captured.slice(0, 10);
        let s = list.findIndex((x) => (level === 'years' ? String(x.year) >= day.slice(0, 4) : x.end >= day));
        if (s < 0) s = list.length - 1;
        const headerDy = oldGrid.sectionTop(anchor.section) - offsetBefore;
        offset = grid.sectionTop(s) - headerDy;
        target = { section: s, item: 0, dy: headerDy, how: 'date' };
      } else offset = 0;
      await timeline.prefetch(grid, level, offset);
      offset += timeline.offset - offsetBefore; // what the person scrolled meanwhile
      timeline.swap(grid, level, list, offset);
      this.updateMessage();
      this.debug.refreshes.push({
        anchor: anchor && { id: anchor.id, section: anchor.section, item: anchor.item, dy: anchor.dy },
        target, offset: timeline.offset, ms: Math.round(performance.now() - started),
      });
      if (pager.isOpen && pager.current) {
        const pos = await api.position(pager.shown.id);
        if (pos) await pager.open(pos.fine.section, pos.fine.item);
      }
      this.replaceURL();
    } finally {
      timeline.holdFetches = false;
    }
  }

  /** After a reconnect: the library may have changed while the events were not heard. */
  async checkForChanges() {
    try {
      const now = await api.getJSON('/api/library');
      if (this.library && now.lastIndexed !== this.library.lastIndexed) this.libraryChanged();
    } catch { /* offline again: the next reconnect asks again */ }
  }

  showSummary() {
    const library = this.library;
    this.debug.library = library;
    const photos = new Intl.NumberFormat('en-GB').format(library.photos);
    this.elements.summary.textContent = `${photos} ${library.photos === 1 ? 'photo' : 'photos'}${library.videos ? ` · ${library.videos} videos` : ''}`;
  }

  updateMessage() {
    const box = this.elements.message;
    if (this.library.photos === 0) {
      box.textContent = 'No photos yet: index a folder with "shoebox index FOLDER", or serve it with --watch.';
      box.hidden = false;
      this.emptyShown = true;
    } else if (this.emptyShown) {
      box.hidden = true;
      this.emptyShown = false;
    }
  }

  reportError(error) {
    this.debug.errors.push(String(error && error.message || error));
    const box = this.elements.message;
    box.textContent = error && error.message ? `Something went wrong: ${error.message}` : 'Something went wrong.';
    box.hidden = false;
  }

  /** The first view: the library, then the state in the URL. */
  async start(live) {
    try {
      this.library = await api.getJSON('/api/library');
      this.showSummary();
      this.updateMessage();
      live.start();
      await this.restore(viewState.fromURL());
      this.replaceURL();
      (this.openPage() || this).element.focus({ preventScroll: true });
    } catch (error) {
      this.reportError(error);
    }
    this.debug.ready = true;
    document.documentElement.dataset.ready = 'true';
  }
}

/** What the result bar says a scope holds: its search, or the map box's (the label says which). */
function resultName(scope) {
  return scope.q || scope.bbox || '';
}

/** Content offset that puts item `item` of section `section` at viewport y `dy` in `grid`. */
function offsetFor(grid, { section, item, dy }) {
  if (section >= grid.sectionCount) return grid.contentHeight;
  const i = Math.min(item, Math.max(0, grid.itemCount(section) - 1));
  return grid.cellTop(section, i) - dy;
}
