// The date scrubber: a thumb on the right edge over the whole content range, with the date of the
// section under it. It is the scroll bar of the timeline (the native one is hidden, since the
// native range is only a window onto very tall libraries; see scroller.js).
//
// Every year is labelled on the track and gets at least MIN_YEAR px of it however few its photos
// (while the track has room): the track maps onto the content piecewise linearly, year by year,
// each year's share its share of the content, raised to MIN_YEAR for small years and taken from
// the large ones.

const MIN_YEAR = 16; // px of track per year, at least

export class Scrubber {
  constructor(element, { getRange, scrollTo, labelAt }) {
    this.element = element;
    this.thumb = element.querySelector('.scrubber-thumb');
    this.bubble = element.querySelector('.scrubber-label');
    this.getRange = getRange;
    this.scrollTo = scrollTo;
    this.labelAt = labelAt;
    this.hideTimer = 0;
    this.dragging = false;
    this.track = 1; // px the thumb can travel; it and the top are measured on resize, never while scrolling
    this.thumbHeight = 0;
    this.marks = []; // [{year, offset}] in content order: where each year starts
    this.stops = null; // piecewise map: offsets[k] ↔ ys[k]
    this.years = document.createElement('div');
    this.years.className = 'scrubber-years';
    this.years.setAttribute('aria-hidden', 'true');
    element.append(this.years);
    new ResizeObserver(() => this.measure()).observe(this.element);
    this.measure();
    this.install();
  }

  measure() {
    this.top = this.element.getBoundingClientRect().top;
    this.thumbHeight = this.thumb.offsetHeight;
    this.track = Math.max(1, this.element.clientHeight - this.thumbHeight);
    this.layoutYears();
  }

  /** The years of the content: `[{year, offset}]`, each the content offset where the year starts. */
  setYears(marks) {
    this.marks = marks;
    this.layoutYears();
  }

  /** Gives each year its stretch of the track (at least MIN_YEAR px when they all fit) and labels it. */
  layoutYears() {
    const { max } = this.getRange();
    const marks = this.marks.filter((m, k) => k === 0 || m.offset > this.marks[k - 1].offset);
    if (!(max > 0) || marks.length < 2) { this.stops = null; this.years.replaceChildren(); return; }
    const offsets = marks.map((m, k) => (k === 0 ? 0 : Math.min(max, m.offset)));
    offsets.push(max);
    const n = marks.length;
    const natural = marks.map((_, k) => ((offsets[k + 1] - offsets[k]) / max) * this.track);
    const floor = Math.min(MIN_YEAR, this.track / n);
    // Raise small years to the floor; scale the others down to what is left (repeat: a scaled one may fall under it).
    const raised = new Array(n).fill(false);
    let share = natural.slice();
    for (let round = 0; round < n; round++) {
      const fixed = raised.reduce((sum, r) => sum + (r ? floor : 0), 0);
      const free = natural.reduce((sum, v, k) => sum + (raised[k] ? 0 : v), 0);
      const scale = free > 0 ? (this.track - fixed) / free : 0;
      share = natural.map((v, k) => (raised[k] ? floor : v * scale));
      const under = share.findIndex((v, k) => !raised[k] && v < floor);
      if (under < 0) break;
      share.forEach((v, k) => { if (!raised[k] && v < floor) raised[k] = true; });
    }
    const ys = [0];
    for (const v of share) ys.push(ys[ys.length - 1] + v);
    ys[ys.length - 1] = this.track;
    this.stops = { offsets, ys };
    this.years.replaceChildren(...marks.map((m, k) => {
      const label = document.createElement('span');
      label.className = 'scrubber-year';
      label.dataset.year = String(m.year);
      label.textContent = String(m.year);
      label.style.transform = `translateY(${ys[k] + this.thumbHeight / 2}px)`;
      label.style.height = `${share[k]}px`;
      return label;
    }));
  }

  /** Thumb position (px down the track) of content offset `offset`. */
  yOf(offset, max) {
    const stops = this.stops;
    if (!stops) return max > 0 ? (offset / max) * this.track : 0;
    const { offsets, ys } = stops;
    let k = 0;
    while (k < offsets.length - 2 && offsets[k + 1] <= offset) k++;
    const span = offsets[k + 1] - offsets[k];
    return ys[k] + (span > 0 ? Math.min(1, Math.max(0, (offset - offsets[k]) / span)) : 0) * (ys[k + 1] - ys[k]);
  }

  /** Content offset of thumb position `y`. */
  offsetOf(y, max) {
    const stops = this.stops;
    if (!stops) return (y / this.track) * max;
    const { offsets, ys } = stops;
    let k = 0;
    while (k < ys.length - 2 && ys[k + 1] <= y) k++;
    const span = ys[k + 1] - ys[k];
    return offsets[k] + (span > 0 ? Math.min(1, Math.max(0, (y - ys[k]) / span)) : 0) * (offsets[k + 1] - offsets[k]);
  }

  /** Moves the thumb to show content offset `offset`. */
  update(offset) {
    const { max } = this.getRange();
    const y = this.yOf(offset, max);
    const fraction = y / this.track;
    this.thumb.style.transform = `translateY(${y}px)`;
    this.element.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    if (!this.active) { this.active = true; this.element.classList.add('active'); }
    clearTimeout(this.hideTimer);
    // While a finger or the mouse holds the thumb it stays; the fade is timed from the release.
    if (!this.dragging) this.hideTimer = setTimeout(() => { this.active = false; this.element.classList.remove('active'); }, 1200);
  }

  offsetAt(clientY) {
    const y = Math.min(this.track, Math.max(0, clientY - this.top - this.thumbHeight / 2));
    return this.offsetOf(y, this.getRange().max);
  }

  install() {
    let id = null;
    this.element.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      id = e.pointerId;
      this.dragging = true;
      this.element.setPointerCapture(id);
      clearTimeout(this.hideTimer); // a fade due from the scroll before the drag must not fire during it
      this.active = true;
      this.element.classList.add('active', 'dragging');
      this.move(e.clientY);
    });
    this.element.addEventListener('pointermove', (e) => { if (e.pointerId === id) this.move(e.clientY); });
    const up = (e) => {
      if (e.pointerId !== id) return;
      id = null;
      this.dragging = false;
      this.element.classList.remove('dragging');
      this.update(this.getRange().offset);
    };
    this.element.addEventListener('pointerup', up);
    this.element.addEventListener('pointercancel', up);
  }

  move(clientY) {
    const offset = this.offsetAt(clientY);
    this.scrollTo(offset);
    this.bubble.textContent = this.labelAt(offset);
  }
}
