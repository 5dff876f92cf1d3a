// The conversion worker (a module worker). The page posts
//   { id, type: 'inspect', file: File }
//   { id, type: 'convert', files: [File], options: { filepath, ranks, include, exclude } }
// and gets back { id, type: 'progress' | 'result' | 'error', ... }. Files are
// handed to the wasm module as File objects, which it reads lazily; outputs
// come back as chunks, assembled here into Blobs (never one big string).
// Cancelling is the page's business: it terminates this worker and starts a new one.

import { createScopeSpeedscope } from './lib/index.js';

const PROGRESS_EVERY_MS = 50;
const BLOCK = 16 * 1024 * 1024;
const NULL_SINK = { open() {}, write() {}, close() {}, commit() {}, abort() {} };

let module = null;
function lib() {
  module ??= createScopeSpeedscope().catch((err) => {
    module = null;  // let a later message try again
    throw err;
  });
  return module;
}

function errorOf(err) {
  return {
    kind: err?.kind ?? err?.name ?? 'Error',
    message: String(err?.message ?? err),
  };
}

async function gzip(blob) {
  const stream = blob.stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(stream).blob();
}

// speedscope inflates gzip input on every route: outputs over gzipAbove bytes
// (the page's choice, 256 MiB) reach it compressed (in Chromium a plain Blob
// over ~500 MiB cannot be read at all). Downloads stay plain JSON.
async function convert(id, files, options, gzipAbove) {
  const sp = await lib();
  const inputs = files.map((file) => ({ name: file.name, file }));
  let last = 0;
  let lastPhase = null;
  const onProgress = ({ phase, done, total }) => {
    const now = Date.now();
    if (phase === lastPhase && now - last < PROGRESS_EVERY_MS && done !== total) return;
    last = now;
    lastPhase = phase;
    self.postMessage({ id, type: 'progress', phase, done, total });
  };
  // Outputs stream into Blobs as the core writes them: chunks are gathered
  // into blocks of BLOCK bytes, each turned into a Blob at once, so the worker
  // never holds a whole document in its own memory.
  const outputs = [];
  let current = null;
  const flushBlock = () => {
    if (current.pending.length) current.parts.push(new Blob(current.pending));
    current.pending = [];
    current.pendingBytes = 0;
  };
  const sink = {
    open(fileName) {
      current = { fileName, parts: [], pending: [], pendingBytes: 0, size: 0 };
    },
    write(chunk) {
      current.pending.push(chunk.slice());  // valid during the call only
      current.pendingBytes += chunk.byteLength;
      current.size += chunk.byteLength;
      if (current.pendingBytes >= BLOCK) flushBlock();
    },
    close() {
      flushBlock();
      outputs.push({ fileName: current.fileName, blob: new Blob(current.parts, { type: 'application/json' }),
                     size: current.size });
      current = null;
    },
    commit() {},
    abort() {
      outputs.length = 0;
      current = null;
    },
  };
  try {
    await sp.exportSpeedscope(inputs, { ...options, onProgress, sink });
  } catch (err) {
    // With several files, name the one that fails on its own (when it is cheap
    // enough to find out); the message itself is the CLI's.
    let culprit = null;
    const total = files.reduce((n, f) => n + f.size, 0);
    if (files.length > 1 && total < 256 * 1024 * 1024) {
      for (const input of inputs) {
        try {
          await sp.exportSpeedscope([input], { ...options, filepath: 'probe.json', sink: NULL_SINK });
        } catch (single) {
          if (single?.message === err?.message) { culprit = input.name; break; }
        }
      }
    }
    self.postMessage({ id, type: 'error', ...errorOf(err), files: culprit ? [culprit] : files.map((f) => f.name) });
    return;
  }
  self.postMessage({ id, type: 'progress', phase: 'packing', done: 0, total: outputs.length });
  const results = [];
  for (const [i, { fileName, blob, size }] of outputs.entries()) {
    const viewerBlob = size > gzipAbove ? await gzip(blob) : null;
    results.push({ fileName, blob, viewerBlob, size });
    self.postMessage({ id, type: 'progress', phase: 'packing', done: i + 1, total: outputs.length });
  }
  self.postMessage({ id, type: 'result', outputs: results });
}

async function inspect(id, file) {
  const sp = await lib();
  try {
    const info = await sp.inspect({ name: file.name, file });
    self.postMessage({ id, type: 'result', info, version: sp.version });
  } catch (err) {
    self.postMessage({ id, type: 'error', ...errorOf(err), files: [file.name] });
  }
}

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    if (type === 'init') {
      const sp = await lib();
      self.postMessage({ id, type: 'result', version: sp.version });
    } else if (type === 'inspect') {
      await inspect(id, data.file);
    } else if (type === 'convert') {
      await convert(id, data.files, data.options, data.gzipAbove ?? 256 * 1024 * 1024);
    }
  } catch (err) {
    // The module failed to load or something unexpected broke.
    self.postMessage({ id, type: 'error', ...errorOf(err), files: [] });
  }
};
