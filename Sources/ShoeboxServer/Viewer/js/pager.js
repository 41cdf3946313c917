// The full-size pager: one photo per page with the ScrollingAlbum parallax (SPEC.md
// `SA.hd_parallax_layout`: page centres stay put, the current and next photos narrow as the pager
// moves), the accordion strip under it, swipe / arrow keys / strip between photos, the original
// one click away, videos playing in place.
//
// The pager shows one fine section (a day or two); paging past either end moves on to the
// neighbouring section. Only the pages next to the current one exist in the DOM.

import * as api from './api.js';
import { SA } from './geometry.js';
import { animate, easeOut } from './animation.js';
import { Strip } from './strip.js';
import { thumbnailsAvailable } from './thumbnails.js';
import { attachVideo } from './video.js';
import { explainPlaceholder } from './placeholder-reason.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

export class Pager {
  constructor(element, { sectionCount, onChange, onClose }) {
    this.element = element;
    this.stage = element.querySelector('.stage');
    this.title = element.querySelector('.pager-title');
    this.original = element.querySelector('.pager-original');
    this.sectionCount = sectionCount;
    this.onChange = onChange;
    this.onClose = onClose;
    this.photos = [];
    this.section = 0;
    this.index = 0;
    this.hdOffset = 0;
    this.pages = new Map();
    this.motion = null;
    this.strip = new Strip(element.querySelector('#strip'), {
      onScrub: (i) => { this.stopMotion(); this.setOffset(i * this.pageWidth, { fromStrip: true }); },
      onSettle: (i) => this.settle(i),
      onSelect: (i) => this.go(i),
    });
    element.querySelector('.pager-close').addEventListener('click', () => this.onClose());
    this.installSwipe();
    new ResizeObserver(() => { if (this.isOpen) this.relayout(); }).observe(this.stage);
  }

  get isOpen() { return !this.element.hidden; }
  get pageWidth() { return this.stage.clientWidth || 1; }
  get pageHeight() { return this.stage.clientHeight || 1; }
  get current() { return this.photos[this.index]; }

  /**
   * The timeline's view of the page showing: the section item and the photo the timeline shows
   * for it (a stack's cover, when the page is one of its members).
   */
  get shown() {
    const photo = this.current;
    return photo ? { id: photo.cover, item: photo.item } : null;
  }

  /**
   * Opens fine section `section` at item `item` (its last page with `atEnd`); resolves when the
   * page is showing. A stack is one item of the section and a page per member here, cover first
   * (in a search result, a stack found through a member opens on it: `matchedMember`).
   */
  async open(section, item, { atEnd = false } = {}) {
    const data = await api.section('fine', section);
    const photos = await withStackMembers(data.photos);
    this.section = section;
    this.photos = photos;
    const first = photos.findIndex((p) => p.item >= item);
    this.index = atEnd || first < 0 ? photos.length - 1 : first;
    // A stack that a search found through one of its members opens on that member.
    const member = atEnd || first < 0 ? null : data.photos[photos[first].item]?.matchedMember;
    const matched = member ? photos.findIndex((p) => p.item === photos[first].item && p.id === member) : -1;
    if (matched >= 0) this.index = matched;
    this.element.hidden = false;
    this.element.dataset.section = String(section);
    this.strip.setPhotos(this.photos);
    for (const i of [...this.pages.keys()]) this.dropPage(i);
    this.relayout();
    this.element.focus({ preventScroll: true });
  }

  /** The pager as a page of the viewer: fine section `section` at `item`, over the timeline. */
  async enter(section, item) {
    await this.open(section, item);
    document.body.classList.add('pager-open');
  }

  leave() {
    if (!this.isOpen) return;
    this.close();
    document.body.classList.remove('pager-open');
  }

  close() {
    this.stopMotion();
    this.strip.stop();
    for (const i of [...this.pages.keys()]) this.dropPage(i);
    this.element.hidden = true;
  }

  relayout() {
    this.sizes = this.photos.map((p) => (p.width && p.height
      ? SA.hdCellSize({ image_width: p.width, image_height: p.height, view_width: this.pageWidth, view_height: this.pageHeight })
      : { width: this.pageWidth, height: this.pageHeight }));
    this.setOffset(this.index * this.pageWidth);
    this.announce();
  }

  setOffset(x, { fromStrip = false } = {}) {
    this.hdOffset = x;
    const layout = SA.hdParallaxLayout({ content_offset_x: x, inset_left: 0, page_width: this.pageWidth, page_height: this.pageHeight, photo_sizes: this.sizes });
    const want = new Set();
    for (let i = layout.index - 1; i <= layout.index + 2; i++) if (i >= 0 && i < this.photos.length) want.add(i);
    for (const i of [...this.pages.keys()]) if (!want.has(i)) this.dropPage(i);
    for (const i of want) {
      const it = layout.items[i];
      const page = this.pages.get(i) || this.makePage(i);
      page.style.width = `${it.width}px`;
      page.style.height = `${it.height}px`;
      page.style.transform = `translate(${it.center_x - x - it.width / 2}px, ${it.center_y - it.height / 2}px)`;
    }
    if (!fromStrip) this.strip.followHd(x, this.pageWidth);
  }

