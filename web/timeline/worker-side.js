// The timeline's side of the worker (web/worker.js hands it every request
// whose type starts with "timeline-"). One timeline is open at a time: the
// core's (sp.openTimeline), which holds the run's calls as columns in the
// module's memory. Requests:
//   timeline-open    { file, options: { ranks, include, exclude } }
//                    (ranks: rank numbers, or 'all': every rank of the file)
//                    -> { timeline, lanes, frames, totals, runEnd, originInRun, maxWidth }
//                       lanes: [{ name, calls, maxDepth, start, end, rank }]
//                       totals: calls per frame over the run; originInRun: the zero of a time window;
//                       maxWidth: the widest bars query (the core's)
//   timeline-bars    { timeline, lanes: [lane], start, end, width }
//                    -> { bars: [{ lane, start, end, depth, frame, count, rows }] }  (transferred)
//   timeline-stack   { timeline, lane, time }      -> { stack }
//   timeline-regions { timeline, start, end, lanes } -> { regions }
//   timeline-fit     { timeline, start, end, maxCalls } -> { start, end, calls }
//   timeline-overview { timeline, options: { bins, maxEvents } } -> { overview }  (overview's answer
//                    for the timeline's file, ranks and filters, from its columns)
//   timeline-imbalance { timeline, start, end } -> { rows }  (tl.imbalance: one row per region over the ranks)
//   timeline-aligned { timeline, frame, start, end, maxColumns }
//                    -> { grid } (the core's tl.alignedGrid: at most maxColumns columns)
//   timeline-lateness { timeline, frame, start, end }
//                    -> { ranks, lateness } (the core's tl.meanLateness: per rank,
//                       the mean lateness of its calls of `frame` in the window, NaN without one)
//   timeline-busy    { timeline, groups: [[lane]], start, end, width }
//                    -> { busy: [Float32Array] }  (transferred; tl.busy of each group of lanes, a
//                       rank's: per pixel, the share of its time the lanes' depth-0 calls cover)
//   timeline-export  { timeline, options: { filepath, timeWindow, minDuration } }
//                    -> { outputs: [{ fileName, blob, size, calls }] }  (convert's reply: the
//                       document exportSpeedscope writes for the file with the timeline's ranks,
//                       include and exclude and this narrowing, written from the columns without
//                       reading the file again; progress as convert's; calls the writer's count)
//                    -> { type: 'refused', message }  when the timeline cannot write it (a
//                       narrowing whose region order depends on ranks it does not hold):
//                       convert from the file instead
//   timeline-close   { timeline }
//   timeline-compare-open { fileA, fileB, options: { ranks, include, exclude } }
//                    -> timeline-open's reply for both runs as one timeline (closing the open one):
//                       lanes B's then A's ({ run: 'b' | 'a' }), frames B's then A's others (A's
//                       bars' frames renumbered so), runEnd the later run's; and compare:
//                       { lanesB, partnerLanes, originInRun: { a, b }, runEnd: { a, b }, regions }
//                    While it is open, timeline-bars gives B's lanes with `ratio` (cmp.aligned:
//                    each bar's duration over its partner's in A, NaN without one) and A's as
//                    cmp.a.bars; timeline-stack answers either run; the other queries are B's.
//   timeline-compare-regions { timeline, start, end }
//                    -> { rows }: the core's rows of [start, end) of each run, each from its
//                    own origin (RunComparison.regionsIn; over the whole run, diff's rows)
// Bars come back as the core gives them, depth after depth, each depth in
// time order: `rows[d] .. rows[d + 1]` are depth d's items, so the page finds
// the visible ones by binary search; the work here is proportional to the
// items (pixels times depth), never to the calls.

import { blobSink, progressReporter } from '../output-sink.js';

let current = null; // { id, tl, lanes } and, comparing two runs, { cmp, lanesB, frameOfA }
let nextId = 1;

function close() {
  if (!current) return;
  try {
    (current.cmp ?? current.tl).close();
  } catch {
    /* already gone with a trapped module */
  }
  current = null;
}

function timelineOf(id) {
  if (!current || current.id !== id)
    throw new TypeError('the timeline was closed (a newer file or options replaced it)');
  return current.tl;
}

