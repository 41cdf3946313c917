// The JSON API: one fetch helper, and caches of what one library snapshot answers (layouts per
// level and viewport, section lists, pages of sections' photos). `reset()` drops them when the
// library changes; answers that arrive for an older snapshot are not cached.
//
// The timeline's scope: the whole library, a search or a map box (`setScope`). Every timeline
// request (sections, layout, zoom, position) carries the scope's `q=` and `bbox=`, so a result is a
// timeline of its own; the caches are kept per scope, so returning to the library asks nothing again.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function getJSON(path, { signal } = {}) {
  const response = await fetch(path, { signal, headers: { Accept: 'application/json' } });
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = (body && body.error) || {};
    throw new APIError(response.status, error.code || 'http', error.message || `${response.status} ${response.statusText}`);
  }
  return body;
}

/** Photos per page of a section: a day of 7,000 photos is fetched in pages near the viewport. */
export const PAGE = 120;

let generation = 0;
let query = '';
let box = '';

/** Scopes every timeline request to search `q` and map box `bbox` ('' and '' for the whole library). */
export function setScope({ q = '', bbox = '' } = {}) { query = q || ''; box = bbox || ''; }

/** The current scope's key (see view-state.js `scopeKey`). */
export function currentScopeKey() { return `${query}\u0000${box}`; }

/** `path` with the scope's `q` and `bbox` (or `q` alone, when given) appended. */
function scoped(path, q = query, bbox = q === query ? box : '') {
  let out = path;
  if (q) out += `${out.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`;
  if (bbox) out += `${out.includes('?') ? '&' : '?'}bbox=${encodeURIComponent(bbox)}`;
  return out;
}
const key = (k) => `${query}\u0000${box}\u0000${k}`;
const layouts = new Map();
const sectionLists = new Map();
const sections = new Map();
const pages = new Map();

/** Forgets everything cached: the next requests see the library as it is now. */
export function reset() {
  generation += 1;
  layouts.clear();
  sectionLists.clear();
  sections.clear();
  pages.clear();
}

/** A cached request of this snapshot; a failed one is forgotten so it can be asked again. */
function cached(map, key, path, then = (x) => x) {
  let entry = map.get(key);
  if (!entry) {
    const g = generation;
    entry = { data: null, promise: null };
    entry.promise = getJSON(path).then((body) => {
      const data = then(body);
      if (g === generation) entry.data = data;
      return data;
    }, (error) => { if (map.get(key) === entry) map.delete(key); throw error; });
    map.set(key, entry);
  }
  return entry.promise;
}

/**
 * The content insets of the packed timeline for a viewport (integer CSS px): `{top, bottom}`, read off
 * `/api/layout?packed=1` at the Years level (a block per year: a small answer), in the scope like every
 * timeline request.
 */
export function insets(width, height) {
  return cached(layouts, key(`insets:${width}x${height}`), scoped(`/api/layout?packed=1&level=years&viewport=${width}x${height}`),
    (body) => ({ top: body.contentInsetTop || 0, bottom: body.contentInsetBottom || 0 }));
}

/** `/api/sections?level=`: every section's label, dates and counts (no photos). */
export function sectionList(level) {
  return cached(sectionLists, key(level), scoped(`/api/sections?level=${level}`));
}

/** `/api/sections/{level}/{index}`: the whole section with its shown photos (the pager's day). */
export function section(level, index) {
  return cached(sections, key(`${level}:${index}`), scoped(`/api/sections/${level}/${index}`));
}

/** Page `page` of a section's shown photos (items page·PAGE …), as an array (the key photo for a year). */
export function page(level, index, page) {
  if (level === 'years') return sectionList(level).then((list) => (list[index] ? [list[index].key] : []));
  return cached(pages, key(`${level}:${index}:${page}`), scoped(`/api/sections/${level}/${index}?from=${page * PAGE}&count=${PAGE}`),
    (body) => body.photos);
}

