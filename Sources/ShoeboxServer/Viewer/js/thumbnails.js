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

function show(img, id) {
  if (failed.has(id)) { img.removeAttribute('src'); img.hidden = true; return; }
  const url = thumbnailURL(id);
  if (img.getAttribute('src') !== url) {
    img.hidden = true;
    img.onload = () => { if (img.dataset.thumb === String(id)) img.hidden = false; };
    img.onerror = () => { failed.add(id); img.hidden = true; img.removeAttribute('src'); };
    img.src = url;
  }
}

/** Shows photo `id`'s thumbnail in `img` when thumbnails are served; else leaves the placeholder. */
export function setThumbnail(img, id) {
  img.dataset.thumb = String(id);
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

export const thumbnailsAvailable = () => state === 'available';

/** Forgets failures (after the server was unreachable): cells that show a photo next ask again. */
export function retryFailed() {
  failed.clear();
  if (state === 'unavailable') state = 'unknown';
}