// Opens a timeline (closing the open one) and posts what the page draws from.
async function open(sp, { id, file, options }, post, errorOf) {
  close();
  let last = 0;
  const onProgress = ({ phase, done, total }) => {
    const now = Date.now();
    if (now - last < 100 && done !== total) return;
    last = now;
    post({ id, type: 'progress', phase, done, total, unit: phase === 'reconstruct' ? 'ranks' : 'fraction' });
  };
  try {
    const o = options ?? {};
    const tl = await sp.openTimeline(
      { name: file.name, file },
      { ranks: o.ranks ?? null, include: o.include ?? null, exclude: o.exclude ?? null, onProgress },
    );
    const lanes = tl.lanes.map((l) => laneOf(l));
    const { runEnd } = tl;
    const totals = new Float64Array(tl.frames.length);
    for (const r of tl.regions(0, runEnd)) totals[r.frame] = r.calls;
    current = { id: nextId++, tl, lanes };
    post(
      {
        id,
        type: 'result',
        timeline: current.id,
        lanes,
        frames: [...tl.frames],
        totals,
        runEnd,
        originInRun: tl.originInRun,
        maxWidth: tl.maxWidth,
      },
      [totals.buffer],
    );
  } catch (err) {
    post({ id, ...errorOf(err, [file.name]) });
  }
}

// A lane's bars: the timeline's; comparing, B's with their ratios or A's
// with their frames renumbered into the comparison's.
function laneBars(cur, tl, lane, { start, end, width }) {
  if (!cur.cmp) return tl.bars(lane, start, end, width);
  if (lane < cur.lanesB) return cur.cmp.aligned(lane, start, end, width);
  const b = cur.cmp.a.bars(lane - cur.lanesB, start, end, width);
  for (let i = 0; i < b.frame.length; i++) if (b.frame[i] >= 0) b.frame[i] = cur.frameOfA[b.frame[i]];
  return b;
}

// The stack at `time` of a lane of either run (frames as the page knows them).
function stackOf(cur, tl, lane, time) {
  if (!cur.cmp || lane < cur.lanesB) return tl.stackAt(lane, time);
  return cur.cmp.a.stackAt(lane - cur.lanesB, time).map((s) => ({ ...s, frame: cur.frameOfA[s.frame] }));
}

// A lane as the page draws it; `run` prefixes its name when comparing.
const laneOf = (l, run = null) => ({
  name: run ? `${run.toUpperCase()} · ${l.name}` : l.name,
  calls: l.calls,
  maxDepth: l.maxDepth,
  start: l.start,
  end: l.end,
  ...(run ? { run } : { rank: l.rank }),
});

// Opens two runs compared (closing what is open): B's lanes, then A's, each
// from its own origin; the reply is timeline-open's with `compare`.
async function openComparison(sp, { id, fileA, fileB, options }, post, errorOf) {
  close();
  const o = options ?? {};
  const onProgress = ({ phase, done, total }) =>
    post({ id, type: 'progress', phase, done, total, unit: phase === 'reconstruct' ? 'ranks' : 'fraction' });
  try {
    const cmp = await sp.compareRuns(
      { name: fileA.name, file: fileA },
      { name: fileB.name, file: fileB },
      { ranks: o.ranks ?? null, include: o.include ?? null, exclude: o.exclude ?? null, onProgress },
    );
    const { frames, frameOfA } = cmp; // the core's: B's frames, then A's others
    const lanes = [...cmp.b.lanes.map((l) => laneOf(l, 'b')), ...cmp.a.lanes.map((l) => laneOf(l, 'a'))];
    const runEnd = { a: cmp.a.runEnd, b: cmp.b.runEnd };
    const totals = new Float64Array(frames.length);
    for (const r of cmp.b.regions(0, runEnd.b)) totals[r.frame] += r.calls;
    for (const r of cmp.a.regions(0, runEnd.a)) totals[frameOfA[r.frame]] += r.calls;
    current = { id: nextId++, tl: cmp.b, cmp, lanes, lanesB: cmp.b.lanes.length, frameOfA };
    const compare = {
      lanesB: cmp.b.lanes.length,
      partnerLanes: [...cmp.partnerLanes],
      originInRun: { a: cmp.a.originInRun, b: cmp.b.originInRun },
      runEnd,
      regions: cmp.regions,
    };
    const reply = { timeline: current.id, lanes, frames, totals, runEnd: Math.max(runEnd.a, runEnd.b) };
    const maxWidth = Math.min(cmp.a.maxWidth, cmp.b.maxWidth);
    post({ id, type: 'result', ...reply, originInRun: cmp.b.originInRun, maxWidth, compare }, [totals.buffer]);
  } catch (err) {
    post({ id, ...errorOf(err, [fileA.name, fileB.name]) });
  }
}

