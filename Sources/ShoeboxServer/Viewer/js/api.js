// The JSON API: one fetch helper, and caches for what does not change while the page is open
// (layouts per level and viewport, sections' photo lists).

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

const layouts = new Map();
const sectionLists = new Map();
const sections = new Map();

/** `/api/layout` for one level and viewport (integer CSS px), cached. */
export function layout(level, width, height) {
  const key = `${level}:${width}x${height}`;
  if (!layouts.has(key)) {
    const p = getJSON(`/api/layout?level=${level}&viewport=${width}x${height}`);
    p.catch(() => layouts.delete(key));
    layouts.set(key, p);
  }
  return layouts.get(key);
}

/** `/api/sections?level=`: every section's label and counts (no photos), cached. */
export function sectionList(level) {
  if (!sectionLists.has(level)) {
    const p = getJSON(`/api/sections?level=${level}`);
    p.catch(() => sectionLists.delete(level));
    sectionLists.set(level, p);
  }
  return sectionLists.get(level);
}

/** `/api/sections/{level}/{index}`: the section's shown photos, cached; `peek` answers without fetching. */
export function section(level, index) {
  const key = `${level}:${index}`;
  let entry = sections.get(key);
  if (!entry) {
    entry = { data: null, promise: null };
    entry.promise = getJSON(`/api/sections/${level}/${index}`).then((data) => { entry.data = data; return data; },
      (error) => { sections.delete(key); throw error; });
    sections.set(key, entry);
  }
  return entry.promise;
}
export function peekSection(level, index) {
  const entry = sections.get(`${level}:${index}`);
  return entry ? entry.data : null;
}

export function zoom(params) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) query.set(k, String(v));
  return getJSON(`/api/zoom?${query}`);
}

export const thumbnailURL = (id, size = 'thumbnail') => `/api/photos/${id}/thumbnail?size=${size}`;
export const originalURL = (id) => `/api/photos/${id}/original`;
