// The view in the URL: the search, level, scroll anchor, the open photo and the Places page.
//
// `?[q=lisbon+2019&]level=fine&anchor=5120&y=20.5&section=12&item=8[&photo=5133][&view=places]`
//   q       the search whose result the timeline shows (none: the whole library)
//   anchor  the photo id at the top of the view (the first row starting inside it), y its viewport y;
//           found again through `/api/photos/{id}/position`, so the view survives library changes
//   section, item  where that photo was: used when the id is gone (and by links without an anchor)
//   photo   the photo open in the pager, by id (`photo=12:9`, section:item, is read too)
//   view    `places`: the Places page over the timeline
// A place's result keeps its name and origin (`place: {label, fromPlaces}`) in the history entry's
// state, not in the URL: a link with the same `q` shows the same photos.
// Reload and Back/Forward restore it.

export function readURL(search = location.search, entry = history.state) {
  const q = new URLSearchParams(search);
  const level = q.get('level') === 'fine' ? 'fine' : 'coarse';
  const int = (v) => (v !== null && /^\d+$/.test(v) ? Number(v) : null);
  const num = (v) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  let photo = null;
  const p = q.get('photo');
  if (p && /^\d+:\d+$/.test(p)) { const [s, i] = p.split(':').map(Number); photo = { section: s, item: i, id: null }; }
  else if (int(p) !== null) photo = { id: int(p), section: null, item: null };
  const section = int(q.get('section'));
  const id = int(q.get('anchor'));
  const anchor = section === null && id === null ? null
    : { id, section: section ?? 0, item: int(q.get('item')) ?? 0, dy: num(q.get('y')) ?? 0 };
  const view = q.get('view') === 'places' ? 'places' : null;
  const place = entry && entry.place && typeof entry.place === 'object' ? entry.place : null;
  return { q: (q.get('q') || '').trim(), level, anchor, photo, view, place };
}

export function toURL({ q: search, level, anchor, photo, view }) {
  const q = new URLSearchParams();
  if (search) q.set('q', search);
  q.set('level', level);
  if (anchor) {
    if (anchor.id !== null && anchor.id !== undefined) q.set('anchor', String(anchor.id));
    q.set('y', String(Math.round(anchor.dy * 1000) / 1000));
    q.set('section', String(anchor.section));
    q.set('item', String(anchor.item));
  }
  if (photo) q.set('photo', photo.id !== null && photo.id !== undefined ? String(photo.id) : `${photo.section}:${photo.item}`);
  if (view) q.set('view', view);
  return `${location.pathname}?${q}`;
}

const entryState = (state) => (state.place ? { place: state.place } : null);
export function push(state) { history.pushState(entryState(state), '', toURL(state)); }
export function replace(state) { history.replaceState(entryState(state), '', toURL(state)); }
