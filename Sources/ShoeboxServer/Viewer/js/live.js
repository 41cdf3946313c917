// The live library: `/api/events` (server-sent events) tells the viewer when an index run changed
// the library (`library-changed`) and how a run is going (`index-progress`).
//
// EventSource would reconnect by itself every `retry` ms, and the browser logs each failed attempt:
// on an error this closes the source and tries again after 2, 4, 8 … 60 s instead (back to 2 s once
// connected), so a stopped server costs a handful of console lines, not one every two seconds. After a reconnect
// the library may have changed while nobody was listening: `onReconnect` lets the viewer check.

const FIRST_DELAY = 2000;
const MAX_DELAY = 60000;

export class LiveLibrary {
  constructor(url, { onChanged, onProgress, onConnection }) {
    this.url = url;
    this.onChanged = onChanged;
    this.onProgress = onProgress;
    this.onConnection = onConnection;
    this.source = null;
    this.delay = FIRST_DELAY;
    this.timer = 0;
    this.everOpen = false;
    this.lost = false;
  }

  start() {
    if (typeof EventSource === 'undefined') return;
    clearTimeout(this.timer);
    const source = new EventSource(this.url);
    this.source = source;
    source.addEventListener('open', () => {
      this.delay = FIRST_DELAY;
      const reconnected = this.lost;
      this.lost = false;
      this.everOpen = true;
      this.onConnection({ connected: true, reconnected });
    });
    source.addEventListener('library-changed', (e) => this.onChanged(parse(e.data)));
    source.addEventListener('index-progress', (e) => this.onProgress(parse(e.data)));
    source.addEventListener('error', () => {
      if (source !== this.source) return;
      source.close();
      this.source = null;
      this.timer = setTimeout(() => this.start(), this.delay);
      this.delay = Math.min(MAX_DELAY, this.delay * 2);
      if (!this.lost) {
        this.lost = true;
        this.onConnection({ connected: false });
      }
    });
  }

  stop() {
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    this.source = null;
  }
}

function parse(text) {
  try { return JSON.parse(text); } catch { return {}; }
}
