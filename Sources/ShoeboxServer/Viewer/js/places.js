// The Places page: countries → regions → cities, each with its photo count and a cover, from
// `GET /api/places`. Any of them opens that place's timeline (its `query`, passed on unchanged).
// A page of the viewer: `enter()` shows it over the timeline (its button pressed), `leave()` hides it.

import * as api from './api.js';
import { photoCount } from './search.js';

export class PlacesPage {
  constructor(element, button, { onOpen, onMap = () => {} }) {
    this.element = element;
    this.button = button;
    this.list = element.querySelector('.places-list');
    this.onOpen = onOpen;
    this.data = null;
    element.addEventListener('click', (e) => {
      const onTheMap = e.target.closest('[data-map-query]');
      if (onTheMap) { onMap(onTheMap.dataset.mapQuery, onTheMap.dataset.label); return; }
      const button = e.target.closest('[data-query]');
      if (button) onOpen(button.dataset.query, button.dataset.label);
    });
  }

  get isOpen() { return !this.element.hidden; }

  /** Shows the page and focuses it; resolves when its places are listed. */
  async enter() {
    this.button.setAttribute('aria-pressed', 'true');
    document.body.classList.add('places-open');
    const shown = this.show();
    this.element.focus({ preventScroll: true });
    await shown;
  }

  leave() {
    if (!this.isOpen) return;
    this.hide();
    this.button.setAttribute('aria-pressed', 'false');
    document.body.classList.remove('places-open');
  }

  /** Shows the page, asking the server each time (the library may have changed; the last answer shows meanwhile). */
  async show() {
    this.element.hidden = false;
    if (!this.data) this.list.replaceChildren(note('Loading places…'));
    try {
      this.data = await api.places();
      this.render(this.data);
    } catch (error) {
      this.list.replaceChildren(note(`The places could not be loaded: ${error.message}`));
    }
    this.element.dataset.ready = 'true';
  }

  hide() {
    this.element.hidden = true;
    delete this.element.dataset.ready;
  }

  render({ countries = [], unplaced = 0 }) {
    const out = [];
    if (!countries.length) {
      out.push(note('No photos with a place yet: photos with a GPS position are named by their nearest place when indexed.'));
    }
    for (const country of countries) {
      const section = document.createElement('section');
      section.className = 'country-group';
      section.append(placeButton(country, 'country', country.name), mapButton(country, country.name));
      const regions = document.createElement('div');
      regions.className = 'place-regions';
      for (const region of country.regions || []) {
        const block = document.createElement('div');
        block.className = 'region-group';
        block.append(placeButton(region, 'region', `${region.name}, ${country.name}`), mapButton(region, `${region.name}, ${country.name}`));
        const cities = document.createElement('div');
        cities.className = 'place-cities';
        for (const city of region.cities || []) {
          // A city's chip, and beside it a small button to the map there.
          const label = `${city.name}, ${country.name}`;
          const group = document.createElement('span');
          group.className = 'city-group';
          group.append(placeButton(city, 'city', label), mapButton(city, label, { compact: true }));
          cities.append(group);
        }
        if (cities.childElementCount) block.append(cities);
        regions.append(block);
      }
      if (regions.childElementCount) section.append(regions);
      out.push(section);
    }
    if (unplaced > 0) out.push(note(`${photoCount(unplaced)} without a place.`, 'places-unplaced'));
    this.list.replaceChildren(...out);
  }
}

/** One place: cover, name and count, a button that opens its timeline. */
function placeButton(place, kind, label) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `place place-${kind}`;
  button.dataset.query = place.query;
  button.dataset.label = label;
  button.dataset.photos = String(place.photos);
  const cover = document.createElement('span');
  cover.className = 'place-cover';
  if (place.cover !== null && place.cover !== undefined) {
    const img = document.createElement('img');
    img.alt = '';
    img.loading = 'lazy';
    img.decoding = 'async';
    img.src = api.thumbnailURL(place.cover);
    img.addEventListener('error', () => img.remove(), { once: true });
    cover.append(img);
  }
  const name = document.createElement('span');
  name.className = 'place-name';
  name.textContent = place.name || 'Unknown';
  const count = document.createElement('span');
  count.className = 'place-count';
  count.textContent = photoCount(place.photos);
  button.append(cover, name, count);
  return button;
}

/** A place's button to the Map page, there (`compact`: smaller, beside a city's chip). */
function mapButton(place, label, { compact = false } = {}) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = compact ? 'place-map place-map-compact' : 'place-map';
  button.dataset.mapQuery = place.query;
  button.dataset.label = label;
  button.textContent = 'Map';
  button.title = `${label} on the map`;
  button.setAttribute('aria-label', `${label} on the map`);
  return button;
}

function note(text, className = 'places-note') {
  const p = document.createElement('p');
  p.className = className;
  p.textContent = text;
  return p;
}
