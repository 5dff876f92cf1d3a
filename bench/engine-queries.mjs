#!/usr/bin/env node
// Every query the page sends, timed in the wasm engine (issue 33's "≤ 50 ms
// over the whole run"): opens FILE with every rank through the engine's
// dispatcher (sp.engineAnswer: request bytes → answer bytes, what the
// page's worker does between a message's arrival and its postMessage), then
// asks each query over the whole run at --width px (1,600 by default), the
// median and worst of --repeat (5) after one warm-up (its time: firstMs). `timeline-busy` and
// `timeline-band` (each rank's own depth) ask one group a rank (the
// collapsed bands); `timeline-aligned` and
// `timeline-lateness` ask of `step` (the Ranks panel's usual region) or
// --frame NAME, else of the region with the fewest calls (at least a lane's). With --other
// FILE2 it opens the pair as the page's Compare with… does and times
// `timeline-compare-regions` too. Prints one JSON object.
//   node bench/engine-queries.mjs FILE [--other FILE2] [--width 1600] [--repeat 5] [--frame NAME]
import { basename } from 'node:path';

import { createScopeSpeedscope } from '../dist/node.js';
import { decodeAnswer } from '../dist/wire.js';
import { benchArgs } from './args.mjs';

const { file, opt } = benchArgs(
  'node bench/engine-queries.mjs FILE [--other FILE2] [--width 1600] [--repeat 5] [--frame NAME]',
);
const other = opt('--other', null);
const width = Number(opt('--width', 1600));
const repeat = Number(opt('--repeat', 5));

const sp = await createScopeSpeedscope();
const input = (path) => ({ name: basename(path), path });
const ask = (request) => {
  const t = performance.now();
  const bytes = sp.engineAnswer(JSON.stringify(request));
  const ms = performance.now() - t;
  return { ms, bytes: bytes.length, answer: bytes };
};
const decoded = (bytes) => {
  const a = decodeAnswer(new Uint8Array(bytes));
  if (a.type !== 'result') throw new Error(`${a.type}: ${a.message}`);
  return a;
};

let t = performance.now();
const opened = other
  ? sp.engineRequest(
      { type: 'timeline-compare-open', options: { ranks: 'all' } },
      { inputs: { fileA: input(file), fileB: input(other) } },
    )
  : sp.engineRequest({ type: 'timeline-open', options: { ranks: 'all' } }, { inputs: { file: input(file) } });
const openS = (performance.now() - t) / 1000;
if (opened.type && opened.type !== 'result') throw new Error(opened.message);
const id = opened.timeline;
const start = 0;
const end = opened.runEnd;
const lanes = opened.lanes.map((_, i) => i);
const byRank = new Map();
opened.lanes.forEach((l, i) => byRank.set(l.rank, [...(byRank.get(l.rank) ?? []), i]));

const regions = decoded(ask({ type: 'timeline-regions', timeline: id, start, end }).answer).regions;
const wanted = opt('--frame', regions.some((r) => r.name === 'step') ? 'step' : null);
const region = wanted
  ? regions.find((r) => r.name === wanted)
  : regions.reduce((a, b) => (b.calls < a.calls && b.calls >= opened.lanes.length ? b : a));
const frame = region.frame;

const queries = {
  'timeline-bars': { lanes: byRank.size > 8 ? lanes.slice(0, 8) : lanes, width },
  'timeline-busy': { groups: [...byRank.values()], width },
  'timeline-band': { groups: [...byRank.values()], width, depth: null },
  'timeline-regions': {},
  'timeline-imbalance': {},
  'timeline-aligned': { frame, maxColumns: width },
  'timeline-lateness': { frame },
  'timeline-stack': { lane: 0, time: Math.floor(end / 2) },
};
if (other) queries['timeline-compare-regions'] = {};

const out = {
  file: basename(file),
  other: other ? basename(other) : undefined,
  calls: opened.lanes.reduce((n, l) => n + l.calls, 0),
  lanes: opened.lanes.length,
  openS: Number(openS.toFixed(2)),
  region: `${region.name} (${region.calls} calls)`,
  width,
  queries: {},
};
for (const [type, fields] of Object.entries(queries)) {
  const request = { type, timeline: id, start, end, ...fields };
  const first = ask(request); // the warm-up (timed too: the first of its kind), and it must answer
  decoded(first.answer);
  const times = [];
  let bytes = 0;
  for (let i = 0; i < repeat; i++) {
    const r = ask(request);
    times.push(r.ms);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  out.queries[type] = {
    firstMs: Number(first.ms.toFixed(1)),
    medianMs: Number(times[times.length >> 1].toFixed(1)),
    worstMs: Number(times.at(-1).toFixed(1)),
    answerBytes: bytes,
  };
}
console.log(JSON.stringify(out, null, 1));
