// One event stream per browser: the viewer's tabs share one `/api/events` connection instead of
// holding one each (Chromium allows six HTTP/1.1 connections per host, so the seventh tab of a
// viewer that kept its own stream would never load).
//
// The tabs elect a leader with the Web Locks API: the visible tab that holds the lock
// `shoebox-events` opens the stream (a LiveLibrary) and relays each of its events on the
// BroadcastChannel `shoebox-events`; the other tabs hear them there. A tab gives the lock up when it
// is hidden, so a hidden tab never holds the stream, and asks for it again when it is shown; the
// browser releases it when the leader's tab closes or crashes, and a waiting visible tab takes over.
//
// Every tab hears every stream's `open`: the first tells it it is connected, a later one that events
// may have been missed in between (a lost connection, a new leader, all tabs hidden for a while), so
// it reports `reconnected` and the viewer checks the library. A tab that joins while a stream is open
// asks the leader (`hello`) whether it is connected.
//
// Without Web Locks (an insecure origin: a LAN address over plain http) or BroadcastChannel, each
// tab holds its own stream while it is visible.

import { LiveLibrary } from './live.js';

const NAME = 'shoebox-events';

export class SharedLiveLibrary {
  /** The same interface as LiveLibrary. */
  constructor(url, { onChanged, onProgress, onConnection }) {
    this.url = url;
    this.handlers = { onChanged, onProgress, onConnection };
    this.shared = typeof navigator !== 'undefined' && !!navigator.locks && typeof BroadcastChannel !== 'undefined';
    this.channel = null;
    this.stream = null; // this tab's LiveLibrary while it leads
    this.connected = false; // the stream this tab leads is open
    this.heard = false; // this tab has seen a stream open
    this.received = { streamed: 0, relayed: 0 }; // events from this tab's stream, from another tab's
    this.request = null; // AbortController of a lock request not granted yet
    this.release = null; // gives the lock back
    this.onVisibility = () => (document.hidden ? this.resign() : this.campaign());
  }

  /** True while this tab holds the browser's stream. */
  get leading() { return this.stream !== null; }

  start() {
    if (typeof EventSource === 'undefined') return;
    document.addEventListener('visibilitychange', this.onVisibility);
    if (this.shared) {
      this.channel = new BroadcastChannel(NAME);
      this.channel.onmessage = (e) => this.receive(e.data, false);
      this.channel.postMessage({ kind: 'hello' });
    }
    if (!document.hidden) this.campaign();
  }

  stop() {
    document.removeEventListener('visibilitychange', this.onVisibility);
    this.resign();
    if (this.channel) this.channel.close();
    this.channel = null;
  }

  /** Waits for the lock (or, unshared, just opens a stream) and leads while this tab is visible. */
  campaign() {
    if (this.stream || this.request || this.release) return;
    if (!this.shared) { this.lead(); return; }
    const request = new AbortController();
    this.request = request;
    navigator.locks.request(NAME, { signal: request.signal }, () => {
      if (request.signal.aborted) return undefined; // granted as the tab was being hidden
      this.request = null;
      return new Promise((resolve) => {
        this.release = resolve;
        this.lead();
      });
    }).catch((error) => {
      if (error.name === 'AbortError' || this.request !== request) return;
      this.request = null; // locks refused (an opaque origin): a stream of its own
      this.shared = false;
      this.lead();
    });
  }

  /** Closes the stream and gives up the lock, or stops waiting for it. */
  resign() {
    if (this.request) this.request.abort();
    this.request = null;
    if (this.stream) this.stream.stop();
    this.stream = null;
    this.connected = false;
    if (this.release) this.release();
    this.release = null;
  }

  lead() {
    const send = (message) => {
      if (this.channel) this.channel.postMessage(message);
      this.receive(message, true);
    };
    this.stream = new LiveLibrary(this.url, {
      onChanged: (data) => send({ kind: 'event', name: 'library-changed', data }),
      onProgress: (data) => send({ kind: 'event', name: 'index-progress', data }),
      onConnection: ({ connected }) => {
        this.connected = connected;
        send({ kind: connected ? 'open' : 'lost' });
      },
    });
    this.stream.start();
  }

  receive(message, own) {
    const { onChanged, onProgress, onConnection } = this.handlers;
    switch (message && message.kind) {
      case 'event':
        this.received[own ? 'streamed' : 'relayed'] += 1;
        if (message.name === 'library-changed') onChanged(message.data);
        else if (message.name === 'index-progress') onProgress(message.data);
        break;
      case 'open':
        onConnection({ connected: true, reconnected: this.heard });
        this.heard = true;
        break;
      case 'lost':
        this.heard = true;
        onConnection({ connected: false });
        break;
      case 'hello':
        if (this.connected) this.channel.postMessage({ kind: 'connected' });
        break;
      case 'connected': // the leader's answer to this tab's hello
        if (!this.heard) {
          this.heard = true;
          onConnection({ connected: true, reconnected: false });
        }
        break;
    }
  }
}
