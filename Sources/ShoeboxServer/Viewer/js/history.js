// The view in the URL: level, scroll anchor and the open photo.
//
// `?level=fine&anchor=5120&y=20.5&section=12&item=8[&photo=5133]`
//   anchor  the photo id at the top of the view (the first row starting inside it), y its viewport y;
//           found again through `/api/photos/{id}/position`, so the view survives library changes
//   section, item  where that photo was: used when the id is gone (and by links without an anchor)
//   photo   the photo open in the pager, by id (`photo=12:9`, section:item, is read too)
// Reload and Back/Forward restore it.

export function readURL(search = location.search) {
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
  return { level, anchor, photo };
}

export function toURL({ level, anchor, photo }) {
  const q = new URLSearchParams();
  q.set('level', level);
  if (anchor) {
    if (anchor.id !== null && anchor.id !== undefined) q.set('anchor', String(anchor.id));
    q.set('y', String(Math.round(anchor.dy * 1000) / 1000));
    q.set('section', String(anchor.section));
    q.set('item', String(anchor.item));
  }
  if (photo) q.set('photo', photo.id !== null && photo.id !== undefined ? String(photo.id) : `${photo.section}:${photo.item}`);
  return `${location.pathname}?${q}`;
}

export function push(state) { history.pushState(null, '', toURL(state)); }
export function replace(state) { history.replaceState(null, '', toURL(state)); }
