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
// post(message): the worker's postMessage. report.id: the request reported
// on (a download in slices moves it to each slice's request).
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
        id: report.id,
        type: 'progress',
        phase,
        output,
        done: Math.floor(done / 2),
        total: Math.floor(total / 2),
        unit: 'calls',
      });
    } else if (phase === 'reconstruct') {
      post({ id: report.id, type: 'progress', phase, done, total, unit: 'ranks' });
    } else {
      post({ id: report.id, type: 'progress', phase, done, total, unit: 'fraction' });
    }
  };
  report.id = id;
  report.output = (name) => {
    output = name;
  };
  report.calls = new Map(); // output file name -> calls written (the writer's exact count)
  return report;
}

// A sink for the core's export: chunks copied into one buffer of BLOCK
// bytes, reused, and a Blob made of it each time it fills (a Blob copies
// what it is made of, so a document leaves no copies of its chunks behind
// for the collector: a window of 873,866 calls is 0.1 GB); a closed output
// joins `outputs` with the calls `onProgress` (a progressReporter) counted
// for it.
export function blobSink(onProgress) {
  const outputs = [];
  let current = null;
  let block = null; // the buffer: from 64 KB, doubled as needed up to BLOCK
  let used = 0;
  const grow = (need) => {
    const bigger = new Uint8Array(Math.min(BLOCK, Math.max(65536, 2 * (block?.length ?? 0), used + need)));
    if (block) bigger.set(block.subarray(0, used));
    block = bigger;
  };
  const flushBlock = () => {
    if (used) current.parts.push(new Blob([block.subarray(0, used)]));
    used = 0;
  };
  const sink = {
    open(fileName) {
      current = { fileName, parts: [], size: 0 };
      used = 0;
      onProgress.output(fileName);
    },
    write(chunk) {
      // (chunk: a view of the module's memory, valid during the call only)
      current.size += chunk.byteLength;
      for (let at = 0; at < chunk.byteLength;) {
        if (!block || (used === block.length && block.length < BLOCK)) grow(chunk.byteLength - at);
        const n = Math.min(BLOCK - used, chunk.byteLength - at);
        block.set(chunk.subarray(at, at + n), used);
        used += n;
        at += n;
        if (used === BLOCK) flushBlock();
      }
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
      used = 0;
    },
  };
  return { sink, outputs };
}
