// The JSON API: one fetch helper, and caches of what one library snapshot answers (layouts per
// level and viewport, section lists, pages of sections' photos). `reset()` drops them when the
// library changes; answers that arrive for an older snapshot are not cached.

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

/** `/api/layout` for one level and viewport (integer CSS px). */
export function layout(level, width, height) {
  return cached(layouts, `${level}:${width}x${height}`, `/api/layout?level=${level}&viewport=${width}x${height}`);
}

/** `/api/sections?level=`: every section's label, dates and counts (no photos). */
export function sectionList(level) {
  return cached(sectionLists, level, `/api/sections?level=${level}`);
}

/** `/api/sections/{level}/{index}`: the whole section with its shown photos (the pager's day). */
export function section(level, index) {
  return cached(sections, `${level}:${index}`, `/api/sections/${level}/${index}`);
}

/** Page `page` of a section's shown photos (items page·PAGE …), as an array. */
export function page(level, index, page) {
  return cached(pages, `${level}:${index}:${page}`, `/api/sections/${level}/${index}?from=${page * PAGE}&count=${PAGE}`,
    (body) => body.photos);
}

/** Item `item` of a section if its page has arrived (or the whole section was fetched), else null. */
export function peekPhoto(level, index, item) {
  const p = pages.get(`${level}:${index}:${Math.floor(item / PAGE)}`);
  if (p && p.data) return p.data[item % PAGE] || null;
  const s = sections.get(`${level}:${index}`);
  return s && s.data ? s.data.photos[item] || null : null;
}

export function hasPage(level, index, item) {
  const p = pages.get(`${level}:${index}:${Math.floor(item / PAGE)}`);
  const s = sections.get(`${level}:${index}`);
  return Boolean((p && p.data) || (s && s.data));
}

/** `/api/photos/{id}/position`: `{coarse: {section, item} | null, fine: {section, item}}`, or null for an unknown id. */
export async function position(id) {
  try {
    return await getJSON(`/api/photos/${id}/position`);
  } catch (error) {
    if (error instanceof APIError && error.status === 404) return null;
    throw error;
  }
}

export function zoom(params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) query.set(k, String(v));
  return getJSON(`/api/zoom?${query}`);
}

export const thumbnailURL = (id, size = 'thumbnail') => `/api/photos/${id}/thumbnail?size=${size}`;
export const originalURL = (id) => `/api/photos/${id}/original`;
