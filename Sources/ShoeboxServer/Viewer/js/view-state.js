// The viewer's one view state, and its one mapping to and from the URL.
//
// A state is a plain value:
//   view    'timeline', or a page over the timeline: 'places' (the Places page), 'duplicates'
//           (the Duplicates page) or 'map' (the Map page)
//   level   'years', 'coarse' (Overview) or 'fine' (Days)
//   scope   { q, bbox, label, fromPlaces, fromMap, back }: the search and map box ('W,S,E,N') whose
//           photos the timeline shows (both '' is the whole library); for a place's result opened
//           from the Places page, its name (`label`) and that leaving it shows the page again
//           (`fromPlaces`; `fromMap` likewise for a map marker's photos); `back`, the library's view
//           when the search began (the way back from an empty result)
//   map     { zoom, lat, lon } or null: where the Map page looks (kept while a marker's timeline shows)
//   anchor  { id, section, item, dy } or null: the photo at the top of the view (the first row
//           starting inside it) and its viewport y; found again by id, so the view survives
//           library changes; section and item are used when the id is gone
//   photo   { id, section, item } or null: the photo open in the pager
//
// URL: `?[q=lisbon+2019&][bbox=-9.5,38.5,-9.1,38.8&]level=fine&anchor=5120&y=20.5&section=12&item=8[&photo=5133][&view=places]`
// (`&view=map&map=8/38.72/-9.14`: the Map page at zoom 8 over Lisbon)
// (`view=duplicates` likewise; `photo=12:9`, section:item, is read too). The scope's label, origin and way back live in the
// history entry's state, not the URL: a link with the same `q` shows the same photos. Reload and
// Back/Forward restore a state; every page reads it in its `enter(state)`.

/** The views: the timeline, and the pages shown over it. */
export const VIEWS = ['timeline', 'places', 'duplicates', 'map'];

/** The timeline's levels, widest first. */
export const LEVELS = ['years', 'coarse', 'fine'];

/** The whole library's scope. */
export const LIBRARY = Object.freeze({ q: '', bbox: '', label: null, fromPlaces: false, fromMap: false, back: null });

/** A state with every field present (missing ones take the library's timeline defaults). */
export function makeState({ view = 'timeline', level = 'coarse', scope = LIBRARY, anchor = null, photo = null, map = null } = {}) {
  return { view, level, scope: { ...LIBRARY, ...scope }, anchor, photo, map };
}

/** Whether `scope` is a search or a map box (not the whole library). */
export const isScoped = (scope) => Boolean(scope.q || scope.bbox);

/** One string per scope: equal scopes show the same photos. */
export const scopeKey = (scope) => `${scope.q || ''}\u0000${scope.bbox || ''}`;

/** A map box 'W,S,E,N' (four decimal numbers), or '' for anything else. */
export function boxText(text) {
  const parts = String(text || '').split(',');
  return parts.length === 4 && parts.every((p) => /^-?\d+(\.\d+)?$/.test(p.trim())) ? parts.map((p) => p.trim()).join(',') : '';
}

/** The photos of map box `bbox` (a marker's cell), opened from the Map page. */
export function boxScope(bbox, { label = null, back = null } = {}) {
  return { ...LIBRARY, bbox: boxText(bbox), label, fromMap: true, back };
}

/** The search scope `q` (trimmed), optionally a place's `label` opened from the Places page. */
export function searchScope(q, { label = null, fromPlaces = false, back = null } = {}) {
  q = (q || '').trim();
  return q ? { q, label, fromPlaces, back } : LIBRARY;
}

export function fromURL(search = location.search, entry = history.state) {
  const params = new URLSearchParams(search);
  const level = LEVELS.includes(params.get('level')) ? params.get('level') : 'coarse';
  const int = (v) => (v !== null && /^\d+$/.test(v) ? Number(v) : null);
  const num = (v) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  let photo = null;
  const p = params.get('photo');
  if (p && /^\d+:\d+$/.test(p)) { const [s, i] = p.split(':').map(Number); photo = { section: s, item: i, id: null }; }
  else if (int(p) !== null) photo = { id: int(p), section: null, item: null };
  const section = int(params.get('section'));
  const id = int(params.get('anchor'));
  const anchor = section === null && id === null ? null
    : { id, section: section ?? 0, item: int(params.get('item')) ?? 0, dy: num(params.get('y')) ?? 0 };
  const view = VIEWS.includes(params.get('view')) ? params.get('view') : 'timeline';
  const kept = entry && typeof entry.scope === 'object' && entry.scope ? entry.scope : {};
  const scope = { ...searchScope(params.get('q'), {
    label: typeof kept.label === 'string' ? kept.label : null,
    fromPlaces: kept.fromPlaces === true,
    back: kept.back && typeof kept.back === 'object' ? kept.back : null,
  }) };
  const bbox = boxText(params.get('bbox'));
  if (bbox) {
    Object.assign(scope, { bbox, fromMap: kept.fromMap === true });
    if (!scope.label) scope.label = typeof kept.label === 'string' ? kept.label : 'this place on the map';
    if (!scope.back && kept.back && typeof kept.back === 'object') scope.back = kept.back;
  }
  const m = /^(\d{1,2})\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)$/.exec(params.get('map') || '');
  const map = m && Number(m[1]) <= 18 && Math.abs(Number(m[2])) <= 90 && Math.abs(Number(m[3])) <= 180
    ? { zoom: Number(m[1]), lat: Number(m[2]), lon: Number(m[3]) } : null;
  return makeState({ view, level, scope, anchor, photo, map });
}

export function toURL({ view, level, scope, anchor, photo, map }) {
  const q = new URLSearchParams();
  if (scope.q) q.set('q', scope.q);
  if (scope.bbox) q.set('bbox', scope.bbox);
  q.set('level', level);
  if (anchor) {
    if (anchor.id !== null && anchor.id !== undefined) q.set('anchor', String(anchor.id));
    q.set('y', String(Math.round(anchor.dy * 1000) / 1000));
    q.set('section', String(anchor.section));
    q.set('item', String(anchor.item));
  }
  if (photo) q.set('photo', photo.id !== null && photo.id !== undefined ? String(photo.id) : `${photo.section}:${photo.item}`);
  if (view !== 'timeline') q.set('view', view);
  if (map) q.set('map', `${map.zoom}/${map.lat.toFixed(5)}/${map.lon.toFixed(5)}`);
  return `${location.pathname}?${q}`;
}

/** What the history entry keeps beside the URL: the scope's label, origin and way back. */
function entryState({ scope }) {
  if (!isScoped(scope) || (!scope.label && !scope.fromPlaces && !scope.fromMap && !scope.back)) return null;
  return { scope: { label: scope.label, fromPlaces: scope.fromPlaces, fromMap: scope.fromMap, back: scope.back } };
}

export function push(state) { history.pushState(entryState(state), '', toURL(state)); }
export function replace(state) { history.replaceState(entryState(state), '', toURL(state)); }
