// The Adjust sheet (`#adjust-sheet`): corrects the selected photos' dates, time zones and places
// through `POST /api/adjust` (written by the server into XMP sidecars beside the photos, never into
// them). Its date field starts at the earliest selected photo's date, never today's; every change
// of a field asks the server for a dry run, whose rows (`[data-adjust-row]`) show before → after and
// flag a photo that changes day. Apply writes; a toast offers `#undo` (`POST /api/adjust/undo`).

import * as api from './api.js';

const PREVIEW_ROWS = 200;

export class AdjustSheet {
  constructor(sheet, { selection, toast, onApplied, onError }) {
    this.sheet = sheet;
    this.form = sheet.querySelector('form');
    this.title = sheet.querySelector('#adjust-title');
    this.rows = sheet.querySelector('.adjust-preview');
    this.error = sheet.querySelector('.adjust-error');
    this.apply = sheet.querySelector('#adjust-apply');
    this.places = sheet.querySelector('#adjust-place-names');
    this.selection = selection;
    this.toast = toast;
    this.onApplied = onApplied;
    this.onError = onError;
    this.initialDate = '';
    this.previewTimer = 0;
    this.previewSerial = 0;
    this.suggestTimer = 0;
    this.suggestSerial = 0;
    this.form.addEventListener('input', (e) => {
      // A place half typed is no place yet: it gets suggestions, and a preview once chosen or left.
      if (e.target === this.form.elements.place) this.scheduleSuggestions();
      else this.schedulePreview();
    });
    this.form.elements.place.addEventListener('change', () => this.schedulePreview());
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.submit().catch(onError); });
    sheet.querySelector('#adjust-cancel').addEventListener('click', () => this.close());
    sheet.addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); this.close(); } });
  }

  get isOpen() { return !this.sheet.hidden; }

  open() {
    const photos = this.selection.ordered;
    if (photos.length === 0) return;
    this.form.reset();
    // The earliest selected photo's date and time (seconds kept): set-date moves it there.
    this.initialDate = photos[0].captured.slice(0, 19);
    this.form.elements.date.value = this.initialDate;
    this.title.textContent = photos.length === 1 ? 'Adjust 1 photo' : `Adjust ${photos.length} photos`;
    this.rows.replaceChildren();
    this.error.textContent = '';
    this.apply.disabled = true;
    this.sheet.hidden = false;
    this.places.replaceChildren();
    this.form.elements.shift.focus({ preventScroll: true });
  }

  close() {
    clearTimeout(this.previewTimer);
    clearTimeout(this.suggestTimer);
    this.previewSerial += 1;
    this.sheet.hidden = true;
  }

  /** The request the fields make, or null when they ask for nothing. */
  request({ dryRun }) {
    const f = this.form.elements;
    const body = { ids: this.selection.ordered.map((p) => p.id) };
    const date = f.date.value.length === 16 ? `${f.date.value}:00` : f.date.value;
    if (date && date !== this.initialDate) body.setDate = date;
    if (f.shift.value.trim()) body.shift = f.shift.value.trim();
    if (f.zone.value.trim()) body.timeZone = f.zone.value.trim();
    if (f.keepInstant.checked) body.keepInstant = true;
    if (f.place.value.trim()) body.place = f.place.value.trim();
    if (Object.keys(body).length === 1) return null;
    if (dryRun) body.dryRun = true;
    return body;
  }

  schedulePreview() {
    clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => this.preview().catch(this.onError), 250);
  }

  async preview() {
    const serial = ++this.previewSerial;
    const body = this.request({ dryRun: true });
    this.error.textContent = '';
    if (!body) { this.rows.replaceChildren(); this.apply.disabled = true; return; }
    let answer;
    try {
      answer = await post('/api/adjust', body);
    } catch (error) {
      if (serial !== this.previewSerial) return;
      this.rows.replaceChildren();
      this.error.textContent = error.message;
      this.apply.disabled = true;
      return;
    }
    if (serial !== this.previewSerial) return;
    this.showRows(answer.photos);
    this.apply.disabled = false;
  }

  showRows(photos) {
    const rows = photos.slice(0, PREVIEW_ROWS).map((p) => {
      const row = document.createElement('li');
      row.dataset.adjustRow = '';
      row.dataset.path = p.path;
      const dayChanges = p.before.captured && p.after.captured && p.before.captured.slice(0, 10) !== p.after.captured.slice(0, 10);
      if (dayChanges) row.dataset.dayChange = '';
      const name = document.createElement('span');
      name.className = 'adjust-name';
      name.textContent = p.path.split('/').pop();
      name.title = p.path;
      const change = document.createElement('span');
      change.className = 'adjust-change';
      change.textContent = `${describe(p.before)} → ${describe(p.after)}${dayChanges ? ' (another day)' : ''}`;
      row.append(name, change);
      return row;
    });
    if (photos.length > PREVIEW_ROWS) {
      const more = document.createElement('li');
      more.textContent = `and ${photos.length - PREVIEW_ROWS} more`;
      rows.push(more);
    }
    this.rows.replaceChildren(...rows);
  }

  async submit() {
    const body = this.request({ dryRun: false });
    if (!body) return;
    this.apply.disabled = true;
    let answer;
    try {
      answer = await post('/api/adjust', body);
    } catch (error) {
      this.error.textContent = error.message;
      this.apply.disabled = false;
      return;
    }
    this.close();
    const count = answer.photos.length;
    if (answer.batch === null) {
      // Every selected photo already said so: nothing was written, nothing to undo.
      this.toast.show('Nothing to change: the photos already say so.');
      return;
    }
    this.onApplied(answer);
    this.toast.show(`Adjusted ${count === 1 ? '1 photo' : `${count} photos`}.`, {
      action: 'Undo',
      onAction: async () => {
        try {
          await post('/api/adjust/undo', { batch: answer.batch });
          this.toast.show('Undone: the sidecars are as they were.');
        } catch (error) {
          this.toast.show(`Not undone: ${error.message}`);
        }
      },
    });
  }

  /** Suggests places of the whole places table for the place field's text, once typing pauses. */
  scheduleSuggestions() {
    clearTimeout(this.suggestTimer);
    const text = this.form.elements.place.value.trim();
    if (text.length < 2) { this.places.replaceChildren(); return; }
    this.suggestTimer = setTimeout(async () => {
      const serial = ++this.suggestSerial;
      try {
        const answer = await api.placeNames(text);
        if (serial !== this.suggestSerial) return;  // a newer text asked meanwhile
        this.places.replaceChildren(...answer.places.map((p) => Object.assign(document.createElement('option'), { value: p.label })));
      } catch { /* no suggestions: a typed name is still looked up */ }
    }, 150);
  }

}

