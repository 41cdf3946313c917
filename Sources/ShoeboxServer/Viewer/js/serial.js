// One view change at a time: a zoom, a restore or a refresh runs alone and the next waits for it
// (a zoom asked while another change runs is dropped). While any runs, the element says `data-busy`.

export class Serial {
  constructor(element) {
    this.element = element;
    this.tail = Promise.resolve();
    this.pending = 0;
  }

  get active() { return this.pending > 0; }

  /** Runs `task` after every change queued before it; resolves (or rejects) with its result. */
  run(task) {
    this.pending += 1;
    this.element.dataset.busy = 'true';
    const result = this.tail.then(() => task()).finally(() => {
      this.pending -= 1;
      if (this.pending === 0) delete this.element.dataset.busy;
    });
    this.tail = result.catch(() => {});
    return result;
  }

  /** Runs `task` now, or resolves with null without running it when a change is under way. */
  runIfIdle(task) {
    return this.active ? Promise.resolve(null) : this.run(task);
  }
}
