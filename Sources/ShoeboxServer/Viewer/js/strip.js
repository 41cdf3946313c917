// The accordion thumbnail strip under the pager (SPEC.md §1, ScrollingAlbum).
//
// Two modes. *Slave*: the HD pager is master; each frame the strip's offset and layout follow the
// pager's offset (`SA.syncHdToThumbnail`, `SA.slaveLayout`): the current thumbnail is unfolded to
// its full width and hands its width over to the next one as the pager moves. *Master*: the user
// drags the strip; its current cell folds (`SA.accordionProgress` folding, `SA.accordionLayout`),
// the pager jumps to the thumbnail under the centre (`SA.accordionCurrentIndex`), and on release
// the cell under the centre unfolds into the middle (`SA.unfoldFrame`).

import { SA } from './geometry.js';
import { setThumbnail, clearThumbnail } from './thumbnails.js';

export const STRIP_HEIGHT = 48;
const TAP_SLOP = 6;

export class Strip {
  constructor(element, { onScrub, onSettle, onSelect }) {
    this.element = element;
    this.layer = element.querySelector('.strip-layer');
    this.onScrub = onScrub;
    this.onSettle = onSettle;
    this.onSelect = onSelect;
    this.photos = [];
    this.widths = [];
    this.items = [];
    this.offset = 0;
    this.mode = 'slave';
    this.puppet = { index: 0, fraction: 0 };
    this.nodes = new Map();
    this.pool = [];
    this.raf = 0;
    this.installDrag();
  }

  get width() { return this.element.clientWidth; }

  setPhotos(photos) {
    this.photos = photos;
    this.widths = photos.map((p) => (p.width && p.height
      ? SA.thumbnailFullWidth({ image_width: p.width, image_height: p.height, cell_height: STRIP_HEIGHT }).width
      : SA_DEFAULT_WIDTH));
    for (const i of [...this.nodes.keys()]) this.recycle(i);
    this.puppet = { index: 0, fraction: 0 };
  }

  /** Slave mode: follow the HD pager at `hdOffset` (content x) with pages `pageWidth` wide. */
  followHd(hdOffset, pageWidth) {
    if (this.mode !== 'slave') return;
    const S = this.width;
    const sync = SA.syncHdToThumbnail({
      hd_content_offset_x: hdOffset, hd_inset_left: 0, page_width: pageWidth, thumb_full_widths: this.widths,
      cell_height: STRIP_HEIGHT, superview_width: S, previous_puppet: this.puppet,
    });
    this.puppet = sync.puppet;
    const layout = SA.slaveLayout({ puppet_index: this.puppet.index, puppet_fraction: this.puppet.fraction, full_widths: this.widths, cell_height: STRIP_HEIGHT, superview_width: S });
    this.items = layout.items;
    this.offset = sync.content_offset_x;
    this.current = sync.index;
    this.render();
  }

