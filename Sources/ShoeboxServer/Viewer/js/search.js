// The search field in the header and the bar that says what a result shows.
//
// Typing runs the search once the person pauses (DEBOUNCE ms); Enter runs it at once (and hands
// the keys back to the timeline); Escape (or the bar's ×) leaves it. The field only reports:
// `onQuery(text, {submitted})` and `onClear()` do the work.

const DEBOUNCE = 300; // ms after the last key press
const number = new Intl.NumberFormat('en-GB');

/** "1 photo", "142 photos". */
export function photoCount(n) {
  return `${number.format(n)} ${n === 1 ? 'photo' : 'photos'}`;
}

export class SearchField {
  constructor(input, bar, { onQuery, onClear }) {
    this.input = input;
    this.bar = bar;
    this.text = bar.querySelector('.result-text');
    this.timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => onQuery(this.value), DEBOUNCE);
    });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        clearTimeout(this.timer);
        onQuery(this.value, { submitted: true });
      } else if (e.key === 'Escape') {
        e.preventDefault();
        clearTimeout(this.timer);
        onClear();
      }
    });
    input.form?.addEventListener('submit', (e) => e.preventDefault());
    bar.querySelector('.result-clear').addEventListener('click', () => { clearTimeout(this.timer); onClear(); });
  }

  get value() { return this.input.value.trim(); }

  /** Focuses the field with its text selected, so typing replaces it. */
  focus() {
    this.input.focus();
    this.input.select();
  }

  /** Shows `q` in the field, unless the person is typing in it. */
  setValue(q) {
    clearTimeout(this.timer);
    if (document.activeElement !== this.input || !q) this.input.value = q;
  }

  /**
   * The bar over the result: "142 photos for “lisbon 2019”" (or "in Sintra" for a place), a
   * plain sentence for an empty result, "Searching for …" while `total` is null; hidden for the
   * whole library. Returns whether the bar's visibility changed (the timeline's height did).
   */
  showResult(q, total, label = null) {
    const wasHidden = this.bar.hidden;
    if (!q) {
      this.bar.hidden = true;
      delete this.bar.dataset.total;
      return !wasHidden;
    }
    const what = label ? `in ${label}` : `for “${q}”`;
    if (total === null) {
      this.text.textContent = `Searching ${what}…`;
      delete this.bar.dataset.total;
    } else {
      this.text.textContent = total === 0 ? `No photos ${what}.` : `${photoCount(total)} ${what}`;
      this.bar.dataset.total = String(total);
    }
    this.bar.dataset.query = q;
    this.bar.hidden = false;
    return wasHidden;
  }
}
