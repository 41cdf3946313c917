// The view in the URL: level, scroll anchor (a cell and its viewport y) and the open photo.
// `?level=fine&section=12&item=8&y=-20.5[&photo=12:9]` — reload and Back/Forward restore it.

export function readURL(search = location.search) {
  const q = new URLSearchParams(search);
  const level = q.get('level') === 'fine' ? 'fine' : 'coarse';
  const int = (v) => (v !== null && /^\d+$/.test(v) ? Number(v) : null);
  const num = (v) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);
  let photo = null;
  const p = q.get('photo');
  if (p && /^\d+:\d+$/.test(p)) { const [s, i] = p.split(':').map(Number); photo = { section: s, item: i }; }
  const section = int(q.get('section'));
  return { level, anchor: section === null ? null : { section, item: int(q.get('item')) ?? 0, dy: num(q.get('y')) ?? 0 }, photo };
}

export function toURL({ level, anchor, photo }) {
  const q = new URLSearchParams();
  q.set('level', level);
  if (anchor) {
    q.set('section', String(anchor.section));
    q.set('item', String(anchor.item));
    q.set('y', String(Math.round(anchor.dy * 1000) / 1000));
  }
  if (photo) q.set('photo', `${photo.section}:${photo.item}`);
  return `${location.pathname}?${q}`;
}

export function push(state) { history.pushState(null, '', toURL(state)); }
export function replace(state) { history.replaceState(null, '', toURL(state)); }
