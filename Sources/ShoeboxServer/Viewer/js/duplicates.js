// The Duplicates page: the groups the last `shoebox duplicates` stored, from `GET /api/duplicates`.
// Each group is a row of its files side by side (thumbnail, size, dimensions, date, folder), the
// one to keep first and marked, with the reason. A file opens in the pager (`onOpen(id)`).
// A page of the viewer: `enter()` shows it over the timeline (its button pressed), `leave()` hides it.

import * as api from './api.js';

/** What a group's `kind` (its loosest link) and a file's `match` are called on the page. */
export const KIND_LABELS = { exact: 'Exact copy', 'same-picture': 'Same picture', similar: 'Similar' };

export class DuplicatesPage {
  constructor(element, button, { onOpen }) {
    this.element = element;
    this.button = button;
    this.list = element.querySelector('.duplicates-list');
    this.summary = element.querySelector('.duplicates-summary');
    this.data = null;
    element.addEventListener('click', (e) => {
      const photo = e.target.closest('button[data-photo-id]');
      if (photo) onOpen(Number(photo.dataset.photoId));
    });
  }

  get isOpen() { return !this.element.hidden; }

  /** Shows the page and focuses it; resolves when its groups are listed. */
  async enter() {
    this.button.setAttribute('aria-pressed', 'true');
    const shown = this.show();
    this.element.focus({ preventScroll: true });
    await shown;
  }

  leave() {
    if (!this.isOpen) return;
    this.element.hidden = true;
    delete this.element.dataset.ready;
    this.button.setAttribute('aria-pressed', 'false');
  }

  /** Shows the page, asking the server each time (`shoebox duplicates` may have run since; the last answer shows meanwhile). */
  async show() {
    this.element.hidden = false;
    if (!this.data) {
      this.summary.textContent = '';
      this.list.replaceChildren(note('Loading duplicates…'));
    }
    try {
      this.data = await api.duplicates();
      this.render(this.data);
    } catch (error) {
      this.list.replaceChildren(note(`The duplicates could not be loaded: ${error.message}`));
    }
    this.element.dataset.ready = 'true';
  }

  /** The first page of groups, and the totals of all of them (the server sends a page at a time). */
  render(data) {
    const { groups = [] } = data;
    if (!groups.length) {
      this.summary.textContent = '';
      const empty = note('No duplicates found. ');
      empty.append('Run ', code('shoebox duplicates'), ' to find the files stored more than once; this page shows the groups it found last.');
      this.list.replaceChildren(empty);
      return;
    }
    const total = data.total ?? groups.length;
    const extras = groups.flatMap((g) => g.photos.filter((p) => !p.keep));
    const extraFiles = data.extraFiles ?? extras.length;
    const extraBytes = data.extraBytes ?? extras.reduce((sum, p) => sum + p.size, 0);
    this.summary.textContent = `${count(total, 'group')} · ${count(extraFiles, 'extra file')} (${formatBytes(extraBytes)}) beside the ones to keep`;
    this.shown = groups.length;
    this.total = total;
    this.list.replaceChildren(...groups.map(groupRow));
    this.addMoreButton();
  }

  /** "Show more": the next page of groups after those listed, while there are more. */
  addMoreButton() {
    if (this.shown >= this.total) return;
    const more = document.createElement('button');
    more.type = 'button';
    more.className = 'dup-more';
    more.textContent = `Show more (${count(this.total - this.shown, 'group')} left)`;
    more.addEventListener('click', async () => {
      more.disabled = true;
      try {
        const page = await api.duplicates(this.shown);
        more.remove();
        const rows = (page.groups || []).map((group, k) => groupRow(group, this.shown + k));
        this.list.append(...rows);
        this.shown += rows.length;
        if (rows.length) this.addMoreButton();
      } catch (error) {
        more.disabled = false;
        more.textContent = `The next groups could not be loaded (${error.message}): try again`;
      }
    });
    this.list.append(more);
  }
}

/** One group: its kind and the reason for the kept file, then its files side by side. */
function groupRow(group, index) {
  const row = document.createElement('section');
  row.className = 'dup-group';
  row.dataset.group = String(index);
  row.dataset.kind = group.kind;
  const head = document.createElement('h3');
  head.className = 'dup-head';
  const kind = document.createElement('span');
  kind.className = 'dup-kind';
  kind.textContent = KIND_LABELS[group.kind] || group.kind;
  const files = document.createElement('span');
  files.className = 'dup-count';
  files.textContent = count(group.photos.length, 'file');
  head.append(kind, files);
  const members = document.createElement('div');
  members.className = 'dup-members';
  members.append(...group.photos.map((photo) => member(photo, group)));
  row.append(head, members);
  return row;
}

/** One file of a group: a button that opens it, with its thumbnail and facts; the kept one is marked. */
function member(photo, group) {
  const item = document.createElement('button');
  item.type = 'button';
  item.className = 'dup-photo';
  item.dataset.photoId = String(photo.id);
  item.dataset.size = String(photo.size);
  item.dataset.path = photo.path;
  if (photo.keep) item.dataset.keep = '';
  const name = photo.path.slice(photo.path.lastIndexOf('/') + 1);
  item.title = photo.path;

  const cover = document.createElement('span');
  cover.className = 'dup-cover';
  const img = document.createElement('img');
  img.alt = name;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.src = api.thumbnailURL(photo.id);
  img.addEventListener('error', () => img.remove(), { once: true });
  cover.append(img);
  if (photo.keep) {
    const mark = document.createElement('span');
    mark.className = 'dup-keep';
    mark.textContent = 'Keep';
    cover.append(mark);
  }

  const facts = document.createElement('span');
  facts.className = 'dup-facts';
  facts.append(
    line('dup-name', name),
    line('dup-size', formatBytes(photo.size), `${photo.size.toLocaleString('en-GB')} bytes`),
    line('dup-dimensions', photo.width && photo.height ? `${photo.width} × ${photo.height}` : 'Size unknown'),
    line('dup-date', formatDate(photo.captured)),
    line('dup-folder', photo.folder ? `${photo.folder}/` : 'Top folder', photo.folder || 'The library’s top folder'),
  );
  if (photo.keep) facts.append(line('dup-reason', `Keep: ${group.reason}`));
  else facts.append(line('dup-match', KIND_LABELS[photo.match] || photo.match));
  item.append(cover, facts);
  return item;
}

function line(className, text, title) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = text;
  if (title) span.title = title;
  return span;
}

function code(text) {
  const c = document.createElement('code');
  c.textContent = text;
  return c;
}

function note(text) {
  const p = document.createElement('p');
  p.className = 'duplicates-note';
  p.textContent = text;
  return p;
}

const count = (n, noun) => `${n.toLocaleString('en-GB')} ${noun}${n === 1 ? '' : 's'}`;

/** Bytes for people: `812 bytes`, `40.6 kB`, `3.2 MB`, `1.05 GB` (powers of 1000, like file managers). */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let u = 0;
  while (value >= 999.95 && u < units.length - 1) { value /= 1000; u += 1; }
  return `${value.toLocaleString('en-GB', { maximumFractionDigits: value < 10 && u > 1 ? 2 : 1 })} ${units[u]}`;
}

/** A local capture time (`YYYY-MM-DDTHH:MM:SS[.fff]`) as `3 May 2019, 14:05`; other text as it is. */
function formatDate(captured) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(captured || '');
  if (!m) return captured || 'No date';
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(date);
}