  render() {
    const S = this.width;
    const left = this.offset - 20;
    const right = this.offset + S + 20;
    const want = new Set();
    // Items are in x order: find the first visible one by binary search.
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const it = this.items[mid];
      if (it.center_x + it.width / 2 < left) lo = mid + 1; else hi = mid;
    }
    for (let i = lo; i < this.items.length && this.items[i].center_x - this.items[i].width / 2 <= right; i++) want.add(i);
    for (const i of [...this.nodes.keys()]) if (!want.has(i)) this.recycle(i);
    for (const i of want) {
      const it = this.items[i];
      let node = this.nodes.get(i);
      if (!node) node = this.make(i);
      node.style.transform = `translate(${it.center_x - it.width / 2 - this.offset}px, 0)`;
      node.style.width = `${it.width}px`;
      node.classList.toggle('current', i === this.current);
    }
    this.element.dataset.current = String(this.current ?? '');
  }

  make(i) {
    const node = this.pool.pop() || this.create();
    node.dataset.index = String(i);
    const photo = this.photos[i];
    node.dataset.photoId = String(photo.id);
    setThumbnail(node.firstChild, photo.id);
    if (!node.parentNode) this.layer.appendChild(node);
    node.hidden = false;
    this.nodes.set(i, node);
    return node;
  }

  create() {
    const node = document.createElement('div');
    node.className = 'thumb';
    const img = document.createElement('img');
    img.alt = '';
    img.draggable = false;
    img.hidden = true;
    node.appendChild(img);
    return node;
  }

  recycle(i) {
    const node = this.nodes.get(i);
    this.nodes.delete(i);
    clearThumbnail(node.firstChild);
    node.hidden = true;
    this.pool.push(node);
  }

  indexAtX(x) {
    const cx = x + this.offset;
    for (let i = 0; i < this.items.length; i++) {
      const it = this.items[i];
      if (Math.abs(cx - it.center_x) <= it.width / 2 + 2) return i;
    }
    return null;
  }

  installDrag() {
    let drag = null;
    this.element.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !this.items.length) return;
      this.element.setPointerCapture(e.pointerId);
      drag = { id: e.pointerId, x: e.clientX, offset: this.offset, moved: false };
    });
    this.element.addEventListener('pointermove', (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const dx = e.clientX - drag.x;
      if (!drag.moved && Math.abs(dx) < TAP_SLOP) return;
      if (!drag.moved) { drag.moved = true; this.startFolding(); }
      this.offset = drag.offset - dx;
      this.scrubFrame();
    });
    const up = (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const wasDrag = drag.moved;
      drag = null;
      if (wasDrag) this.startUnfolding();
      else {
        const r = this.element.getBoundingClientRect();
        const i = this.indexAtX(e.clientX - r.left);
        if (i !== null) this.onSelect(i);
      }
    };
    this.element.addEventListener('pointerup', up);
    this.element.addEventListener('pointercancel', up);
  }

  startFolding() {
    cancelAnimationFrame(this.raf);
    this.mode = 'folding';
    this.animated = this.current ?? this.puppet.index;
    this.foldStart = performance.now();
    const tick = () => { if (this.mode === 'folding') { this.scrubFrame(); this.raf = requestAnimationFrame(tick); } };
    this.raf = requestAnimationFrame(tick);
  }

  scrubFrame() {
    const S = this.width;
    const { progress } = SA.accordionProgress({ kind: 'folding', started: true, elapsed: (performance.now() - this.foldStart) / 1000, cell_length: this.widths[this.animated] || 0 });
    const layout = SA.accordionLayout({ progress, animated_index: this.animated, full_widths: this.widths, cell_height: STRIP_HEIGHT, superview_width: S });
    this.items = layout.items;
    this.inset = layout.symmetric_inset;
    const n = this.widths.length;
    // Keep the folded strip's centre within its items.
    const min = -this.inset;
    const max = layout.content_width - this.inset - (S - 2 * this.inset);
    this.offset = Math.min(Math.max(this.offset, min - S / 4), Math.max(min, max) + S / 4);
    const { index } = SA.accordionCurrentIndex({ content_offset_x: this.offset, inset_left: this.inset, count: n });
    if (index !== this.current) { this.current = index; this.onScrub(index); }
    this.render();
  }

  startUnfolding() {
    cancelAnimationFrame(this.raf);
    this.mode = 'unfolding';
    const originalInset = this.inset;
    const originalOffset = this.offset;
    const start = performance.now();
    const S = this.width;
    const { current_index: k } = SA.unfoldCenterOffset({ original_inset: originalInset, original_offset: originalOffset, count: this.widths.length });
    const tick = () => {
      if (this.mode !== 'unfolding') return;
      const { progress } = SA.accordionProgress({ kind: 'unfolding', started: true, elapsed: (performance.now() - start) / 1000, cell_length: this.widths[k] || 0 });
      const frame = SA.unfoldFrame({ progress, original_inset: originalInset, original_offset: originalOffset, full_widths: this.widths, cell_height: STRIP_HEIGHT, superview_width: S });
      this.items = SA.accordionLayout({ progress, animated_index: frame.animated_index, full_widths: this.widths, cell_height: STRIP_HEIGHT, superview_width: S }).items;
      this.offset = frame.content_offset_x;
      this.current = frame.animated_index;
      this.render();
      if (progress < 1) this.raf = requestAnimationFrame(tick);
      else { this.mode = 'slave'; this.puppet = { index: k, fraction: 0 }; this.onSettle(k); }
    };
    this.raf = requestAnimationFrame(tick);
  }

  stop() { cancelAnimationFrame(this.raf); this.mode = 'slave'; }
}

const SA_DEFAULT_WIDTH = STRIP_HEIGHT; // photos without a size: a square thumbnail
