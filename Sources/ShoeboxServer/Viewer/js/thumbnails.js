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
  const url = thumbnailURL(id);
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
