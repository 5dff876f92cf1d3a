#!/usr/bin/env node
// The overview of every rank of a run (timeline-overview) in the wasm
// engine inside Node: at once, then in slices (options.slices, then
// timeline-overview-more) as the page asks it. Prints each way's time and,
// in slices, the longest slice (the longest a question of the page waits
// behind the overview) and how many slices. Issue 33: long work in slices.
//
//   node bench/overview-slices.mjs FILE [--slice N] [--runs R]
import { basename } from 'node:path';

import { createScopeSpeedscope } from '../dist/node.js';
import { benchArgs } from './args.mjs';

const { file, opt } = benchArgs('node bench/overview-slices.mjs FILE [--slice N] [--runs R]');
const slice = Number(opt('--slice', '0')) || true;
const runs = Number(opt('--runs', '2'));
const sp = await createScopeSpeedscope();
const inputs = { inputs: { file: { name: basename(file), path: file } } };
const ask = (request) => {
  const answer = sp.engineRequest(request, inputs);
  if (answer.type !== 'result') throw new Error(`${request.type}: ${answer.type}: ${answer.message}`);
  return answer;
};
const ms = (t) => Number((performance.now() - t).toFixed(1));

const opened = ask({ type: 'timeline-open', options: { ranks: 'all' } });
const timeline = opened.timeline;
const out = { file: basename(file), calls: opened.lanes.reduce((a, l) => a + l.calls, 0), runs: [] };
for (let r = 0; r < runs; ++r) {
  let t = performance.now();
  const whole = ask({ type: 'timeline-overview', timeline, options: { maxEvents: 1e6 } });
  const atOnceMs = ms(t);
  const slices = [];
  t = performance.now();
  let s = performance.now();
  let answer = ask({ type: 'timeline-overview', timeline, options: { maxEvents: 1e6, slices: slice } });
  slices.push(ms(s));
  while (answer.pending) {
    s = performance.now();
    answer = ask({ type: 'timeline-overview-more', overviewing: answer.overviewing });
    slices.push(ms(s));
  }
  const slicedMs = ms(t);
  if (JSON.stringify(answer.overview) !== JSON.stringify(whole.overview)) throw new Error('the overviews differ');
  out.runs.push({
    atOnceMs,
    slicedMs,
    slices: slices.length,
    firstSliceMs: slices[0],
    longestSliceMs: Math.max(...slices),
    medianSliceMs: slices.toSorted((a, b) => a - b)[slices.length >> 1],
  });
}
console.log(JSON.stringify(out, null, 1));
