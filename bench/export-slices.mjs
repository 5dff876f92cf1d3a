#!/usr/bin/env node
// A download of an open timeline (timeline-export) in the wasm engine
// inside Node: at once, then in slices (options.slices, then
// timeline-export-more) as the page asks it, the bytes only counted. Prints
// each way's time and, in slices, the longest slice (the longest a
// question of the page waits behind the download) and how many. Issue 33:
// long work in slices.
//
//   node bench/export-slices.mjs FILE [--ranks all|0] [--slice EVENTS]
import { basename } from 'node:path';

import { createScopeSpeedscope } from '../dist/node.js';
import { benchArgs } from './args.mjs';

const { file, opt } = benchArgs('node bench/export-slices.mjs FILE [--ranks all|0] [--slice EVENTS]');
const ranks = opt('--ranks', '0') === 'all' ? 'all' : [Number(opt('--ranks', '0'))];
const slice = Number(opt('--slice', '0')) || true;
const sp = await createScopeSpeedscope();
const inputs = { inputs: { file: { name: basename(file), path: file } } };
let bytes = 0;
const sink = {
  open() {},
  write(chunk) {
    bytes += chunk.byteLength;
  },
  close() {},
  commit() {},
  abort() {},
};
const ask = (request, withSink = false) => {
  const answer = sp.engineRequest(request, withSink ? { ...inputs, sink } : inputs);
  if (answer.type !== 'result') throw new Error(`${request.type}: ${answer.type}: ${answer.message}`);
  return answer;
};
const ms = (t) => Number((performance.now() - t).toFixed(1));

const { timeline } = ask({ type: 'timeline-open', options: { ranks } });
for (let left = 1; left > 0;) left = ask({ type: 'timeline-check', timeline, calls: 4e6 }).left;
let t = performance.now();
ask({ type: 'timeline-export', timeline, options: {} }, true);
const atOnceMs = ms(t);
const atOnceBytes = bytes;
bytes = 0;
const slices = [];
t = performance.now();
let s = performance.now();
let answer = ask({ type: 'timeline-export', timeline, options: { slices: slice } }, true);
slices.push(ms(s));
while (answer.pending) {
  s = performance.now();
  answer = ask({ type: 'timeline-export-more', exporting: answer.exporting }, true);
  slices.push(ms(s));
}
if (bytes !== atOnceBytes) throw new Error(`the sliced download wrote ${bytes} bytes, not ${atOnceBytes}`);
console.log(
  JSON.stringify({
    file: basename(file),
    ranks,
    bytes,
    atOnceMs,
    slicedMs: ms(t),
    slices: slices.length,
    longestSliceMs: Math.max(...slices),
    medianSliceMs: slices.toSorted((a, b) => a - b)[slices.length >> 1],
  }),
);