  makePage(i) {
    const photo = this.photos[i];
    const page = document.createElement('div');
    page.className = 'page';
    page.dataset.index = String(i);
    page.dataset.photoId = String(photo.id);
    if (photo.mediaType === 'video') {
      const video = document.createElement('video');
      video.controls = true;
      video.playsInline = true;
      video.preload = 'metadata';
      if (thumbnailsAvailable()) setPoster(video, api.thumbnailURL(photo.id, 'preview'));
      page.appendChild(video);
      attachVideo(video, photo.id);
    } else if (thumbnailsAvailable()) {
      const img = document.createElement('img');
      img.alt = photo.path;
      img.draggable = false;
      img.decoding = 'async';
      img.onerror = () => {
        if (!img.dataset.fallback) { img.dataset.fallback = '1'; img.src = api.thumbnailURL(photo.id); } else img.remove();
      };
      img.onload = () => explainPlaceholder(page, photo, img);
      img.src = api.thumbnailURL(photo.id, 'preview');
      page.appendChild(img);
    }
    const label = document.createElement('span');
    label.className = 'page-label';
    label.textContent = photo.path.split('/').pop();
    page.appendChild(label);
    this.stage.appendChild(page);
    this.pages.set(i, page);
    return page;
  }

  dropPage(i) {
    const page = this.pages.get(i);
    this.pages.delete(i);
    const video = page.querySelector('video');
    if (video) { video.pause(); video.removeAttribute('src'); video.load(); }
    page.remove();
  }

  announce() {
    const photo = this.current;
    if (!photo) return;
    this.element.dataset.photoId = String(photo.id);
    this.element.dataset.index = String(photo.item);
    if (photo.stackCount) {
      this.element.dataset.stackCount = String(photo.stackCount);
      this.element.dataset.stackPosition = String(photo.stackPosition + 1);
    } else {
      delete this.element.dataset.stackCount;
      delete this.element.dataset.stackPosition;
    }
    const d = new Date(photo.captured);
    const date = Number.isNaN(d.getTime()) ? photo.captured : dateFormat.format(d);
    this.title.textContent = photo.stackCount ? `${date} · ${photo.stackPosition + 1} of ${photo.stackCount}` : date;
    this.original.href = api.originalURL(photo.id);
    this.onChange({ section: this.section, item: photo.item, photo });
  }

  settle(i) {
    this.index = i;
    this.setOffset(i * this.pageWidth);
    this.announce();
  }

  stopMotion() { if (this.motion) { this.motion.cancel(); this.motion = null; } }

  /** Animates to page `i` of this section; past either end, opens the neighbouring section. */
  async go(i) {
    if (i < 0 || i >= this.photos.length) {
      const next = i < 0 ? this.section - 1 : this.section + 1;
      if (next < 0 || next >= this.sectionCount()) { this.bounce(); return; }
      await this.open(next, 0, { atEnd: i < 0 });
      return;
    }
    this.stopMotion();
    this.strip.stop();
    const from = this.hdOffset;
    const to = i * this.pageWidth;
    this.index = i;
    const motion = animate(220, (p) => this.setOffset(from + (to - from) * p), easeOut);
    this.motion = motion;
    await motion.finished;
    if (this.motion === motion) { this.motion = null; this.settle(i); }
  }

  bounce() { this.settle(this.index); }

  next() { return this.go(this.index + 1); }
  previous() { return this.go(this.index - 1); }

  installSwipe() {
    let drag = null;
    this.stage.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || e.target.closest('video')) return;
      this.stopMotion();
      this.stage.setPointerCapture(e.pointerId);
      drag = { id: e.pointerId, x: e.clientX, offset: this.hdOffset, t: performance.now(), lastX: e.clientX, v: 0 };
    });
    this.stage.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const now = performance.now();
      drag.v = (e.clientX - drag.lastX) / Math.max(1, now - drag.t);
      drag.t = now;
      drag.lastX = e.clientX;
      let x = drag.offset - (e.clientX - drag.x);
      const max = (this.photos.length - 1) * this.pageWidth;
      if (x < 0) x /= 3; else if (x > max) x = max + (x - max) / 3; // rubber band at the ends
      this.setOffset(x);
    });
    const up = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x;
      const v = drag.v;
      drag = null;
      let target = this.index;
      if (dx < -this.pageWidth / 3 || v < -0.4) target = this.index + 1;
      else if (dx > this.pageWidth / 3 || v > 0.4) target = this.index - 1;
      if (Math.abs(dx) < 4) return; // a click, not a swipe
      this.go(target);
    };
    this.stage.addEventListener('pointerup', up);
    this.stage.addEventListener('pointercancel', up);
  }
}

/** Gives `video` the poster at `url` only when it is a real frame: a grey placeholder would hide the first frame. */
/**
 * The pager's pages for a section's shown photos: each photo with its section `item` and the
 * `cover` the timeline shows for it; a stack's cover (`stackCount`) stands for its members, which
 * follow it as pages of their own (`stackPosition` 0 … stackCount − 1).
 */
async function withStackMembers(photos) {
  const stacks = await Promise.all(photos.map((p) => (p.stackCount > 1
    ? api.stack(p.id).then((body) => body.photos, () => [p]) : null)));
  const pages = [];
  photos.forEach((photo, item) => {
    const members = stacks[item] || [photo];
    members.forEach((member, k) => pages.push({
      ...member, item, cover: photo.id,
      ...(members.length > 1 ? { stackCount: members.length, stackPosition: k } : {}),
    }));
  });
  return pages;
}

async function setPoster(video, url) {
  try {
    const response = await fetch(url, { method: 'HEAD' });
    if (response.ok && !response.headers.has('X-Shoebox-Placeholder')) video.poster = url;
  } catch { /* no poster: the first frame shows */ }
}
