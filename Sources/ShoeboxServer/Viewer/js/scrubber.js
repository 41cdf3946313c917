// The date scrubber: a thumb on the right edge mapping the whole content range linearly, with the
// date of the section under it. It is the scroll bar of the timeline (the native one is hidden,
// since the native range is only a window onto very tall libraries; see scroller.js).

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
    new ResizeObserver(() => this.measure()).observe(this.element);
    this.measure();
    this.install();
  }

  measure() {
    this.top = this.element.getBoundingClientRect().top;
    this.thumbHeight = this.thumb.offsetHeight;
    this.track = Math.max(1, this.element.clientHeight - this.thumbHeight);
  }

  /** Moves the thumb to show content offset `offset`. */
  update(offset) {
    const { max } = this.getRange();
    const fraction = max > 0 ? offset / max : 0;
    this.thumb.style.transform = `translateY(${fraction * this.track}px)`;
    this.element.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    if (!this.active) { this.active = true; this.element.classList.add('active'); }
    clearTimeout(this.hideTimer);
    // While a finger or the mouse holds the thumb it stays; the fade is timed from the release.
    if (!this.dragging) this.hideTimer = setTimeout(() => { this.active = false; this.element.classList.remove('active'); }, 1200);
  }

  offsetAt(clientY) {
    const fraction = Math.min(1, Math.max(0, (clientY - this.top - this.thumbHeight / 2) / this.track));
    return fraction * this.getRange().max;
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
