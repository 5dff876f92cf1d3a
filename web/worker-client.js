// The client side of the conversion worker (worker.js). One request runs at a
// time; each resolves (never rejects) with the worker's reply
//   { type: 'result', ... } | { type: 'error', message, wording, file, field, trap }
// or with one of the client's own outcomes
//   { type: 'cancelled' }                   cancel() was called
//   { type: 'stalled', seconds }            the worker sent nothing (no progress, no reply) for the time limit
//   { type: 'error', crashed: true, ... }   the worker itself failed (could not load, died)
// A stalled or crashed worker, and one whose WebAssembly trapped, is replaced by
// a fresh one, so the next request starts clean.

export class ConverterClient {
  #create;
  #worker = null;
  #nextId = 1;
  #job = null; // { id, resolve, onProgress, limitMs, timer }
  #ready = null; // resolves with the 'init' reply of the current worker
  #initSettle = null;
  onRestart = null; // called with the reason after a worker was replaced

  // create: makes a new Worker running worker.js (site.js's createWorker).
  constructor(create) {
    this.#create = create;
  }

  // Starts the worker and resolves with its 'init' reply ({ version, features } or an error).
  start() {
    const worker = this.#create();
    this.#worker = worker;
    let settle;
    this.#ready = new Promise((resolve) => {
      settle = resolve;
    });
    this.#initSettle = settle;
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
      this.#finish(reply);
    };
    worker.postMessage({ id: 0, type: 'init' });
    return this.#ready;
  }

  // Resolves with the current worker's 'init' reply.
  get ready() {
    return this.#ready;
  }

  // Sends one request. limitMs: how long the worker may stay silent (no
  // progress message, no reply) before it is stopped and restarted.
  request(type, payload = {}, { onProgress = null, limitMs = 30_000 } = {}) {
    if (this.#job) this.cancel(); // the worker is busy with it: start over
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#job = { id, resolve, onProgress, limitMs, timer: null };
      this.#arm();
      this.#worker.postMessage({ id, type, ...payload });
    });
  }

  get busy() {
    return this.#job !== null;
  }

  // Stops whatever runs: the worker is terminated and a new one started.
  cancel() {
    if (!this.#job) return;
    this.#finish({ type: 'cancelled' });
    this.#replace('cancelled');
  }

  #arm() {
    const job = this.#job;
    clearTimeout(job.timer);
    job.timer = setTimeout(() => {
      if (this.#job !== job) return;
      this.#finish({ type: 'stalled', seconds: Math.round(job.limitMs / 1000) });
      this.#replace('stalled');
    }, job.limitMs);
  }

  #receive(data) {
    const job = this.#job;
    if (!job || data.id !== job.id) return; // a reply to a cancelled request
    if (data.type === 'progress') {
      this.#arm();
      try {
        job.onProgress?.(data);
      } catch (err) {
        console.error(err);
      }
      return;
    }
    this.#finish(data);
    if (data.type === 'error' && data.trap) this.#replace('trap');
  }

  #finish(reply) {
    const job = this.#job;
    if (!job) return;
    this.#job = null;
    clearTimeout(job.timer);
    job.resolve({ id: job.id, ...reply });
  }

  #replace(reason) {
    this.#worker?.terminate();
    this.start();
    this.onRestart?.(reason);
  }
}
