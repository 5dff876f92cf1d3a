// The timeline's side of the worker (web/worker.js hands it every request
// whose type starts with "timeline-"): a pipe to the core's engine
// (src/core/engine/, sp.engineRequest), which holds the open run and
// answers every request of docs/engine-protocol.md; `serve` answers the
// same requests with the same dispatcher natively. This file only moves
// Files in (the open's, kept for the one download that needs the file
// again) and Blobs out, throttles progress and transfers each answer's one
// buffer. No answer is computed here.

import { blobSink, progressReporter } from '../output-sink.js';

const OPENS = new Set(['timeline-open', 'timeline-compare-open']);
const FILE_FIELDS = ['file', 'fileA', 'fileB', 'files', 'filesA', 'filesB'];
// One job's files: lent as <input>0, <input>1, ... with the request's count.
const JOB_FIELDS = { files: ['file', 'count'], filesA: ['fileA', 'countA'], filesB: ['fileB', 'countB'] };

// The open run's inputs ({ file } or { fileA, fileB }) while its first
// download still needs the file (a timeline opened without some ranks reads
// them once, to check them, before anything is written); null after.
let again = null;

// A sliced open's inputs while it goes on (timeline-open-more reads them):
// { inputs (held as bytes, below), files (the Files, for a download) }.
let opening = null;

// A download written in slices (timeline-export's options.slices, then
// timeline-export-more): its sink, outputs and progress across its
// requests; dropped when it ends, is given up or another open replaces it.
let exporting = null;

// A sliced open's inputs read once and held as bytes while it goes on,
// where the package reads them whole anyway (up to its readWholeBytes):
// each timeline-open-more would read the File again (the 96 M-call job's
// 40 MB, 14 times: 1.6 s of its All ranks in the page). A File that
// cannot be read is left as it is: the package says so.
function heldWhole(sp, inputs) {
  const held = {};
  for (const [k, input] of Object.entries(inputs)) {
    held[k] = input;
    if (!input.file || input.file.size > sp.readWholeBytes) continue;
    try {
      held[k] = { name: input.name, bytes: new Uint8Array(new FileReaderSync().readAsArrayBuffer(input.file)) };
    } catch {
      // read lazily by the package, which reports the failure
    }
  }
  return held;
}

// Progress of an open, at most every 100 ms.
function openProgress(id, post) {
  let last = 0;
  return ({ phase, done, total }) => {
    const now = Date.now();
    if (now - last < 100 && done !== total) return;
    last = now;
    post({ id, type: 'progress', phase, done, total, unit: phase === 'reconstruct' ? 'ranks' : 'fraction' });
  };
}

// The ArrayBuffers of an answer's typed arrays (one: the answer's own).
function buffersOf(value, out = new Set()) {
  if (ArrayBuffer.isView(value)) out.add(value.buffer);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) buffersOf(v, out);
  return out;
}

// What the request reads, and how its progress and outputs are reported.
function ioOf(data, post) {
  if (OPENS.has(data.type)) {
    const inputs = {};
    for (const k of FILE_FIELDS) if (data[k] && !JOB_FIELDS[k]) inputs[k] = { name: data[k].name, file: data[k] };
    for (const [k, [input]] of Object.entries(JOB_FIELDS)) {
      (data[k] ?? []).forEach((file, i) => (inputs[`${input}${i}`] = { name: file.name, file }));
    }
    return { inputs, onProgress: openProgress(data.id, post), names: Object.values(inputs).map((i) => i.name) };
  }
  if (data.type === 'timeline-open-more') {
    const inputs = opening?.inputs ?? {};
    return { inputs, onProgress: openProgress(data.id, post), names: Object.values(inputs).map((i) => i.name) };
  }
  if (data.type === 'timeline-complete') {
    // The other ranks' first starts: read from the open's file.
    return { inputs: again ?? {}, onProgress: openProgress(data.id, post), names: [] };
  }
  if (data.type === 'timeline-check') {
    // Some of the ranks the open did not read, read from its file to check them.
    return { inputs: again ?? {}, names: [] };
  }
  if (data.type === 'timeline-export') {
    const onProgress = progressReporter(data.id, post);
    const { sink, outputs } = blobSink(onProgress);
    return { inputs: again ?? {}, onProgress, sink, outputs, names: [] };
  }
  if (data.type === 'timeline-export-more' && exporting) {
    exporting.onProgress.id = data.id;
    return { inputs: again ?? {}, ...exporting, names: [] };
  }
  return { inputs: {}, names: [] };
}

// data: the request; post(message, transfer); errorOf(err, names) the worker's error reply.
export async function timelineRequest(sp, data, post, errorOf) {
  const { id, type } = data;
  const request = {};
  for (const [k, v] of Object.entries(data)) if (k !== 'id' && !FILE_FIELDS.includes(k)) request[k] = v;
  for (const [k, [, count]] of Object.entries(JOB_FIELDS)) if (data[k]) request[count] = data[k].length;
  const io = ioOf(data, post);
  const files = io.inputs; // a sliced open's Files, for the download that reads them again
  if (OPENS.has(type) && data.options?.slices) io.inputs = heldWhole(sp, io.inputs);
  if (OPENS.has(type) || type === 'timeline-close') again = null;
  if (OPENS.has(type) || type === 'timeline-close' || type === 'timeline-open-cancel') opening = null;
  if (OPENS.has(type) || type === 'timeline-close' || type === 'timeline-export' || type === 'timeline-export-cancel')
    exporting = null; // its blobs go with it
  let answer;
  try {
    answer = sp.engineRequest(request, io);
  } catch (err) {
    post({ id, ...errorOf(err, io.names) }); // a trap: the page starts a fresh engine
    return;
  }
  const going = answer.type === 'result' && answer.pending;
  const download = type === 'timeline-export' || type === 'timeline-export-more';
  if (download) exporting = going ? { onProgress: io.onProgress, sink: io.sink, outputs: io.outputs } : null;
  if (type === 'timeline-open-more' && !going) {
    if (answer.type === 'result' && answer.unreadRanks?.length) again = opening?.files ?? null;
    opening = null;
  } else if (going && OPENS.has(type)) {
    opening = { inputs: io.inputs, files };
  }
  if (answer.type === 'error') {
    const file = answer.file ?? (io.names.length === 1 ? io.names[0] : null);
    post({ id, ...answer, file, trap: false });
  } else if (answer.type === 'refused') {
    post({ id, ...answer });
  } else if (download && !going) {
    again = null;
    post({ id, type: 'result', outputs: io.outputs });
  } else {
    if (OPENS.has(type) && answer.unreadRanks?.length) again = files;
    post({ id, ...answer }, [...buffersOf(answer)]);
  }
}
