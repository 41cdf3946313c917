// Selection mode (`#select`): while it is on, a tap or click on a photo toggles it (`aria-selected`),
// a section's header selects its section (every photo of it, at Overview the photos of its days
// too), and shift-click selects the range from the last photo clicked. The selected photos are kept
// by id with their capture date, for the Adjust sheet.

import * as api from './api.js';

export class Selection {
  /**
   * `button` toggles the mode; `timeline` renders the cells (it asks `isSelected` for each);
   * `onChange(selection)` is called after every change.
   */
  constructor(button, { timeline, onChange }) {
    this.button = button;
    this.timeline = timeline;
    this.onChange = onChange;
    /** id → {id, captured, path} of each selected photo. */
    this.photos = new Map();
    this.anchor = null; // {level, section, item} of the last photo clicked
    this.active = false;
    button.addEventListener('click', () => this.setActive(!this.active));
  }

  get count() { return this.photos.size; }

  /** The selected photos in capture order. */
  get ordered() {
    return [...this.photos.values()].sort((a, b) => (a.captured < b.captured ? -1 : a.captured > b.captured ? 1 : a.id - b.id));
  }

  setActive(on) {
    if (on === this.active) return;
    this.active = on;
    this.button.setAttribute('aria-pressed', String(on));
    document.body.classList.toggle('selecting', on);
    if (!on) { this.photos.clear(); this.anchor = null; }
    this.timeline.isSelected = on ? (id) => this.photos.has(id) : null;
    this.paint();
    this.onChange(this);
  }

  /** Empties the selection, staying in the mode. */
  clear() {
    this.photos.clear();
    this.anchor = null;
    this.paint();
    this.onChange(this);
  }

  /** A click on photo cell `cell` while selecting: toggles it, or with shift selects the range to it. */
  async click(cell, { shift = false } = {}) {
    const level = this.timeline.level;
    const at = { level, section: Number(cell.dataset.section), item: Number(cell.dataset.item) };
    const photo = api.peekPhoto(level, at.section, at.item);
    if (!photo) return;
    if (shift && this.anchor && this.anchor.level === level) {
      const from = before(this.anchor, at) ? this.anchor : at;
      const to = from === at ? this.anchor : at;
      for (let s = from.section; s <= to.section; s++) {
        const photos = await sectionPhotos(level, s);
        const first = s === from.section ? from.item : 0;
        const last = s === to.section ? to.item : photos.length - 1;
        for (let i = first; i <= last && i < photos.length; i++) this.add(photos[i]);
      }
    } else if (this.photos.has(photo.id)) {
      this.photos.delete(photo.id);
    } else {
      this.add(photo);
    }
    this.anchor = at;
    this.paint();
    this.onChange(this);
  }

  /** Selects every photo of section `index` of the current level; a second time, unselects them. */
  async selectSection(index) {
    const level = this.timeline.level;
    const photos = level === 'coarse' ? await coarseSectionPhotos(index) : await sectionPhotos(level, index);
    const all = photos.length > 0 && photos.every((p) => this.photos.has(p.id));
    for (const p of photos) { if (all) this.photos.delete(p.id); else this.add(p); }
    this.paint();
    this.onChange(this);
  }

  add(photo) { this.photos.set(photo.id, { id: photo.id, captured: photo.captured, path: photo.path }); }

  /** Marks the cells on screen. */
  paint() {
    for (const cell of this.timeline.layer.querySelectorAll('.cell[data-photo-id]')) {
      if (this.active) cell.setAttribute('aria-selected', String(this.photos.has(Number(cell.dataset.photoId))));
      else cell.removeAttribute('aria-selected');
    }
  }
}

function before(a, b) { return a.section < b.section || (a.section === b.section && a.item <= b.item); }

/** The shown photos of a section (every photo at Days; a year's key photo at Years). */
async function sectionPhotos(level, index) {
  if (level === 'years') return [];
  const body = await api.section(level, index);
  return body.photos;
}

/** Every photo of an Overview section: the photos of the days it covers (it shows a sample). */
async function coarseSectionPhotos(index) {
  const [coarse, fine] = await Promise.all([api.sectionList('coarse'), api.sectionList('fine')]);
  const section = coarse[index];
  if (!section) return [];
  const days = fine.map((s, i) => [s, i]).filter(([s]) => s.start >= section.start && s.end <= section.end);
  const lists = await Promise.all(days.map(([, i]) => sectionPhotos('fine', i)));
  return lists.flat();
}
