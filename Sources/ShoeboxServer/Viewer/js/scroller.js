// A native scroll container mapped onto content of any height.
//
// Browsers cap an element's height (about 16.7 M px in Chromium), and a 1,000,000-photo library is
// taller at the fine level. The scroll container holds a spacer of at most `WINDOW` px that shows
// the content range `[base, base + spacer)`: content offset = `base + scrollTop`, 1:1, so wheel,
// touch and keyboard scrolling feel native. When the scroll position nears an end of the window
// while content lies beyond it, the window is moved (`base` changes, `scrollTop` jumps by the same
// amount, the picture does not move). `base` also absorbs the fraction of a target offset, since
// the browser rounds `scrollTop`: content positions stay exact to a fraction of a pixel.
// The whole library is reachable with the wheel and the scrubber (scrubber.js), which maps the
// full content range linearly.
//
// The scroll position is read only in the scroll event (layout is clean then) and remembered, so
// a render that follows DOM writes never forces a synchronous layout by asking for it.

export const WINDOW = 2_000_000;
const EDGE = WINDOW / 5;

export class BoundedScroller {
  constructor(element, spacer, onScroll) {
    this.element = element;
    this.spacer = spacer;
    this.onScroll = onScroll;
    this.base = 0;
    this.contentHeight = 0;
    this.viewportHeight = element.clientHeight;
    this.top = element.scrollTop; // the last scrollTop set or seen
    this.ignoreNext = false;
    element.addEventListener('scroll', () => this.handleScroll(), { passive: true });
  }

  get maxOffset() { return Math.max(0, this.contentHeight - this.viewportHeight); }

  /** The content offset at the top of the viewport (content coordinates). */
  get offset() {
    return Math.min(Math.max(0, this.base + this.top), this.maxOffset);
  }

  setContent(contentHeight, viewportHeight) {
    this.contentHeight = contentHeight;
    this.viewportHeight = viewportHeight;
  }

  /** Scrolls so that content offset `offset` (clamped) is at the top; positions are exact. */
  scrollTo(offset) {
    const target = Math.min(Math.max(0, offset), this.maxOffset);
    let base = 0;
    if (this.contentHeight > WINDOW) {
      base = Math.min(Math.max(0, target - WINDOW / 2), this.contentHeight - WINDOW);
    }
    // Put the fraction of the target into the base, so the integer scrollTop lands exactly.
    const scrollTop = Math.round(target - base);
    base = target - scrollTop;
    this.setWindow(base, scrollTop);
  }

  setWindow(base, scrollTop) {
    this.base = base;
    const height = Math.max(this.viewportHeight, Math.min(WINDOW, this.contentHeight - base));
    this.spacer.style.height = `${height}px`;
    this.ignoreNext = this.top !== scrollTop;
    this.top = scrollTop;
    this.element.scrollTop = scrollTop;
    this.onScroll(true);
  }

  handleScroll() {
    const top = this.element.scrollTop;
    if (this.ignoreNext) { this.ignoreNext = false; if (top === this.top) return; }
    this.top = top;
    if (this.contentHeight > WINDOW) {
      const nearTop = top < EDGE && this.base > 0;
      const nearBottom = top > WINDOW - EDGE - this.viewportHeight && this.base + WINDOW < this.contentHeight;
      if (nearTop || nearBottom) {
        const offset = this.base + top;
        const base = Math.min(Math.max(0, Math.round(offset - WINDOW / 2)), this.contentHeight - WINDOW) + (this.base % 1);
        this.setWindow(base, Math.round(offset - base));
        return;
      }
    }
    this.onScroll(false);
  }
}
