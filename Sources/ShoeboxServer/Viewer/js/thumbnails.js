// Thumbnail images with a neutral placeholder on any error, and no error loop.
//
// The first image is a probe: until one thumbnail has loaded, cells ask for none, so a server
// without thumbnails (404) costs one failed request, not one per cell. After that, a photo whose
// thumbnail fails keeps its placeholder and is not asked for again.

import { thumbnailURL } from './api.js';

let state = 'unknown'; // 'unknown' → 'probing' → 'available' | 'unavailable'
const waiting = new Set();
const failed = new Set();

function probe(id) {
  state = 'probing';
  const img = new Image();
  img.onload = () => {
    state = 'available';
    for (const el of waiting) if (el.dataset.thumb) show(el, Number(el.dataset.thumb));
    waiting.clear();
  };
  img.onerror = () => { state = 'unavailable'; failed.add(id); waiting.clear(); };
  img.src = thumbnailURL(id);
}

// A cell first shows the `tiny` rendition (the photo's EXIF thumbnail, served without decoding
// the photo), then the real thumbnail once it has loaded; one already in the browser's cache
// is shown at once.
function show(img, id) {
  if (failed.has(id)) { img.removeAttribute('src'); img.hidden = true; return; }
  const url = thumbnailURL(id, img.dataset.size);
  if (img.getAttribute('src') === url) return;
  const current = () => img.dataset.thumb === String(id);
  const fail = () => { failed.add(id); if (current()) { img.hidden = true; img.removeAttribute('src'); } };
  img.hidden = true;
  img.onload = () => { if (current()) img.hidden = false; };
  const real = new Image();
  real.src = url;
  if (real.complete && real.naturalWidth > 0) { img.onerror = fail; img.src = url; return; }
  // A tiny one that fails only stays hidden: the real one may still come.
  img.onerror = () => { img.hidden = true; };
  img.src = thumbnailURL(id, 'tiny');
  real.onload = () => { if (current()) { img.onerror = fail; img.src = url; } };
  real.onerror = fail;
}

/** Shows photo `id`'s rendition `size` in `img` when thumbnails are served; else leaves the placeholder. */
export function setThumbnail(img, id, size = 'thumbnail') {
  img.dataset.thumb = String(id);
  img.dataset.size = size;
  if (state === 'available') { show(img, id); return; }
  img.hidden = true;
  img.removeAttribute('src');
  if (state === 'unavailable') return;
  waiting.add(img);
  if (state === 'unknown') probe(id);
}

export function clearThumbnail(img) {
  waiting.delete(img);
  delete img.dataset.thumb;
  img.onload = null;
  img.onerror = null;
  img.hidden = true;
  img.removeAttribute('src');
}

// The renditions a cell can show, smallest first: the short edge for grid sizes, else the long edge
// (ThumbnailSize.swift). None is larger than the photo.
const RENDITIONS = [
  { name: 'thumbnail', edge: 320, short: true },
  { name: 'large', edge: 800, short: true },
  { name: 'preview', edge: 1600, short: false },
];

/**
 * The smallest rendition whose short edge covers a square cell of `side` CSS px at `ratio` device
 * pixels per px, so the grid is never upscaled; the sharpest there is when none covers it.
 */
export function cellSize(photo, side, ratio = window.devicePixelRatio || 1) {
  const need = side * ratio;
  const known = photo.width > 0 && photo.height > 0;
  const short = known ? Math.min(photo.width, photo.height) : Infinity;
  const long = known ? Math.max(photo.width, photo.height) : Infinity;
  let best = null;
  for (const r of RENDITIONS) {
    if (!r.short && !known) continue;
    const got = r.short ? Math.min(r.edge, short) : short * Math.min(1, r.edge / long);
    if (got >= need) return r.name;
    if (!best || got > best.got) best = { name: r.name, got };
  }
  return best.name;
}

export const thumbnailsAvailable = () => state === 'available';

/** Forgets failures (after the server was unreachable): cells that show a photo next ask again. */
export function retryFailed() {
  failed.clear();
  if (state === 'unavailable') state = 'unknown';
}
