// The timeline's side of the worker (web/worker.js hands it every request
// whose type starts with "timeline-"). One timeline is open at a time: the
// core's (sp.openTimeline), which holds the run's calls as columns in the
// module's memory. Requests:
//   timeline-open    { file, options: { ranks, include, exclude } }
//                    -> { timeline, lanes, frames, totals, runEnd, originInRun }
//                       totals: calls per frame over the run; originInRun: the zero of a time window
//   timeline-bars    { timeline, lanes: [lane], start, end, width }
//                    -> { bars: [{ lane, start, end, depth, frame, count, rows }] }  (transferred)
//   timeline-stack   { timeline, lane, time }      -> { stack }
//   timeline-regions { timeline, start, end, lanes } -> { regions }
//   timeline-fit     { timeline, start, end, maxCalls } -> { start, end, calls }
//   timeline-close   { timeline }
// Bars come back grouped by depth: `rows[d] .. rows[d + 1]` are depth d's
// items in time order, so the page finds the visible ones by binary search;
// the work here is proportional to the items (pixels times depth), never to
// the calls.

let current = null;  // { id, tl, lanes }
let nextId = 1;

function close() {
  if (!current) return;
  try { current.tl.close(); } catch { /* already gone with a trapped module */ }
  current = null;
}

function timelineOf(id) {
  if (!current || current.id !== id) throw new TypeError('the timeline was closed (a newer file or options replaced it)');
  return current.tl;
}

// Groups one lane's bars by depth (a stable counting sort; nothing to do when
// the core already gives them so) and returns fresh arrays plus row offsets.
export function byDepth(bars, maxDepth) {
  const n = bars.start.length;
  const rows = new Uint32Array(maxDepth + 2);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const d = bars.depth[i];
    rows[d + 1]++;
    if (i && d < bars.depth[i - 1]) sorted = false;
  }
  for (let d = 0; d <= maxDepth; d++) rows[d + 1] += rows[d];
  if (sorted) return { ...bars, rows };
  const at = rows.slice(0, maxDepth + 1);
  const out = {
    start: new Float64Array(n), end: new Float64Array(n), depth: new Uint32Array(n),
    frame: new Int32Array(n), count: new Uint32Array(n),
  };
  for (let i = 0; i < n; i++) {
    const j = at[bars.depth[i]]++;
    out.start[j] = bars.start[i];
    out.end[j] = bars.end[i];
    out.depth[j] = bars.depth[i];
    out.frame[j] = bars.frame[i];
    out.count[j] = bars.count[i];
  }
  return { ...out, rows };
}

// How many calls overlap [start, end) on every lane: the regions' counts.
function callsIn(tl, start, end) {
  let n = 0;
  for (const r of tl.regions(start, end)) n += r.calls;
  return n;
}

// The window around the middle of [start, end) holding at most maxCalls
// calls (the same window when it does): for speedscope's budget.
function fit(tl, start, end, maxCalls) {
  const calls = callsIn(tl, start, end);
  if (calls <= maxCalls) return { start, end, calls };
  const middle = Math.floor((start + end) / 2);
  let lo = 0;                       // half-width that fits (0: nothing yet)
  let hi = Math.ceil((end - start) / 2);
  let best = { start: middle, end: middle + 1, calls: callsIn(tl, middle, middle + 1) };
  while (hi - lo > 1) {
    const half = Math.floor((lo + hi) / 2);
    const a = Math.max(start, middle - half);
    const b = Math.min(end, middle + half);
    const n = callsIn(tl, a, b);
    if (n <= maxCalls) {
      lo = half;
      best = { start: a, end: b, calls: n };
    } else {
      hi = half;
    }
  }
  return best;
}

// data: the request; post(message, transfer); errorOf(err, names) the worker's error reply.
export async function timelineRequest(sp, data, post, errorOf) {
  const { id, type } = data;
  if (type === 'timeline-open') {
    close();
    const file = data.file;
    let last = 0;
    const onProgress = ({ phase, done, total }) => {
      const now = Date.now();
      if (now - last < 100 && done !== total) return;
      last = now;
      post({ id, type: 'progress', phase, done, total, unit: phase === 'reconstruct' ? 'ranks' : 'fraction' });
    };
    try {
      const o = data.options ?? {};
      const tl = await sp.openTimeline({ name: file.name, file },
        { ranks: o.ranks ?? null, include: o.include ?? null, exclude: o.exclude ?? null, onProgress });
      const lanes = tl.lanes.map((l) => ({ name: l.name, calls: l.calls, maxDepth: l.maxDepth, start: l.start, end: l.end }));
      const runEnd = lanes.reduce((e, l) => Math.max(e, l.end), 0) + 1;
      const totals = new Float64Array(tl.frames.length);
      for (const r of tl.regions(0, runEnd)) totals[r.frame] = r.calls;
      current = { id: nextId++, tl };
      post({ id, type: 'result', timeline: current.id, lanes, frames: [...tl.frames], totals, runEnd,
             originInRun: tl.originInRun }, [totals.buffer]);
    } catch (err) {
      post({ id, ...errorOf(err, [file.name]) });
    }
    return;
  }
  try {
    if (type === 'timeline-close') {
      if (current?.id === data.timeline) close();
      post({ id, type: 'result' });
    } else if (type === 'timeline-bars') {
      const tl = timelineOf(data.timeline);
      const bars = [];
      const transfer = [];
      for (const lane of data.lanes) {
        const b = byDepth(tl.bars(lane, data.start, data.end, data.width), tl.lanes[lane].maxDepth);
        bars.push({ lane, ...b });
        for (const k of ['start', 'end', 'depth', 'frame', 'count', 'rows']) transfer.push(b[k].buffer);
      }
      post({ id, type: 'result', bars, start: data.start, end: data.end, width: data.width }, [...new Set(transfer)]);
    } else if (type === 'timeline-stack') {
      post({ id, type: 'result', stack: timelineOf(data.timeline).stackAt(data.lane, data.time) });
    } else if (type === 'timeline-regions') {
      const tl = timelineOf(data.timeline);
      const regions = data.lanes ? tl.regions(data.start, data.end, data.lanes) : tl.regions(data.start, data.end);
      post({ id, type: 'result', regions });
    } else if (type === 'timeline-fit') {
      post({ id, type: 'result', ...fit(timelineOf(data.timeline), data.start, data.end, data.maxCalls) });
    }
  } catch (err) {
    post({ id, ...errorOf(err) });
  }
}
