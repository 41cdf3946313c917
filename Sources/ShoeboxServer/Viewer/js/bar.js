// The header on a phone: the title and count, a search icon that opens the field over the bar, a
// menu button for the pages (Places, Map, Duplicates) and the level buttons. On a wider screen the
// icons are hidden by the style sheet and the field and the pages' buttons sit in the bar, so
// nothing here changes what a desktop shows.
//
// The bar only shows and hides: `#bar.search-open` (the field over the title) and
// `#bar.pages-open` (the pages' menu under its button), each with its button's `aria-expanded`.

export class CompactBar {
  constructor(bar) {
    this.bar = bar;
    this.searchToggle = bar.querySelector('#search-toggle');
    this.search = bar.querySelector('#search');
    this.input = bar.querySelector('#search-input');
    this.pagesToggle = bar.querySelector('#pages-toggle');
    this.pages = bar.querySelector('#pages');

    this.searchToggle.addEventListener('click', () => { this.openSearch(); this.input.focus(); });
    // The field closes when the focus leaves it (Enter hands the keys to the result, Escape and
    // Cancel leave the search); what was found stays named in the result bar.
    this.search.addEventListener('focusout', () => {
      setTimeout(() => { if (!this.search.contains(document.activeElement)) this.closeSearch(); }, 0);
    });

    this.pagesToggle.addEventListener('click', () => (this.pagesOpen ? this.closePages() : this.openPages()));
    // A page's button does its work (main.js), then the menu closes.
    this.pages.addEventListener('click', (e) => { if (e.target.closest('button')) this.closePages(); });
    this.pages.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.closePages();
        this.pagesToggle.focus();
      } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const buttons = [...this.pages.querySelectorAll('button')];
        const at = buttons.indexOf(document.activeElement);
        buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length].focus();
      }
    });
    // A touch or a focus anywhere else closes the menu.
    document.addEventListener('pointerdown', (e) => {
      if (this.pagesOpen && !this.pages.contains(e.target) && !this.pagesToggle.contains(e.target)) this.closePages();
    });
    this.bar.addEventListener('focusout', () => {
      setTimeout(() => {
        const at = document.activeElement;
        if (this.pagesOpen && !this.pages.contains(at) && at !== this.pagesToggle) this.closePages();
      }, 0);
    });
  }

  get pagesOpen() { return this.bar.classList.contains('pages-open'); }

  /** Shows the field (on a phone it takes the title's place); the caller focuses it. */
  openSearch() {
    this.closePages();
    this.bar.classList.add('search-open');
    this.searchToggle.setAttribute('aria-expanded', 'true');
  }

  closeSearch() {
    this.bar.classList.remove('search-open');
    this.searchToggle.setAttribute('aria-expanded', 'false');
  }

  /** Opens the pages' menu with the focus on its first button. */
  openPages() {
    this.bar.classList.add('pages-open');
    this.pagesToggle.setAttribute('aria-expanded', 'true');
    const first = this.pages.querySelector('button');
    if (first && getComputedStyle(this.pagesToggle).display !== 'none') first.focus();
  }

  closePages() {
    this.bar.classList.remove('pages-open');
    this.pagesToggle.setAttribute('aria-expanded', 'false');
  }
}