/** A short toast at the bottom with an optional action button (`#undo`). */
export class Toast {
  constructor(element) {
    this.element = element;
    this.text = element.querySelector('.toast-text');
    this.button = element.querySelector('#undo');
    this.timer = 0;
    this.button.addEventListener('click', () => {
      const action = this.onAction;
      this.hide();
      if (action) action();
    });
  }

  show(text, { action = null, onAction = null } = {}) {
    clearTimeout(this.timer);
    this.text.textContent = text;
    this.onAction = onAction;
    this.button.hidden = !action;
    if (action) this.button.textContent = action;
    this.element.hidden = false;
    this.timer = setTimeout(() => this.hide(), action ? 15000 : 5000);
  }

  hide() {
    clearTimeout(this.timer);
    this.onAction = null;
    this.element.hidden = true;
  }
}

function describe(value) {
  const parts = [];
  if (value.captured) parts.push(value.captured.replace('T', ' ') + (value.offset ? ` ${value.offset}` : ''));
  if (value.latitude != null && value.longitude != null) parts.push(`${value.latitude.toFixed(4)}, ${value.longitude.toFixed(4)}`);
  return parts.join(' · ') || '—';
}

/** POSTs `body` as JSON; an error answer throws with its message. */
async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  let answer = null;
  try { answer = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    const error = (answer && answer.error) || {};
    throw new api.APIError(response.status, error.code || 'http', error.message || `${response.status} ${response.statusText}`);
  }
  return answer;
}