function bars(data, post) {
  const tl = timelineOf(data.timeline);
  const list = [];
  const transfer = [];
  for (const lane of data.lanes) {
    const b = laneBars(current, tl, lane, data); // b.rows: where each depth's items start (the core's)
    list.push({ lane, ...b });
    for (const k of ['start', 'end', 'depth', 'frame', 'count', 'rows', 'ratio']) if (b[k]) transfer.push(b[k].buffer);
  }
  post({ id: data.id, type: 'result', bars: list, start: data.start, end: data.end, width: data.width }, [
    ...new Set(transfer),
  ]);
}

// A typed array the reply may transfer: `a` itself when it owns its buffer
// (never the module's memory), else a copy.
const own = (a) => (a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : a.slice());

function busy(data, post) {
  const tl = timelineOf(data.timeline);
  const list = data.groups.map((lanes) => own(tl.busy(lanes, data.start, data.end, data.width)));
  post({ id: data.id, type: 'result', busy: list, start: data.start, end: data.end, width: data.width }, [
    ...new Set(list.map((b) => b.buffer)),
  ]);
}

// A window of the timeline as a speedscope document (timeline-export). Its
// RangeError (a narrowing whose region order depends on ranks the timeline
// does not hold) is a refusal: the page converts the file.
function exportDocument(data, post, errorOf) {
  const tl = timelineOf(data.timeline);
  const o = data.options ?? {};
  const onProgress = progressReporter(data.id, post);
  const { sink, outputs } = blobSink(onProgress);
  const options = { filepath: o.filepath, onProgress, sink };
  if (o.timeWindow != null) options.timeWindow = o.timeWindow;
  if (o.minDuration != null) options.minDuration = o.minDuration;
  try {
    tl.exportSpeedscope(options);
  } catch (err) {
    if (err instanceof RangeError) post({ id: data.id, type: 'refused', message: err.message });
    else post({ id: data.id, ...errorOf(err) });
    return;
  }
  post({ id: data.id, type: 'result', outputs });
}

// The queries of an open timeline: each returns the reply's fields.
const QUERIES = {
  'timeline-close': (data) => {
    if (current?.id === data.timeline) close();
    return {};
  },
  'timeline-stack': (data) => ({ stack: stackOf(current, timelineOf(data.timeline), data.lane, data.time) }),
  'timeline-compare-regions': (data) => {
    timelineOf(data.timeline);
    if (!current.cmp) throw new TypeError('no comparison is open');
    return { rows: current.cmp.regionsIn(data.start, data.end) };
  },
  'timeline-regions': (data) => {
    const tl = timelineOf(data.timeline);
    return { regions: data.lanes ? tl.regions(data.start, data.end, data.lanes) : tl.regions(data.start, data.end) };
  },
  'timeline-fit': (data) => timelineOf(data.timeline).windowWithin(data.start, data.end, data.maxCalls),
  'timeline-overview': (data) => ({ overview: timelineOf(data.timeline).overview(data.options) }),
  'timeline-imbalance': (data) => ({ rows: timelineOf(data.timeline).imbalance(data.start, data.end) }),
  'timeline-aligned': (data) => ({
    grid: timelineOf(data.timeline).alignedGrid(data.frame, data.start, data.end, data.maxColumns),
  }),
  'timeline-lateness': (data) => timelineOf(data.timeline).meanLateness(data.frame, data.start, data.end),
};

// data: the request; post(message, transfer); errorOf(err, names) the worker's error reply.
export async function timelineRequest(sp, data, post, errorOf) {
  const { id, type } = data;
  if (type === 'timeline-open') {
    await open(sp, data, post, errorOf);
    return;
  }
  if (type === 'timeline-compare-open') {
    await openComparison(sp, data, post, errorOf);
    return;
  }
  try {
    if (type === 'timeline-bars') bars(data, post);
    else if (type === 'timeline-busy') busy(data, post);
    else if (type === 'timeline-export') exportDocument(data, post, errorOf);
    else if (QUERIES[type]) post({ id, type: 'result', ...QUERIES[type](data) });
  } catch (err) {
    post({ id, ...errorOf(err) });
  }
}
