// Comparing two runs in the wasm module (Node), against opening one: the
// time to open run A alone as a timeline and its memory (the module's growth
// and the columns held), then sp.compareRuns(A, B) (both timelines and the
// alignment) likewise, and aligned() of B's busiest lane at 2,000 px over
// the whole run and over windows of 1/1000 of it (median of 21). Prints one
// JSON object. Run by bench/bench.py ("compare"), each in a fresh process.
//
// usage: node bench/compare_wasm.mjs one|both A.h5 B.h5
import { createScopeSpeedscope } from '../dist/node.js';

const [mode, a, b] = process.argv.slice(2);
const sp = await createScopeSpeedscope();
const base = sp.wasmMemoryBytes;
const input = (file) => ({ name: file, path: file });
const median = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
let t = performance.now();
if (mode === 'one') {
  const tl = await sp.openTimeline(input(a));
  const open_s = (performance.now() - t) / 1000;
  console.log(JSON.stringify({ open_s, held_MB: tl.memoryBytes / 1e6, grew_MB: (sp.wasmMemoryBytes - base) / 1e6 }));
} else {
  const cmp = await sp.compareRuns(input(a), input(b));
  const open_s = (performance.now() - t) / 1000;
  const held = cmp.a.memoryBytes + cmp.b.memoryBytes + cmp.memoryBytes;
  let lane = 0;
  cmp.b.lanes.forEach((l, i) => {
    if (l.calls > cmp.b.lanes[lane].calls) lane = i;
  });
  const end = cmp.b.lanes[lane].end + 1;
  const span = Math.max(1, Math.floor(end / 1000));
  const times = (fn, n) => {
    const v = [];
    for (let i = 0; i < n; i++) {
      t = performance.now();
      fn(i);
      v.push(performance.now() - t);
    }
    return median(v);
  };
  console.log(
    JSON.stringify({
      open_s,
      held_MB: held / 1e6,
      alignment_MB: cmp.memoryBytes / 1e6,
      grew_MB: (sp.wasmMemoryBytes - base) / 1e6,
      aligned_whole_ms: times(() => cmp.aligned(lane, 0, end, 2000), 5),
      aligned_window_ms: times((i) => {
        const s = (i * 7919 * span) % (end - span);
        cmp.aligned(lane, s, s + span, 2000);
      }, 21),
    }),
  );
}
