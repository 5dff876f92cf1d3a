// The page's engine: one module worker (engine-client.js talks to it) and
// one wasm module, which reads each file, holds the open timeline and writes
// the downloads (docs/engine-protocol.md).
// Requests { id, type, ... } and replies { id, type: 'progress' | 'result' | 'error', ... }:
//   init                                 -> { version, features }
//   inspect   { file }                   -> { info }
//   overview  { file, options }          -> { overview }   the core's overview (and suggestion)
//   check     { include, exclude }       -> { problems: [{ field, line, message }] }
//   convert   { files, options }         -> { outputs: [{ fileName, blob, size, calls }] }
//   timeline-*                           the run's timeline: see timeline/worker-side.js
// Every rule (filters, naming, messages, counting) is the core's: this file
// only moves Files in and Blobs out. Files go to the package as they are (it
// reads them whole up to 256 MiB, else in slices as the core's file driver
// asks, with FileReaderSync); outputs stream into Blobs (output-sink.js),
// never one big string.
// Cancelling, time limits and restarts are the client's business: it drops a
// reply, or terminates this worker and starts a new one.

import { createScopeSpeedscope } from './lib/index.js';
import { blobSink, progressReporter } from './output-sink.js';
import { timelineRequest } from './timeline/worker-side.js';

// Test hook (the page's ?test-stall=<file name>): reading a file of that name
// spins as a converter stuck in a damaged file would, for the watchdog's test.
const STALL_ON = new URLSearchParams(self.location.search).get('test-stall');
// Test hook (?read-whole-bytes=N): the package's readWholeBytes, so the tests
// also take the lazy path (slices as the core asks) that only files over
// 256 MiB take otherwise.
const READ_WHOLE = new URLSearchParams(self.location.search).get('read-whole-bytes');

let module = null;
function lib() {
  module ??= createScopeSpeedscope(READ_WHOLE ? { readWholeBytes: Number(READ_WHOLE) } : {}).catch((err) => {
    module = null; // let a later message try again
    throw err;
  });
  return module;
}

// The module loads at once, before the first request: the page starts its
// workers early (start-workers.js) so that they are ready when a file comes.
// A failure here is said by the first request, which tries again.
lib().catch(() => {});

// What the page can ask of this build of the core.
function featuresOf(sp) {
  return {
    overview: typeof sp.overview === 'function',
    checkPattern: typeof sp.checkPattern === 'function',
    narrowing: typeof sp.overview === 'function',
    timeline: typeof sp.openTimeline === 'function',
  };
}

const isTrap = (err) =>
  err instanceof WebAssembly.RuntimeError ||
  err?.name === 'RuntimeError' ||
  /^Aborted\(/.test(String(err?.message ?? ''));

// The core's error as the page shows it: `wording` is the core's message for
// people (its peopleMessage: without the file name, which the page shows
// beside it, and without Python class names); `file`, `field` and `index`
// say what to blame. `message` stays the CLI's text.
function errorOf(err, files = []) {
  const message = String(err?.message ?? err);
  return {
    type: 'error',
    kind: err?.kind ?? err?.name ?? 'Error',
    message,
    wording: err?.peopleMessage ?? null,
    file: err?.file ?? (files.length === 1 ? files[0] : null),
    field: err?.field ?? null,
    index: err?.index ?? null,
    trap: isTrap(err),
  };
}

function coreOptions(options) {
  const out = {
    filepath: options.filepath,
    ranks: options.ranks,
    include: options.include,
    exclude: options.exclude,
  };
  if (options.minDuration != null) out.minDuration = options.minDuration;
  if (options.timeWindow != null) out.timeWindow = options.timeWindow;
  if (options.sourceLocations) out.sourceLocations = true;
  return out;
}

// The files' documents, written by the engine (as `serve` writes them):
// outputs stream into Blobs as the core writes them.
async function convert(id, files, options) {
  const sp = await lib();
  const names = files.map((f) => f.name);
  const inputs = Object.fromEntries(files.map((file, i) => [`file${i}`, { name: file.name, file }]));
  const onProgress = progressReporter(id, (message) => self.postMessage(message));
  const { sink, outputs } = blobSink(onProgress);
  const request = { type: 'convert', count: files.length, options: coreOptions(options) };
  let answer;
  try {
    answer = sp.engineRequest(request, { inputs, sink, onProgress });
  } catch (err) {
    self.postMessage({ id, ...errorOf(err, names) });
    return;
  }
  if (answer.type !== 'error') {
    self.postMessage({ id, type: 'result', outputs });
    return;
  }
  const reply = { ...answer, file: answer.file ?? (names.length === 1 ? names[0] : null), trap: false };
  if (!reply.file) reply.file = await culprit(sp, Object.values(inputs), options, answer);
  self.postMessage({ id, ...reply });
}

// With several files, the one that fails on its own (when that is cheap to
// find out), for a core that does not name it.
async function culprit(sp, inputs, options, err) {
  const total = inputs.reduce((n, i) => n + i.file.size, 0);
  if (inputs.length < 2 || total > 256 * 1024 * 1024) return null;
  const nullSink = { open() {}, write() {}, close() {}, commit() {}, abort() {} };
  for (const input of inputs) {
    try {
      await sp.exportSpeedscope([input], { ...coreOptions(options), filepath: 'probe.json', sink: nullSink });
    } catch (single) {
      if (single?.message === err?.message) return input.name;
    }
  }
  return null;
}

// The engine's answers to inspect, overview and check (docs/engine-protocol.md), as
// `serve` gives them: errors name the file.
async function engineJob(id, request, inputs = {}) {
  const sp = await lib();
  const names = Object.values(inputs).map((i) => i.name);
  try {
    const answer = sp.engineRequest(request, { inputs });
    if (answer.type === 'error')
      self.postMessage({ id, ...answer, file: answer.file ?? names[0] ?? null, trap: false });
    else self.postMessage({ id, ...answer });
  } catch (err) {
    self.postMessage({ id, ...errorOf(err, names) });
  }
}

async function inspect(id, file) {
  if (STALL_ON && file.name === STALL_ON) for (;;);
  await engineJob(id, { type: 'inspect' }, { file: { name: file.name, file } });
}

// The core's overview of one file's selection: calls over time, durations,
// and with options.maxEvents the narrowing it suggests.
const overview = (id, file, options) =>
  engineJob(id, { type: 'overview', options }, { file: { name: file.name, file } });

// Filters checked with the core's own regular expressions.
const check = (id, { include, exclude }) => engineJob(id, { type: 'check', include, exclude });

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    if (type === 'init') {
      const sp = await lib();
      self.postMessage({
        id,
        type: 'result',
        protocol: sp.engineProtocol,
        version: sp.version,
        features: featuresOf(sp),
      });
    } else if (type === 'inspect') {
      await inspect(id, data.file);
    } else if (type === 'overview') {
      await overview(id, data.file, data.options);
    } else if (type === 'check') {
      await check(id, { include: data.include, exclude: data.exclude });
    } else if (type === 'convert') {
      await convert(id, data.files, data.options);
    } else if (type?.startsWith('timeline-')) {
      if (STALL_ON && data.file?.name === STALL_ON) for (;;);
      await timelineRequest(
        await lib(),
        data,
        (message, transfer = []) => self.postMessage(message, transfer),
        errorOf,
      );
    }
  } catch (err) {
    // The module failed to load, or trapped outside a conversion.
    self.postMessage({ id, ...errorOf(err) });
  }
};
