// The small status pill at the bottom: index progress while a run is going ("Indexing 40 of 120…"),
// "Offline" while the server cannot be reached. It never takes a click and hides when done.

const number = new Intl.NumberFormat('en-GB');
const HIDE_AFTER = 1200; // ms a finished run's last line stays

export class StatusPill {
  constructor(element) {
    this.element = element;
    this.offline = false;
    this.progress = null;
    this.hideTimer = 0;
  }

  /** An `index-progress` event's data. */
  indexProgress(p) {
    clearTimeout(this.hideTimer);
    this.progress = p;
    if (p.phase === 'completed' || p.phase === 'stopped') {
      this.hideTimer = setTimeout(() => { this.progress = null; this.show(); }, HIDE_AFTER);
    }
    this.show();
  }

  connection(connected) {
    this.offline = !connected;
    if (!connected) this.progress = null;
    this.show();
  }

  show() {
    const el = this.element;
    let text = '';
    let state = '';
    if (this.offline) {
      text = 'Offline: reconnecting…';
      state = 'offline';
    } else if (this.progress) {
      text = describe(this.progress);
      state = this.progress.phase || 'started';
    }
    if (el.textContent !== text) el.textContent = text;
    el.dataset.state = state;
    el.hidden = !text;
  }
}

function describe(p) {
  const n = (x) => number.format(x || 0);
  switch (p.phase) {
    case 'walking': return p.found ? `Looking for changes… ${n(p.found)} files` : 'Looking for changes…';
    case 'reading': return p.toRead ? `Indexing ${n(p.read)} of ${n(p.toRead)}…` : 'Indexing…';
    case 'removing': return 'Indexing: removing deleted photos…';
    case 'completed': {
      const parts = [];
      if (p.added) parts.push(`${n(p.added)} added`);
      if (p.updated) parts.push(`${n(p.updated)} updated`);
      if (p.removed) parts.push(`${n(p.removed)} removed`);
      return parts.length ? `Indexed: ${parts.join(', ')}` : 'Up to date';
    }
    case 'stopped': return 'Indexing stopped';
    default: return 'Indexing…';
  }
}
