// Where the worker's speedscope documents go (worker.js's convert and
// timeline/worker-side.js's timeline-export share it): the core's progress
// in the page's units, and a sink that streams each output into Blobs of
// BLOCK bytes as the core writes it, never one big string.
//
//   const onProgress = progressReporter(id, post);
//   const { sink, outputs } = blobSink(onProgress);
//   sp.exportSpeedscope(inputs, { ..., onProgress, sink });   // or tl.exportSpeedscope({ ..., onProgress, sink })
//   outputs;  // [{ fileName, blob, size, calls }]: calls the writer's exact count

const PROGRESS_EVERY_MS = 100;
const BLOCK = 16 * 1024 * 1024;

// Progress in the units the page shows: the writer counts speedscope events,
// two per call (an open and a close); the page counts calls.
// post(message): the worker's postMessage.
export function progressReporter(id, post) {
  let last = 0;
  let lastPhase = null;
  let output = null;
  const report = ({ phase, done, total }) => {
    if (phase === 'write') report.calls.set(output, Math.floor(total / 2));
    const now = Date.now();
    if (phase === lastPhase && now - last < PROGRESS_EVERY_MS && done !== total) return;
    last = now;
    lastPhase = phase;
    if (phase === 'write') {
      post({
        id,
        type: 'progress',
        phase,
        output,
        done: Math.floor(done / 2),
        total: Math.floor(total / 2),
        unit: 'calls',
      });
    } else if (phase === 'reconstruct') {
      post({ id, type: 'progress', phase, done, total, unit: 'ranks' });
    } else {
      post({ id, type: 'progress', phase, done, total, unit: 'fraction' });
    }
  };
  report.output = (name) => {
    output = name;
  };
  report.calls = new Map(); // output file name -> calls written (the writer's exact count)
  return report;
}

// A sink for the core's export: chunks gathered into blocks of BLOCK bytes,
// each turned into a Blob at once; a closed output joins `outputs` with the
// calls `onProgress` (a progressReporter) counted for it.
export function blobSink(onProgress) {
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
      onProgress.output(fileName);
    },
    write(chunk) {
      current.pending.push(chunk.slice()); // valid during the call only
      current.pendingBytes += chunk.byteLength;
      current.size += chunk.byteLength;
      if (current.pendingBytes >= BLOCK) flushBlock();
    },
    close() {
      flushBlock();
      outputs.push({
        fileName: current.fileName,
        blob: new Blob(current.parts, { type: 'application/json' }),
        size: current.size,
        calls: onProgress.calls.get(current.fileName) ?? 0,
      });
      current = null;
    },
    commit() {},
    abort() {
      outputs.length = 0;
      current = null;
    },
  };
  return { sink, outputs };
}
