// The Map page: where the photos were taken, with nothing fetched from outside the machine. Leaflet
// (Debian's libjs-leaflet, served by shoebox under /leaflet/) draws the country outlines that
// scripts/map-data set up (`GET /api/map/outlines`) on a plain background; there is no tile layer.
// The server counts the photos per map cell (`GET /api/map`): one marker per cell with photos,
// `[data-cluster-count=N]`, showing its cover and count; clicking it (or Enter on it) opens the
// timeline of exactly those photos (`onOpen(bbox, count)`). Pan and zoom are Leaflet's: mouse,
// wheel, touch and the keyboard (arrows, + and -) once the map has the focus.
// A page of the viewer: `enter(state)` shows it (at `state.map` when given), `leave()` hides it.

import * as api from './api.js';
import { photoCount } from './search.js';

const LEAFLET = '/leaflet/leaflet.esm.js';
/** Cells are the tiles of the map's zoom + 2: 64-px squares on screen. */
const CELL_ZOOM_STEP = 2;
const MAX_ZOOM = 18;
/** ms of stillness after a pan or zoom before the clusters are asked for. */
const SETTLE = 80;

let leaflet = null;

/** Leaflet's module and stylesheet, loaded once, on the first visit to the page. */
function loadLeaflet() {
  if (!leaflet) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/leaflet/leaflet.css';
    document.head.append(link);
    leaflet = import(LEAFLET);
  }
  return leaflet;
}

/** `x` (degrees east) in −180…180. */
const wrap = (x) => ((((x + 180) % 360) + 360) % 360) - 180;

export class MapPage {
  constructor(element, button, { onOpen, onMove = () => {} }) {
    this.element = element;
    this.button = button;
    this.canvas = element.querySelector('.map-canvas');
    this.status = element.querySelector('.map-status');
    this.hint = element.querySelector('.map-hint');
    this.onOpen = onOpen;
    this.onMove = onMove;
    this.L = null;
    this.map = null;
    this.markers = new Map(); // cell bbox text → Leaflet marker
    this.request = null; // the AbortController of the clusters asked for
    this.timer = 0;
    this.debug = { ready: false, requests: 0, answers: 0, pending: false, clusters: 0, total: 0, errors: [], outlines: null };
    window.shoebox = window.shoebox || {};
    window.shoebox.map = this.debug; // read by the browser tests
    window.shoebox.mapPage = this;
  }

  get isOpen() { return !this.element.hidden; }

  /** Where the map looks: `{zoom, lat, lon}`, or null before it was first shown. */
  view() {
    if (!this.map) return null;
    // The view last set, exactly, until the person moves the map (Leaflet's own centre is rounded to
    // whole pixels once the map has moved, a few metres off at low zoom).
    if (this.requested) return { ...this.requested };
    const c = this.map.getCenter();
    return { zoom: this.map.getZoom(), lat: c.lat, lon: wrap(c.lng) };
  }

  /** Shows the page (at `state.map`, else where it was, else the whole world) and focuses the map. */
  async enter(state = {}) {
    this.button.setAttribute('aria-pressed', 'true');
    document.body.classList.add('map-open');
    this.element.hidden = false;
    try {
      await this.create();
    } catch (error) {
      this.status.textContent = `The map could not be loaded: ${error.message}`;
      this.debug.errors.push(String(error.message || error));
      return;
    }
    this.map.invalidateSize({ pan: false });
    const at = state.map;
    const box = this.focusBox;
    this.focusBox = null;
    if (box) {
      const [w, s, e, n] = box;
      this.map.fitBounds([[s, w], [n, e < w ? e + 360 : e]], { maxZoom: 12, padding: [40, 40], animate: false });
    } else if (at) {
      this.setting = true;
      this.map.setView([at.lat, at.lon], at.zoom, { animate: false });
      this.setting = false;
      this.requested = { zoom: at.zoom, lat: at.lat, lon: at.lon };
    }
    else if (!this.placed) this.map.fitWorld({ animate: false });
    this.placed = true;
    this.canvas.focus({ preventScroll: true });
    await this.refresh();
  }

  /** The next `enter` shows box `[W, S, E, N]` (a place's photos) instead of the state's view. */
  focus(bbox) { this.focusBox = bbox; }

  leave() {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.button.setAttribute('aria-pressed', 'false');
    document.body.classList.remove('map-open');
    clearTimeout(this.timer);
    if (this.request) this.request.abort();
    this.request = null;
    this.debug.pending = false;
  }

  /** Makes the Leaflet map and draws the outlines, once. */
  async create() {
    if (this.map) return;
    const L = await loadLeaflet();
    this.L = L;
    this.map = L.map(this.canvas, {
      worldCopyJump: true, minZoom: 1, maxZoom: MAX_ZOOM, zoomSnap: 1, attributionControl: true,
      keyboard: true, keyboardPanDelta: 120, fadeAnimation: false,
    });
    this.map.attributionControl.setPrefix(false);
    this.map.attributionControl.addAttribution('Outlines: Natural Earth (public domain) · Leaflet (BSD-2-Clause)');
    this.map.fitWorld({ animate: false });
    this.map.on('moveend', () => { this.refreshSoon(); if (this.isOpen) this.onMove(); });
    this.map.on('movestart zoomstart', () => { if (!this.setting) this.requested = null; });
    this.outlines = this.drawOutlines();
  }

