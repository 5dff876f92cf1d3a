// The viewer hand-off. speedscope runs in a sandboxed frame
// (sandbox="allow-scripts", no allow-same-origin): an opaque origin that the
// browser puts in a process of its own, so importing a big profile neither
// freezes the page (downloads keep working) nor takes it down when it runs out
// of memory. The frame's bridge (speedscope/bridge.js) takes the output as a
// Blob through postMessage (the bytes are not copied through this page's
// memory) and reports back: ready, importing, painted, failed; a heartbeat on a
// MessagePort tells a frame whose process died from one that is busy.
//
// Each output gets a fresh frame: speedscope's memory goes with it.
//
//   const viewer = new Viewer({ box, load: site.loadViewer, onStatus });
//   viewer.show({ fileName, blob });     // status: starting -> importing -> painted | failed
//   viewer.clear(node);                  // a placeholder instead of a frame
//   viewer.prepare(node);                // a placeholder, and a hidden frame that starts
//                                        // speedscope while the output is made: the next
//                                        // show() hands the output to it
//
// `load(frame)` points a new frame at speedscope's page with the bridge (by
// src, or srcdoc in a single-file build); the hand-off is the same for both.

const SOURCE = 'scope-speedscope-viewer';
const READY_LIMIT_MS = 30_000;
const HEARTBEAT_LIMIT_MS = 5_000;

export class Viewer {
  #box;
  #load;
  #onStatus;
  #frame = null;
  #job = null; // { output, port, lastBeat, watch, readyTimer, done }

  constructor({ box, load, onStatus }) {
    this.#box = box;
    this.#load = load;
    this.#onStatus = onStatus;
    window.addEventListener('message', (event) => this.#receive(event));
  }

  get frame() {
    return this.#frame;
  }

  show(output) {
    const prepared = this.#job && !this.#job.output ? this.#job : null;
    if (!prepared) this.#stop();
    const frame = prepared ? this.#frame : this.#newFrame();
    frame.setAttribute('title', `speedscope flame chart of ${output.fileName}`);
    frame.dataset.testid = 'viewer';
    frame.hidden = false;
    const job = prepared ?? this.#newJob();
    job.output = output;
    this.#job = job;
    this.#frame = frame;
    this.#box.replaceChildren(frame);
    this.#status('starting');
    if (job.ready) this.#handOver(job, job.readyPort);
    else job.readyTimer = setTimeout(() => this.#fail(job, 'dead', 'The viewer did not start.'), READY_LIMIT_MS);
  }

  prepare(placeholder) {
    this.#stop();
    const frame = this.#newFrame();
    frame.hidden = true;
    this.#job = this.#newJob();
    this.#frame = frame;
    this.#box.replaceChildren(placeholder, frame);
  }

  #newFrame() {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    this.#load(frame);
    return frame;
  }

  #newJob() {
    return {
      output: null,
      port: null,
      lastBeat: 0,
      watch: null,
      readyTimer: null,
      done: false,
      ready: false,
      readyPort: null,
    };
  }

  clear(placeholder) {
    this.#stop();
    this.#frame = null;
    this.#box.replaceChildren(placeholder);
  }

  #stop() {
    const job = this.#job;
    if (!job) return;
    job.done = true;
    clearTimeout(job.readyTimer);
    clearInterval(job.watch);
    job.port?.close();
    job.readyPort?.close();
    this.#job = null;
  }

  #status(status, detail = {}) {
    this.#onStatus(status, { fileName: this.#job?.output?.fileName, ...detail });
  }

  #receive(event) {
    const job = this.#job;
    if (!job || job.done || !this.#frame || event.source !== this.#frame.contentWindow) return;
    const data = event.data;
    if (data?.source !== SOURCE) return;
    if (data.type === 'ready') {
      clearTimeout(job.readyTimer);
      job.ready = true;
      job.readyPort = event.ports[0] ?? null;
      if (job.output) this.#handOver(job, job.readyPort);
    } else if (!job.output) {
      // A prepared frame says nothing else before it has an output.
    } else if (data.type === 'importing') {
      this.#status('importing');
    } else if (data.type === 'painted') {
      this.#status('painted', { ms: data.ms });
    } else if (data.type === 'failed') {
      this.#fail(job, data.tooDeep ? 'too-deep' : 'error', data.message);
    }
  }

  #handOver(job, port) {
    if (port) {
      job.port = port;
      job.lastBeat = performance.now();
      port.onmessage = () => {
        job.lastBeat = performance.now();
      };
      // Chromium tells a port when its other end went away (the frame's process died).
      port.addEventListener('close', () => this.#fail(job, 'dead'));
      port.start();
      job.watch = setInterval(() => {
        if (performance.now() - job.lastBeat > HEARTBEAT_LIMIT_MS) this.#fail(job, 'dead');
      }, 1000);
    }
    const { fileName, blob } = job.output;
    this.#frame.contentWindow.postMessage({ type: 'show', name: fileName, blob }, '*');
  }

  #fail(job, reason, message = '') {
    if (job.done || job !== this.#job) return;
    const { fileName } = job.output;
    this.#stop();
    this.#onStatus('failed', { fileName, reason, message });
  }
}

export async function toggleFullscreen(element) {
  if (document.fullscreenElement) {
    await document.exitFullscreen();
  } else {
    await element.requestFullscreen();
  }
}
