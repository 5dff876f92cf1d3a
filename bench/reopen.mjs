#!/usr/bin/env node
// The page's way to every rank, in the wasm engine inside Node: rank 0
// opened provisionally, made exact (timeline-complete), every other rank
// checked a slice at a time (timeline-check, as a download does), then
// every rank opened with options.sameFileAs (read a group of ranks at a
// time) or, with --at-once, without it (one read of every rank, as before);
// --slices: in slices (options.slices, then timeline-open-more), rank 0's
// bars asked between slices as the page's zooming would ask them, and the
// longest slice (the longest a question waits) printed; --group-calls N:
// slices of N calls a group (options.slices: N) instead of the engine's;
// REOPEN_LOG=1 prints the module's memory after each slice.
// Prints the time of each step, the module's memory and the process's peak
// (VmHWM) after each: the module never shrinks, so its memory after the
// open of every rank is what the page's worker holds from then on.
//
//   node bench/reopen.mjs FILE [--at-once | --slices [--group-calls N]]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { createScopeSpeedscope } from '../dist/node.js';
import { benchArgs } from './args.mjs';

const { file, args, opt } = benchArgs('node bench/reopen.mjs FILE [--at-once | --slices [--group-calls N]]');
const atOnce = args.includes('--at-once');
const groupCalls = Number(opt('--group-calls', '0'));
const slices = args.includes('--slices') && (groupCalls || true);
const sp = await createScopeSpeedscope();
const inputs = { inputs: { file: { name: basename(file), path: file } } };
const hwm = () => Number(readFileSync('/proc/self/status', 'utf8').match(/VmHWM:\s+(\d+) kB/)[1]) * 1024;
const gb = (b) => Number((b / 1e9).toFixed(2));
const out = { file: basename(file), way: atOnce ? 'at once' : 'in groups', steps: [] };
const step = (name, request) => {
  const t = performance.now();
  const answer = sp.engineRequest(request, inputs);
  if (answer.type && answer.type !== 'result') throw new Error(`${name}: ${answer.type}: ${answer.message}`);
  out.steps.push({
    name,
    s: Number(((performance.now() - t) / 1000).toFixed(2)),
    wasmGB: gb(sp.wasmMemoryBytes),
    peakGB: gb(hwm()),
  });
  return answer;
};

const first = step('rank 0, provisional', {
  type: 'timeline-open',
  options: { ranks: [0], provisional: true, sourceLocations: true },
});
step('made exact', { type: 'timeline-complete', timeline: first.timeline });
for (let left = 1, n = 0; left > 0; ++n) {
  left = step(`check ${n}`, { type: 'timeline-check', timeline: first.timeline, calls: 4_000_000 }).left;
}
const checks = out.steps.filter((s) => s.name.startsWith('check'));
out.steps = [
  ...out.steps.filter((s) => !s.name.startsWith('check')),
  { ...checks.at(-1), name: `${checks.length} checks`, s: Number(checks.reduce((a, c) => a + c.s, 0).toFixed(2)) },
];
const began = performance.now();
let all = step('every rank', {
  type: 'timeline-open',
  options: {
    ranks: 'all',
    sourceLocations: true,
    ...(atOnce ? {} : { sameFileAs: first.timeline }),
    ...(slices ? { slices } : {}),
  },
});
if (slices) {
  const sliceS = [all.pending ? out.steps.at(-1).s : null];
  const barsMs = [];
  while (all.pending) {
    const t = performance.now();
    sp.engineRequest(
      { type: 'timeline-bars', timeline: first.timeline, lanes: [0], start: 0, end: first.runEnd, width: 1600 },
      inputs,
    );
    barsMs.push(performance.now() - t);
    all = step(`slice ${sliceS.length}`, { type: 'timeline-open-more', opening: all.opening });
    sliceS.push(out.steps.at(-1).s);
    if (process.env.REOPEN_LOG) console.error(`slice ${sliceS.length - 1}: wasm ${out.steps.at(-1).wasmGB} GB`);
  }
  out.slices = sliceS.length;
  out.longestSliceS = Math.max(...sliceS);
  out.barsBetweenSlicesMs = Math.max(...barsMs).toFixed(1);
  out.everyRankS = Number(((performance.now() - began) / 1000).toFixed(2));
  out.steps = out.steps.filter((x) => !x.name.startsWith('slice'));
}
out.calls = all.lanes.reduce((a, l) => a + l.calls, 0);
out.memoryBytes = all.memoryBytes;
out.heldBytesACall = Number((all.memoryBytes / out.calls).toFixed(2));
out.wasmBytesACall = Number((sp.wasmMemoryBytes / out.calls).toFixed(2));
console.log(JSON.stringify(out, null, 1));
