// The page's side of the timeline worker: a worker of its own (the same
// worker.js as the converter's, site.js's createWorker), so that drawing and
// zooming keep getting bars while the converter writes the download or a
// window for speedscope. Requests run one after the other in the worker and
// resolve (never reject) with its reply: { type: 'result', ... } or
// { type: 'error', message, wording, file, trap } (an export also
// { type: 'refused', message }); or with the client's own
//   { type: 'cancelled' }            cancel(), a newer open, or abandonExport()
//   { type: 'stalled', seconds }     opening or exporting sent nothing for the time limit
// Opening and exporting are watched like a conversion (no progress for
// limitMs: the worker is stopped and replaced); a stalled, crashed or trapped
// worker is replaced by a fresh one, and its timeline is gone.

export class TimelineClient {
  #create;
  #worker = null;
  #nextId = 1;
  #pending = new Map(); // id -> { type, resolve, onProgress, limitMs, watch }
  #ready = null;
  onLost = null; // called when the worker (and its timeline) went away

  constructor(create) {
    this.#create = create;
  }

  start() {
    const worker = this.#create();
    this.#worker = worker;
    this.#ready = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if (data.id === 0) resolve(data);
        else this.#receive(data);
      };
    });
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#replace({
        type: 'error',
        crashed: true,
        message: `The timeline stopped${event.message ? `: ${event.message}` : ''}.`,
      });
    };
    worker.postMessage({ id: 0, type: 'init' });
    return this.#ready;
  }

  get ready() {
    return this.#ready;
  }

  // Opens the timeline of one file; watched: no progress for limitMs stops it.
  open(file, options, { onProgress = null, limitMs = 60_000 } = {}) {
    return this.#send({ type: 'timeline-open', file, options }, { onProgress, limitMs });
  }

  // Opens two runs compared (timeline-compare-open): B's timeline lined up
  // with A's; watched as opening is.
  openComparison(fileA, fileB, options, { onProgress = null, limitMs = 60_000 } = {}) {
    return this.#send({ type: 'timeline-compare-open', fileA, fileB, options }, { onProgress, limitMs });
  }

  // A window of the open timeline as a speedscope document (timeline-export:
  // convert's reply, or 'refused' when the timeline cannot write it); watched
  // as opening is.
  exportDocument(timeline, options, { onProgress = null, limitMs = 60_000 } = {}) {
    return this.#send({ type: 'timeline-export', timeline, options }, { onProgress, limitMs });
  }

  // Stops waiting for a running export: it resolves 'cancelled' at once. The
  // worker finishes it (stopping the worker would lose the timeline: the
  // export is at most the viewer's budget of calls) and its reply is dropped.
  abandonExport() {
    for (const [id, job] of this.#pending) {
      if (job.type !== 'timeline-export') continue;
      this.#pending.delete(id);
      clearTimeout(job.watch);
      job.resolve({ id, type: 'cancelled' });
    }
  }

  // A query of the open timeline (bars, stack, regions, fit, close).
  query(type, payload) {
    return this.#send({ type: `timeline-${type}`, ...payload }, {});
  }

  // Stops whatever runs (a long open): the worker is replaced.
  cancel() {
    if (this.#pending.size) this.#replace({ type: 'cancelled' });
  }

  #send(message, { onProgress = null, limitMs = 0 }) {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      const job = { type: message.type, resolve, onProgress, limitMs, watch: null };
      this.#pending.set(id, job);
      this.#arm(id, job);
      this.#worker.postMessage({ id, ...message });
    });
  }

  #arm(id, job) {
    if (!job.limitMs) return;
    clearTimeout(job.watch);
    job.watch = setTimeout(() => {
      if (this.#pending.get(id) !== job) return;
      this.#replace({ type: 'stalled', seconds: Math.round(job.limitMs / 1000) }, id);
    }, job.limitMs);
  }

  #receive(data) {
    const job = this.#pending.get(data.id);
    if (!job) return;
    if (data.type === 'progress') {
      this.#arm(data.id, job);
      try {
        job.onProgress?.(data);
      } catch (err) {
        console.error(err);
      }
      return;
    }
    this.#pending.delete(data.id);
    clearTimeout(job.watch);
    job.resolve(data);
    if (data.type === 'error' && data.trap) this.#replace({ type: 'error', message: data.message, lost: true });
  }

  // Terminates the worker and starts a new one; every pending request
  // resolves with `reply` (the one named by `onlyId` gets it, the others
  // 'cancelled').
  #replace(reply, onlyId = null) {
    const pending = [...this.#pending];
    this.#pending.clear();
    this.#worker?.terminate();
    for (const [id, job] of pending) {
      clearTimeout(job.watch);
      job.resolve(onlyId == null || id === onlyId ? { id, ...reply } : { id, type: 'cancelled' });
    }
    this.start();
    this.onLost?.(reply);
  }
}
