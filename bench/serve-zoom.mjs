#!/usr/bin/env node
// The bytes a zoom costs through an SSH tunnel (docs/command-line.md, "On a
// cluster"): against a running `scope-speedscope serve RUN.h5`, opens every
// rank and zooms from the whole run in, 40 steps of 20 %, each step asking
// what the page asks (timeline-bars and timeline-busy of every lane at
// 1,600 px); prints the bytes of a step's answers and their time.
//   node bench/serve-zoom.mjs 'http://127.0.0.1:PORT/?token=...'
import { decodeAnswer } from '../src/js/wire.js';

const url = process.argv[2];
if (!url) {
  console.error('usage: node bench/serve-zoom.mjs URL (the URL scope-speedscope serve RUN.h5 printed)');
  process.exit(2);
}
const u = new URL(url);
const base = `${u.origin}/`;
const token = u.searchParams.get('token');
const post = async (req) => {
  const t = performance.now();
  const res = await fetch(`${base}engine?token=${token}`, {
    method: 'POST',
    body: JSON.stringify(req),
  });
  const buf = new Uint8Array(await res.arrayBuffer());
  return { a: decodeAnswer(buf), bytes: buf.length, ms: performance.now() - t };
};
const open = await post({ type: 'timeline-open', options: { ranks: 'all' } });
const tl = open.a.timeline;
const lanes = open.a.lanes.map((_, i) => i);
const end = open.a.runEnd;
console.log(
  'open bytes',
  open.bytes,
  'lanes',
  lanes.length,
  'calls',
  open.a.lanes.reduce((n, l) => n + l.calls, 0),
);
const sizes = [];
let s = 0,
  e = end;
for (let i = 0; i < 40; i++) {
  const r = await post({ type: 'timeline-bars', timeline: tl, lanes, start: s, end: e, width: 1600 });
  const b = await post({
    type: 'timeline-busy',
    timeline: tl,
    groups: lanes.map((l) => [l]),
    start: s,
    end: e,
    width: 1600,
  });
  sizes.push([r.bytes + b.bytes, r.ms + b.ms]);
  const mid = (s + e) / 2,
    half = ((e - s) / 2) * 0.8;
  s = mid - half;
  e = mid + half;
}
const bytes = sizes.map((x) => x[0]).sort((a, b) => a - b),
  ms = sizes.map((x) => x[1]).sort((a, b) => a - b);
console.log(
  'zoom step (bars+busy, 4 lanes, 1600 px): bytes median',
  bytes[20],
  'max',
  bytes[39],
  '; ms median',
  ms[20].toFixed(1),
  'max',
  ms[39].toFixed(1),
);