/** Item `item` of a section if its page has arrived (or the whole section was fetched), else null; a year's key photo. */
export function peekPhoto(level, index, item) {
  if (level === 'years') {
    const list = sectionLists.get(key(level));
    return list && list.data && list.data[index] ? list.data[index].key : null;
  }
  const p = pages.get(key(`${level}:${index}:${Math.floor(item / PAGE)}`));
  if (p && p.data) return p.data[item % PAGE] || null;
  const s = sections.get(key(`${level}:${index}`));
  return s && s.data ? s.data.photos[item] || null : null;
}

export function hasPage(level, index, item) {
  if (level === 'years') return true; // the key photos come with the list
  const p = pages.get(key(`${level}:${index}:${Math.floor(item / PAGE)}`));
  const s = sections.get(key(`${level}:${index}`));
  return Boolean((p && p.data) || (s && s.data));
}

/**
 * `/api/photos/{id}/position` in the scope (or in search `q` when given; '' is the whole library):
 * `{coarse: {section, item} | null, fine: {section, item}}`, or null for a photo it does not hold.
 */
export async function position(id, q = query) {
  try {
    return await getJSON(scoped(`/api/photos/${id}/position`, q));
  } catch (error) {
    if (error instanceof APIError && error.status === 404) return null;
    throw error;
  }
}

/** A parameter as the API reads numbers: a plain decimal (never `1e-7`, which String() can give). */
function plain(v) {
  return typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v);
}

export function zoom(params) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) search.set(k, plain(v));
  return getJSON(scoped(`/api/zoom?${search}`));
}

/** How many photos search `q` (and map box `bbox`) finds (`/api/search`'s `total`). */
export async function searchTotal(q, bbox = '') {
  const body = await getJSON(scoped('/api/search?limit=1', q, bbox));
  return body.total ?? body.photos.length;
}

/** `/api/map?bbox=W,S,E,N&zoom=Z`: `{clusters: [{lat, lon, count, photo, bbox}], total, located, unlocated}`. */
export function mapClusters(bbox, zoom, { signal } = {}) {
  return getJSON(`/api/map?bbox=${encodeURIComponent(bbox)}&zoom=${zoom}`, { signal });
}

/** `/api/map/bounds?q=`: `{bbox: [W, S, E, N] | null, count}` around the positions of the photos matching `q`. */
export function mapBounds(q) {
  return getJSON(`/api/map/bounds?q=${encodeURIComponent(q)}`);
}

/** `/api/map/outlines`: the country outlines (GeoJSON), or null when they are not set up (the error's message says how). */
export async function mapOutlines() {
  try {
    return await getJSON('/api/map/outlines');
  } catch (error) {
    if (error instanceof APIError && error.status === 404) return { missing: error.message };
    throw error;
  }
}

/** `/api/places/names?q=`: up to ten places of the whole places table whose name starts with `text`, the most populous first: `{places: [{label, name, region, country, countryCode, latitude, longitude}]}`. */
export function placeNames(text) {
  return getJSON(`/api/places/names?q=${encodeURIComponent(text)}`);
}

/** `/api/places`: countries → regions → cities, each with `photos`, `cover` and the `query` that opens it. */
export function places() {
  return getJSON('/api/places');
}

/**
 * `/api/duplicates`: a page of groups from the `offset`-th, with the totals of all of them:
 * `{tier, total, offset, extraFiles, extraBytes, groups: [{kind, keep, reason, photos: [{id, path, folder, size, width, height, captured, match, keep}]}]}`.
 */
export function duplicates(offset = 0) {
  return getJSON(offset ? `/api/duplicates?offset=${offset}` : '/api/duplicates');
}

/** `/api/photos/{id}/stack`: `{stack, photos}`, the photos the stack's cover `id` stands for, the cover first. */
export function stack(id) {
  return getJSON(`/api/photos/${id}/stack`);
}

export const thumbnailURL = (id, size = 'thumbnail') => `/api/photos/${id}/thumbnail?size=${size}`;
export const originalURL = (id) => `/api/photos/${id}/original`;
