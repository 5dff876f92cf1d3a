// The page's side of its one engine: a worker running worker.js (site.js's
// createWorker), one wasm module that reads each file once, holds the open
// timeline and writes every download (docs/engine-protocol.md). Requests
// resolve (never reject) with the worker's reply
//   { type: 'result', ... } | { type: 'error', message, wording, file, field, trap }
// (an export also { type: 'refused', message }), or with the client's own
//   { type: 'cancelled' }                   cancelled, or replaced by a newer request
//   { type: 'stalled', seconds }            the engine sent nothing (no progress, no reply) for the time limit
//   { type: 'error', crashed: true, ... }   the worker itself failed (could not load, died)
// The requests:
//   request(type, payload)   a job (inspect, check, overview, convert): one at a time,
//                            a newer one cancels the running one;
//   open / openComparison    a timeline (closing the open one);
//   exportDocument           the open timeline written as a document (in slices);
//   overview                 the open timeline's overview, in slices;
//   query(type, payload)     a question to the open timeline (bars, stack, regions, ...).
// A new selection resets it (reset(): a fresh engine when anything runs).
// Cancelling a job or an export keeps the engine and its timeline: the reply
// is dropped and the engine finishes the work, which is bounded (a download
// converted on its own fits the viewer's budget; a window for speedscope
// too). Cancelling an open, a stall, a crash or a trap replaces the engine by
// a fresh one (the open timeline goes with it: onRestart says why).

const OPENS = new Set(['timeline-open', 'timeline-compare-open', 'timeline-open-more']);
const EXPORTS = new Set(['timeline-export', 'timeline-export-more']);

// The version of docs/engine-protocol.md this page speaks; the engine's
// 'init' reply says its own (a service worker may serve an older page).
export const PROTOCOL = 2;

export class EngineClient {
  #create;
  #worker = null;
  #nextId = 1;
  #pending = new Map(); // id -> { type, job, resolve, onProgress, limitMs, watch }
  #ready = null;
  #initSettle = null;
  #holds = false; // the engine holds an open timeline
  #opens = 0; // bumps with every open and every cancel: a sliced open older than it stops
  #overviews = 0; // bumps with every overview and every cancel: a sliced overview older than it stops
  #exports = 0; // bumps with every download and every abandon: a sliced download older than it stops
  #exportSlices; // events a slice of a download (true: the engine's), or 0: at once
  #watch; // whether a request that reports nothing for its limit is given up
  onRestart = null; // called with the reason after the engine was replaced

  // create: makes a new Worker running worker.js. watch: false for an
  // engine that cannot report progress (a server's, over HTTP: a long open
  // there sends nothing until its answer, and the requests behind it wait
  // their turn); it is given up when its connection fails instead.
  // exportSlices: downloads in slices of that many events (true: the
  // engine's own size; 0: in one request, a server's).
  constructor(create, { watch = true, exportSlices = 0 } = {}) {
    this.#create = create;
    this.#watch = watch;
    this.#exportSlices = exportSlices;
  }

