// The whole-job benchmark in the wasm module (Node): openTimeline with every
// rank, memory held, then imbalance and alignedCalls (of the region with the
// fewest calls) over the whole run (median of 5; alignedCalls into its last
// answer, as the page asks, and into fresh memory) and over windows of 1/1000
// of it (median of 51), and busy for every rank at 1,400 px (what the
// collapsed bands paint: one call a rank). Prints one JSON object; a job that does not fit
// prints the error the package gave. Run by bench/bench.py.
//
// usage: node bench/ranks_wasm.mjs FILE
import { createScopeSpeedscope } from '../dist/node.js';
const file = process.argv[2];
const sp = await createScopeSpeedscope();
let t = performance.now();
try {
  const tl = await sp.openTimeline({ name: file, path: file }, { ranks: 'all' });
  const open = (performance.now() - t) / 1000;
  const calls = tl.lanes.reduce((n, l) => n + l.calls, 0);
  const end = Math.max(...tl.lanes.map((l) => l.end)) + 1;
  const time = (fn, n) => {
    const v = [];
    for (let i = 0; i < n; i++) {
      const a = performance.now();
      fn(i);
      v.push(performance.now() - a);
    }
    v.sort((x, y) => x - y);
    return v[v.length >> 1];
  };
  const span = Math.floor(end / 1000);
  let lent; // alignedCalls' last answer, lent to the next (as the page's worker does)
  const regions = tl.regions(0, end);
  const fewest = regions.reduce((a, b) => (b.calls < a.calls ? b : a));
  const byRank = new Map();
  tl.lanes.forEach((l, i) => byRank.set(l.rank, [...(byRank.get(l.rank) ?? []), i]));
  const bands = (a, z) => {
    for (const lanes of byRank.values()) tl.busy(lanes, a, z, 1400);
  };
  const out = {
    calls,
    open_s: open,
    held_B_per_call: tl.memoryBytes / calls,
    wasm_memory_GB: sp.wasmMemoryBytes / 1e9,
    imbalance_whole_ms: time(() => tl.imbalance(0, end), 5),
    imbalance_window_ms: time(
      (i) => tl.imbalance((i * 7919 * span) % (end - span), ((i * 7919 * span) % (end - span)) + span),
      51,
    ),
    aligned_whole_ms: time(() => {
      lent = tl.alignedCalls(fewest.frame, 0, end, lent);
    }, 5),
    aligned_whole_fresh_ms: time(() => tl.alignedCalls(fewest.frame, 0, end), 5),
    aligned_window_ms: time(
      (i) => tl.alignedCalls(fewest.frame, (i * 7919 * span) % (end - span), ((i * 7919 * span) % (end - span)) + span),
      51,
    ),
    busy_bands_whole_ms: time(() => bands(0, end), 5),
    busy_bands_window_ms: time((i) => {
      const a = (i * 7919 * span) % (end - span);
      bands(a, a + span);
    }, 11),
  };
  console.log(JSON.stringify(out));
} catch (e) {
  console.log(JSON.stringify({ error: `${e.name}: ${e.message}`, after_s: (performance.now() - t) / 1000 }));
}
