// What reading source locations adds to opening a run: openTimeline of FILE
// with and without sourceLocations, each in a fresh Node process (so that
// neither inherits the other's memory), alternating, --repeat times each;
// prints the median open time of each and their ratio. issue 35: ≤ 1.05 at
// 20 M calls. Runs are made by bench/make_run.py (each region's row holds a
// file, line and text).
//
// usage: node bench/source-cost.mjs FILE [--repeat 5] [--ranks all|0,1]
//        (needs npm run build)
// One measurement: node bench/source-cost.mjs --one FILE SOURCES RANKS
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

async function one(file, sources, ranks) {
  const { createScopeSpeedscope } = await import('../dist/node.js');
  const sp = await createScopeSpeedscope();
  const bytes = fs.readFileSync(file);
  const t = performance.now();
  const tl = await sp.openTimeline(
    { name: path.basename(file), bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    { sourceLocations: sources, ranks: ranks === 'all' ? 'all' : ranks.split(',').map(Number) },
  );
  const seconds = (performance.now() - t) / 1000;
  const calls = tl.lanes.reduce((n, l) => n + l.calls, 0);
  const known = tl.frameSources.filter((s) => s.file !== null).length;
  console.log(JSON.stringify({ seconds, calls, known }));
}

if (args[0] === '--one') {
  await one(args[1], args[2] === 'true', args[3]);
} else {
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
  if (!file) {
    console.error('usage: node bench/source-cost.mjs FILE [--repeat 5] [--ranks all|0,1]');
    process.exit(2);
  }
  const repeat = Number(option('--repeat', 5));
  const ranks = option('--ranks', '0');
  const times = { false: [], true: [] };
  let seen = {};
  for (let i = 0; i < repeat; i++) {
    for (const sources of i % 2 ? [true, false] : [false, true]) {
      const run = spawnSync(process.execPath, [here, '--one', file, String(sources), ranks], { encoding: 'utf8' });
      if (run.status !== 0) {
        console.error(run.stderr);
        process.exit(1);
      }
      const m = JSON.parse(run.stdout.trim().split('\n').pop());
      times[sources].push(m.seconds);
      seen = { calls: m.calls, ...(sources ? { known: m.known } : {}), ...seen };
    }
  }
  const without = median(times.false);
  const withSources = median(times.true);
  console.log(
    `${path.basename(file)}: ${seen.calls.toLocaleString('en')} calls, ${seen.known} frames with a source; ` +
      `open without sources ${without.toFixed(2)} s, with ${withSources.toFixed(2)} s ` +
      `(median of ${repeat}): ratio ${(withSources / without).toFixed(3)}`,
  );
}