  // Starts the engine; resolves with its 'init' reply ({ version, features } or an error).
  start() {
    const worker = this.#create();
    this.#worker = worker;
    this.#holds = false;
    this.#ready = new Promise((resolve) => {
      this.#initSettle = resolve;
    });
    worker.onmessage = ({ data }) => {
      if (data.id === 0) {
        this.#initSettle?.(data);
        this.#initSettle = null;
      } else {
        this.#receive(data);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      const reply = {
        type: 'error',
        crashed: true,
        message: `The converter stopped${event.message ? `: ${event.message}` : ''}.`,
      };
      this.#initSettle?.(reply);
      this.#initSettle = null;
      this.#replace('crashed', reply);
    };
    worker.postMessage({ id: 0, type: 'init' });
    return this.#ready;
  }

  get ready() {
    return this.#ready;
  }

  // A job (inspect, check, overview, convert). limitMs: how long the engine
  // may stay silent (no progress, no reply) before it is replaced.
  request(type, payload = {}, { onProgress = null, limitMs = 30_000 } = {}) {
    if (this.busy) this.#cancelJobs(); // the engine is busy with one: start over
    return this.#send({ type, ...payload }, { job: true, onProgress, limitMs });
  }

  // Whether a job runs.
  get busy() {
    return [...this.#pending.values()].some((p) => p.job);
  }

  // Opens the timeline of one file, or of one job's files (an array: its
  // processes' files, as one run); no progress for limitMs replaces the engine.
  // A sliced open (options.slices: the same file again, a group of ranks a
  // request) goes on with timeline-open-more until it is answered; the
  // engine answers the page's other requests in between, and a cancel stops
  // it after the slice that runs (timeline-open-cancel), the engine kept.
  async open(file, options, { onProgress = null, limitMs = 60_000 } = {}) {
    const files = Array.isArray(file) ? { files: file } : { file };
    const mine = ++this.#opens;
    let reply = await this.#send({ type: 'timeline-open', ...files, options }, { onProgress, limitMs });
    let opening = null; // the sliced open's name, once the engine gave one
    while (reply.type === 'result' && reply.pending) {
      opening = reply.opening;
      if (mine !== this.#opens) break;
      reply = await this.#send({ type: 'timeline-open-more', opening }, { onProgress, limitMs });
    }
    if (reply.type === 'result' && !reply.pending) return reply;
    // Cancelled (its request dropped, or between two): given up once the slice that runs ends.
    if (opening !== null && reply.type !== 'error') this.#send({ type: 'timeline-open-cancel', opening }, {});
    return reply.type === 'result' ? { type: 'cancelled' } : reply;
  }

  // Opens two runs compared (timeline-compare-open); watched as opening is.
  // Either run may be one job's files (an array).
  openComparison(fileA, fileB, options, { onProgress = null, limitMs = 60_000 } = {}) {
    const a = Array.isArray(fileA) ? { filesA: fileA } : { fileA };
    const b = Array.isArray(fileB) ? { filesB: fileB } : { fileB };
    return this.#send({ type: 'timeline-compare-open', ...a, ...b, options }, { onProgress, limitMs });
  }

  // The open timeline (or a narrowing of it) as a speedscope document:
  // convert's reply, or 'refused'; watched as opening is. Of the page's own
  // engine in slices (timeline-export-more): its other requests are
  // answered in between, and abandoning it stops it after the slice that
  // runs (timeline-export-cancel).
  async exportDocument(timeline, options, { onProgress = null, limitMs = 60_000 } = {}) {
    const mine = ++this.#exports;
    const sliced = this.#exportSlices ? { ...options, slices: this.#exportSlices } : options;
    const watch = { onProgress, limitMs };
    let reply = await this.#send({ type: 'timeline-export', timeline, options: sliced }, watch);
    let exporting = null;
    while (reply.type === 'result' && reply.pending) {
      exporting = reply.exporting;
      onProgress?.({ phase: 'write', done: Math.floor(reply.done / 2), total: Math.floor(reply.total / 2) });
      if (mine !== this.#exports) break;
      reply = await this.#send({ type: 'timeline-export-more', exporting }, watch);
    }
    if (reply.type !== 'cancelled' && !reply.pending) return reply;
    if (exporting !== null) this.#send({ type: 'timeline-export-cancel', exporting }, {});
    return { type: 'cancelled' };
  }

  // The open timeline's overview (timeline-overview), in slices: the engine
  // answers the page's other requests between them (bands, bars), and a
  // newer overview, a cancel or a new selection stops it after the slice
  // that runs ({ type: 'cancelled' }; the engine drops it with its next one).
  async overview(timeline, options) {
    const mine = ++this.#overviews;
    let reply = await this.#send({ type: 'timeline-overview', timeline, options: { slices: true, ...options } }, {});
    while (reply.type === 'result' && reply.pending) {
      if (mine !== this.#overviews) return { type: 'cancelled' };
      reply = await this.#send({ type: 'timeline-overview-more', overviewing: reply.overviewing }, {});
    }
    return reply;
  }

  // A question to the open timeline (bars, stack, regions, fit, close, ...).
  query(type, payload) {
    return this.#send({ type: `timeline-${type}`, ...payload }, {});
  }

  // Stops waiting for a running export: it resolves 'cancelled' at once.
  abandonExport() {
    ++this.#exports;
    for (const [id, job] of this.#pending) if (EXPORTS.has(job.type)) this.#drop(id, job);
  }

  // Cancels the running job: dropped while the engine holds a timeline
  // (which it keeps), else the engine is replaced; a sliced overview stops
  // after the slice that runs.
  cancel() {
    ++this.#overviews;
    this.#cancelJobs();
  }

  #cancelJobs() {
    const jobs = [...this.#pending].filter(([, p]) => p.job);
    if (!jobs.length) return;
    if (this.#holds) for (const [id, job] of jobs) this.#drop(id, job);
    else this.#replace('cancelled', { type: 'cancelled' });
  }

  // Cancels everything that runs: an open replaces the engine (its timeline
  // is not there yet), other work is dropped as cancel() drops it.
  cancelAll() {
    ++this.#opens;
    ++this.#overviews;
    // A sliced open's request is dropped (the open stops after it); another open replaces the engine.
    for (const [id, p] of this.#pending) if (p.sliced) this.#drop(id, p);
    const opening = [...this.#pending.values()].some((p) => OPENS.has(p.type));
    if (opening) {
      this.#replace('cancelled', { type: 'cancelled' });
      return;
    }
    this.abandonExport();
    this.cancel();
  }

  // Stops everything for a new selection (whose open drops the old timeline
  // anyway): a fresh engine when anything runs, so no old conversion keeps
  // the new file waiting.
  reset() {
    ++this.#opens;
    ++this.#overviews;
    ++this.#exports;
    if (this.#pending.size) this.#replace('cancelled', { type: 'cancelled' });
  }

  #send(message, { job = false, onProgress = null, limitMs = 0 }) {
    const id = this.#nextId++;
    if (OPENS.has(message.type)) this.#holds = false; // opening closes the open timeline
    // A sliced open's requests: each ends after one slice, so a cancel need not replace the engine.
    const sliced = message.type === 'timeline-open-more' || (OPENS.has(message.type) && !!message.options?.slices);
    return new Promise((resolve) => {
      const entry = { type: message.type, job, resolve, onProgress, limitMs, watch: null, sliced };
      this.#pending.set(id, entry);
      this.#arm(id, entry);
      this.#worker.postMessage({ id, ...message });
    });
  }

  #arm(id, entry) {
    if (!entry.limitMs || !this.#watch) return;
    clearTimeout(entry.watch);
    entry.watch = setTimeout(() => {
      if (this.#pending.get(id) !== entry) return;
      this.#replace('stalled', { type: 'stalled', seconds: Math.round(entry.limitMs / 1000) }, id);
    }, entry.limitMs);
  }

  #receive(data) {
    const entry = this.#pending.get(data.id);
    if (!entry) return; // a reply to a dropped request
    if (data.type === 'progress') {
      this.#arm(data.id, entry);
      try {
        entry.onProgress?.(data);
      } catch (err) {
        console.error(err);
      }
      return;
    }
    this.#pending.delete(data.id);
    clearTimeout(entry.watch);
    if (OPENS.has(entry.type)) this.#holds = data.type === 'result';
    if (entry.type === 'timeline-close') this.#holds = false;
    entry.resolve(data);
    if (data.type === 'error' && data.trap) this.#replace('trap', null);
  }

  // A dropped request's work stops where the engine can stop it (a
  // server's: remote-engine.js cancel); a worker finishes it.
  #drop(id, entry) {
    this.#pending.delete(id);
    clearTimeout(entry.watch);
    this.#worker?.cancel?.(id);
    entry.resolve({ id, type: 'cancelled' });
  }

  // Terminates the engine and starts a fresh one; every pending request
  // resolves with `reply` (only the one named by `onlyId`, the others
  // 'cancelled'; none when reply is null).
  #replace(reason, reply, onlyId = null) {
    const pending = [...this.#pending];
    this.#pending.clear();
    this.#worker?.terminate();
    for (const [id, entry] of pending) {
      clearTimeout(entry.watch);
      const mine = reply && (onlyId == null || id === onlyId);
      entry.resolve(mine ? { id, ...reply } : { id, type: 'cancelled' });
    }
    this.start();
    this.onRestart?.(reason);
  }
}