  async drawOutlines() {
    const data = await api.mapOutlines();
    if (data.missing) {
      this.hint.textContent = 'No country outlines on this machine: run scripts/map-data once to draw them.';
      this.hint.hidden = false;
      this.debug.outlines = 0;
      return;
    }
    this.L.geoJSON(data, {
      interactive: false,
      style: { className: 'map-outline', weight: 0.8, fillOpacity: 1 },
    }).addTo(this.map);
    this.debug.outlines = data.features ? data.features.length : 0;
  }

  refreshSoon() {
    clearTimeout(this.timer);
    if (this.isOpen) this.timer = setTimeout(() => this.refresh().catch(() => {}), SETTLE);
  }

  /** The box in view as 'W,S,E,N' (W > E across the antimeridian), and the zoom of its cells. */
  box() {
    const b = this.map.getBounds();
    let west = b.getWest();
    let east = b.getEast();
    if (east - west >= 360) { west = -180; east = 180; } else { west = wrap(west); east = wrap(east); if (east === -180) east = 180; }
    const south = Math.max(-90, b.getSouth());
    const north = Math.min(90, b.getNorth());
    const f = (x) => String(Math.round(x * 1e6) / 1e6);
    return { bbox: [west, south, east, north].map(f).join(','), zoom: Math.min(20, this.map.getZoom() + CELL_ZOOM_STEP) };
  }

  /** Asks for the clusters in view and shows them (the markers of cells still in view are kept). */
  async refresh() {
    if (!this.map || !this.isOpen) return;
    if (this.request) this.request.abort();
    const controller = new AbortController();
    this.request = controller;
    const { bbox, zoom } = this.box();
    this.debug.requests += 1;
    this.debug.pending = true;
    this.debug.asked = { bbox, zoom };
    let answer;
    try {
      answer = await api.mapClusters(bbox, zoom, { signal: controller.signal });
    } catch (error) {
      if (error.name === 'AbortError') return; // a newer request, or the page left
      this.debug.pending = false;
      this.status.textContent = `The photos could not be placed: ${error.message}`;
      this.debug.errors.push(String(error.message || error));
      return;
    }
    if (this.request !== controller) return;
    this.request = null;
    this.debug.pending = false;
    this.show(answer);
  }

  show(answer) {
    const { L, map } = this;
    const centre = map.getCenter().lng;
    const keep = new Set();
    for (const cluster of answer.clusters) {
      const key = `${answer.zoom}:${cluster.bbox.join(',')}`;
      keep.add(key);
      // The copy of the world nearest the view's centre (the view may be past ±180).
      const lon = cluster.lon + 360 * Math.round((centre - cluster.lon) / 360);
      let marker = this.markers.get(key);
      if (marker && marker.options.count === cluster.count) { marker.setLatLng([cluster.lat, lon]); continue; }
      if (marker) marker.remove();
      marker = L.marker([cluster.lat, lon], {
        icon: L.divIcon({ className: 'cluster', html: markerHTML(cluster), iconSize: [52, 52], iconAnchor: [26, 26] }),
        keyboard: true, title: `${photoCount(cluster.count)} here`, alt: photoCount(cluster.count),
        riseOnHover: true, count: cluster.count,
      });
      marker.on('click', () => this.onOpen(cluster.bbox.join(','), cluster.count));
      marker.addTo(map);
      const el = marker.getElement();
      const img = el.querySelector('img');
      img.addEventListener('error', () => img.remove(), { once: true }); // the tile colour stays
      el.dataset.clusterCount = String(cluster.count);
      el.dataset.bbox = cluster.bbox.join(',');
      el.dataset.photo = String(cluster.photo);
      el.setAttribute('role', 'button');
      el.setAttribute('aria-label', `${photoCount(cluster.count)} here: show them`);
      this.markers.set(key, marker);
    }
    for (const [key, marker] of this.markers) if (!keep.has(key)) { marker.remove(); this.markers.delete(key); }
    const outside = answer.unlocated;
    this.status.textContent = `${photoCount(answer.total)} in view · ${photoCount(answer.located)} on the map`
      + (outside ? ` · ${photoCount(outside)} without a position (not shown)` : '');
    this.element.dataset.unlocated = String(outside);
    this.element.dataset.located = String(answer.located);
    Object.assign(this.debug, { ready: true, answers: this.debug.answers + 1, clusters: answer.clusters.length, total: answer.total, zoom: answer.zoom });
    this.element.dataset.ready = 'true';
  }
}

function markerHTML(cluster) {
  const count = cluster.count > 9999 ? `${Math.round(cluster.count / 1000)}k` : String(cluster.count);
  return `<img alt="" decoding="async" src="${api.thumbnailURL(cluster.photo)}"><span class="cluster-count">${count}</span>`;
}
