// Who waits for whom, through the package and the Node CLI: timeline.imbalance
// and timeline.alignedCalls against a naive model of the exported document
// on every multi-rank fixture case (seeded windows), pinned answers worked
// out by hand on tests/fixtures/h5/ranks_imbalance_s3.h5 (make_ranks.py
// fixture), openTimeline's ranks: 'all', and `scope-speedscope imbalance`
// printing the native CLI's bytes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { cases, inputPath, itPrintsWhatTheNativeCliPrints, nodeCli } from './helpers.mjs';
import { createScopeSpeedscope } from '../../dist/node.js';
import { rng } from './seeded.mjs';
import { modelOf } from './timeline-model.mjs';

const read = (file) => ({ name: path.basename(file), bytes: new Uint8Array(fs.readFileSync(file)) });
const imbalanceFile = inputPath('ranks_imbalance_s3.h5');

// ---- the model: the document's calls, by rank ----------------------------------------

const ranksOf = (model) => [...new Set(model.map((l) => l.rank))].sort((a, b) => a - b);
// A rank's lanes, each distinct lane once (a rank listed twice repeats them).
function lanesOf(model, rank) {
  const seen = new Set();
  return model.filter((l) => l.rank === rank && !seen.has(l.name) && seen.add(l.name));
}

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// A lane's covered time of each frame in [a, z): the union of its calls cut
// to the window, counted by sorting the pieces.
function coveredOf(lane, a, z, into) {
  const pieces = new Map();
  for (const c of lane.calls) {
    const ce = c.e > c.s ? c.e : c.s + 1;
    if (!(c.s < z && ce > a)) continue;
    if (!pieces.has(c.frame)) pieces.set(c.frame, []);
    pieces.get(c.frame).push([Math.max(c.s, a), Math.min(c.e, z)]);
  }
  for (const [frame, list] of pieces) {
    list.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let total = 0;
    let hi = -Infinity;
    for (const [s, e] of list) {
      if (e <= s) continue;
      if (s < hi) {
        if (e > hi) total += e - hi;
      } else {
        total += e - s;
      }
      hi = Math.max(hi, e);
    }
    into.set(frame, (into.get(frame) ?? 0) + total);
  }
}

function modelImbalance(model, frames, a, z) {
  const ranks = ranksOf(model);
  const values = new Map();
  ranks.forEach((rank, r) => {
    const covered = new Map();
    for (const lane of lanesOf(model, rank)) coveredOf(lane, a, z, covered);
    for (const [frame, total] of covered) {
      if (!values.has(frame)) values.set(frame, new Array(ranks.length).fill(0));
      values.get(frame)[r] = total;
    }
  });
  const rows = [...values.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([frame, v]) => {
      const max = Math.max(...v);
      const mean = v.reduce((n, x) => n + x, 0) / v.length;
      return {
        frame,
        ranks: ranks.length,
        min: Math.min(...v),
        median: median(v),
        mean,
        max,
        imbalance: max > 0 ? (max - mean) / max : 0,
        slowestRank: ranks[v.indexOf(max)],
        name: frames[frame],
      };
    });
  return rows.sort((x, y) => y.max - y.mean - (x.max - x.mean)); // stable: frame order on ties
}

function modelAligned(model, frame, a, z) {
  const ranks = ranksOf(model);
  const numbered = ranks.map((rank) => {
    const all = [];
    lanesOf(model, rank).forEach((lane, li) => {
      for (const c of lane.calls) if (c.frame === frame) all.push({ ...c, li });
    });
    return all.sort((x, y) => x.s - y.s || x.li - y.li || x.depth - y.depth);
  });
  const counts = numbered.map((n) => n.length);
  const common = Math.min(...counts);
  const out = { k: [], rank: [], start: [], end: [], lateness: [], excess: [], ranks, counts, common };
  for (let k = 0; k < common; k++) {
    const at = numbered.map((n) => n[k]);
    if (!at.some((c) => c.s >= a && c.s < z)) continue;
    const ms = median(at.map((c) => c.s));
    const md = median(at.map((c) => c.e - c.s));
    at.forEach((c, r) => {
      out.k.push(k);
      out.rank.push(ranks[r]);
      out.start.push(c.s);
      out.end.push(c.e);
      out.lateness.push(c.s - ms);
      out.excess.push(c.e - c.s - md);
    });
  }
  return out;
}

const plain = (aligned) =>
  Object.fromEntries(Object.entries(aligned).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v) : v]));

// ---- the package ---------------------------------------------------------------------

const multiRank = cases.filter((c) => !c.error && c.inputs.length === 1 && new Set(c.ranks ?? [0]).size > 1);

// Per pixel, the lanes' top-level time within it over its length (the
// instant at its start when empty), averaged over the lanes.
function modelBusy(model, lanes, a, z, width) {
  const sum = new Float64Array(width);
  for (const l of lanes) {
    for (let p = 0; p < width; p++) {
      const pa = a + Math.floor(((z - a) * p) / width);
      let pz = a + Math.floor(((z - a) * (p + 1)) / width);
      if (pz === pa) pz = pa + 1;
      let ns = 0;
      for (const c of model[l].calls) {
        if (c.depth === 0) ns += Math.max(0, Math.min(c.e, pz) - Math.max(c.s, pa));
      }
      sum[p] += ns / (pz - pa);
    }
  }
  return Float32Array.from(sum, (v) => v / lanes.length);
}

describe('timeline.imbalance, timeline.alignedCalls and timeline.busy against the model', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('has multi-rank fixture cases', () => assert.ok(multiRank.length >= 3, `${multiRank.length}`));

  for (const c of [
    ...multiRank,
    { name: 'ranks_imbalance_s3', inputs: ['ranks_imbalance_s3.h5'], ranks: [3, 1, 0, 2, 1] },
  ]) {
    it(`case ${c.name}`, async () => {
      const input = read(inputPath(c.inputs[0]));
      const options = { ranks: c.ranks, include: c.include, exclude: c.exclude };
      const doc = sp.buildSpeedscopeDocument(input, options);
      const tl = await sp.openTimeline(input, options);
      try {
        const model = modelOf(doc);
        assert.deepEqual(
          tl.lanes.map((l) => l.rank),
          model.map((l) => l.rank),
        );
        const runEnd = Math.max(...tl.lanes.map((l) => l.end));
        const random = rng(c.name.length * 104729 + 7);
        const instant = () => Math.floor(random() * (runEnd + 10)) - 5;
        let lent;
        for (let round = 0; round < 20; round++) {
          let a = -1;
          let z = runEnd + 2;
          if (round % 3 === 1) {
            a = instant();
            z = a + 1 + Math.floor(random() * (runEnd / 20 + 2));
          } else if (round % 3 === 2) {
            a = instant();
            z = Math.max(a + 1, instant());
          }
          assert.deepEqual(tl.imbalance(a, z), modelImbalance(model, tl.frames, a, z), `imbalance [${a}, ${z})`);
          const frame = Math.floor(random() * tl.frames.length);
          const got = tl.alignedCalls(frame, a, z);
          for (const key of ['k', 'rank', 'start', 'end', 'lateness', 'excess']) {
            assert.ok(got[key] instanceof Float64Array, key);
          }
          assert.deepEqual(plain(got), modelAligned(model, frame, a, z), `alignedCalls ${frame} [${a}, ${z})`);
          // The same into the memory of the round before's answer.
          lent = tl.alignedCalls(frame, a, z, lent);
          assert.deepEqual(plain(lent), plain(got), `alignedCalls ${frame} [${a}, ${z}) into an earlier answer`);
          const ranks = ranksOf(model);
          const rank = ranks[Math.floor(random() * ranks.length)];
          const lanes = tl.lanes.flatMap((l, i) => (l.rank === rank ? [i] : []));
          const width = 1 + Math.floor(random() * 400);
          const busy = tl.busy(lanes, a, z, width);
          assert.ok(busy instanceof Float32Array);
          assert.deepEqual(busy, modelBusy(model, lanes, a, z, width), `busy rank ${rank} [${a}, ${z}) ${width} px`);
        }
      } finally {
        tl.close();
      }
    });
  }
});

describe('who waits for whom on the pinned run', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it("ranks: 'all' opens every rank, and the imbalance is the one worked out by hand", async () => {
    const tl = await sp.openTimeline(read(imbalanceFile), { ranks: 'all' });
    try {
      assert.deepEqual(
        tl.lanes.map((l) => [l.name, l.rank, l.calls]),
        [0, 1, 2, 3].map((r) => [`rank ${r}`, r, 15]),
      );
      assert.deepEqual(tl.imbalance(0, 5000), [
        {
          frame: 1,
          ranks: 4,
          min: 3000,
          median: 3000,
          mean: 3075,
          max: 3300,
          imbalance: 225 / 3300,
          slowestRank: 2,
          name: 'solve',
        },
        {
          frame: 2,
          ranks: 4,
          min: 1700,
          median: 2000,
          mean: 1925,
          max: 2000,
          imbalance: 75 / 2000,
          slowestRank: 0,
          name: 'exchange',
        },
        {
          frame: 0,
          ranks: 4,
          min: 5000,
          median: 5000,
          mean: 5000,
          max: 5000,
          imbalance: 0,
          slowestRank: 0,
          name: 'step',
        },
      ]);
      // Step 3 of solve: rank 2 ran 300 ns longer; every rank started it together.
      assert.deepEqual(plain(tl.alignedCalls(1, 3000, 3001)), {
        k: [3, 3, 3, 3],
        rank: [0, 1, 2, 3],
        start: [3000, 3000, 3000, 3000],
        end: [3600, 3600, 3900, 3600],
        lateness: [0, 0, 0, 0],
        excess: [0, 0, 300, 0],
        ranks: [0, 1, 2, 3],
        counts: [5, 5, 5, 5],
        common: 5,
      });
      // ...so rank 2 reached the exchange 300 ns late, and waited 300 ns less.
      const exchange = plain(tl.alignedCalls(2, 3000, 4000));
      assert.deepEqual(exchange.lateness, [0, 0, 300, 0]);
      assert.deepEqual(exchange.excess, [0, 0, -300, 0]);
    } finally {
      tl.close();
    }
  });

  it('alignedCalls into an earlier answer writes in its memory, each column in its own', async () => {
    const tl = await sp.openTimeline(read(imbalanceFile), { ranks: 'all' });
    try {
      const keys = ['k', 'rank', 'start', 'end', 'lateness', 'excess'];
      const whole = tl.alignedCalls(1, 0, 5000);
      assert.equal(whole.k.length, 20);
      const buffers = keys.map((key) => whole[key].buffer);
      // A smaller answer fits in the whole one's memory: its buffers, from the start.
      const step3 = tl.alignedCalls(1, 3000, 3001, whole);
      assert.deepEqual(
        keys.map((key) => step3[key].buffer),
        buffers,
      );
      assert.deepEqual(
        keys.map((key) => [step3[key].byteOffset, step3[key].length]),
        keys.map(() => [0, 4]),
      );
      assert.deepEqual(plain(step3), plain(tl.alignedCalls(1, 3000, 3001)));
      // ...and the whole one again fits in the buffers the small answer views.
      const again = tl.alignedCalls(1, 0, 5000, step3);
      assert.deepEqual(
        keys.map((key) => again[key].buffer),
        buffers,
      );
      assert.deepEqual(plain(again), plain(tl.alignedCalls(1, 0, 5000)));
      // Too small, or one buffer under several columns: fresh arrays, never shared.
      const one = new Float64Array(64);
      const shared = Object.fromEntries(keys.map((key) => [key, one]));
      const got = tl.alignedCalls(1, 0, 5000, shared);
      assert.equal(new Set(keys.map((key) => got[key].buffer)).size, 6);
      assert.equal(got.k.buffer, one.buffer);
      assert.deepEqual(plain(got), plain(tl.alignedCalls(1, 0, 5000)));
      const tiny = Object.fromEntries(keys.map((key) => [key, new Float64Array(1)]));
      const fresh = tl.alignedCalls(1, 0, 5000, tiny);
      assert.ok(keys.every((key) => fresh[key].buffer !== tiny[key].buffer));
      assert.deepEqual(plain(fresh), plain(tl.alignedCalls(1, 0, 5000)));
      // An answer with nothing in the window is empty into any memory.
      assert.deepEqual(plain(tl.alignedCalls(1, 9000, 9001, fresh)), plain(tl.alignedCalls(1, 9000, 9001)));
      assert.throws(() => tl.alignedCalls(1, 0, 10, []), {
        name: 'TypeError',
        message:
          'scope-speedscope: timeline.alignedCalls: into.k must be a Float64Array (into: an earlier answer of alignedCalls), not undefined',
      });
      assert.throws(() => tl.alignedCalls(1, 0, 10, null), {
        name: 'TypeError',
        message: 'scope-speedscope: timeline.alignedCalls: into must be an earlier answer of alignedCalls, not null',
      });
      assert.throws(() => tl.alignedCalls(1, 0, 10, { ...whole, excess: [1, 2] }), {
        name: 'TypeError',
        message:
          'scope-speedscope: timeline.alignedCalls: into.excess must be a Float64Array (into: an earlier answer of alignedCalls), not an array',
      });
    } finally {
      tl.close();
    }
  });

  it('bad arguments are TypeErrors and RangeErrors naming the query', async () => {
    const tl = await sp.openTimeline(read(imbalanceFile), { ranks: [0, 1] });
    try {
      assert.throws(() => tl.imbalance(5, 5), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.imbalance: end (5) must be after start (5)',
      });
      assert.throws(() => tl.alignedCalls(3, 0, 10), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.alignedCalls: frame 3 is out of range (the timeline has 3 frames)',
      });
      assert.throws(() => tl.alignedCalls('solve', 0, 10), {
        name: 'TypeError',
        message:
          'scope-speedscope: timeline.alignedCalls: frame must be an integer (an index into timeline.frames), not a string ("solve")',
      });
      assert.throws(() => tl.imbalance(0, Infinity), { name: 'TypeError' });
      assert.throws(() => tl.busy([], 0, 10, 4), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.busy: no lanes',
      });
      assert.throws(() => tl.busy(undefined, 0, 10, 4), {
        name: 'TypeError',
        message: 'scope-speedscope: timeline.busy: lanes must be an array of lane indices, not undefined',
      });
      assert.throws(() => tl.busy([2], 0, 10, 4), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.busy: lane 2 is out of range (the timeline has 2 lanes)',
      });
    } finally {
      tl.close();
    }
    await assert.rejects(sp.openTimeline(read(imbalanceFile), { ranks: 'some' }), {
      name: 'TypeError',
      message: `scope-speedscope: ranks must be 'all' or an array of integers, not a string ("some")`,
    });
  });
});

describe("the Ranks panel's heatmap and lateness, built in the core", () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('alignedGrid: one step a column is alignedCalls cell by cell; one column holds every step', async () => {
    const tl = await sp.openTimeline(read(imbalanceFile), { ranks: 'all' });
    try {
      const a = tl.alignedCalls(1, 0, 5000); // solve: 5 steps on 4 ranks
      const rows = a.ranks.length;
      const steps = a.k.length / rows;
      assert.deepEqual([rows, steps], [4, 5]);
      const g = tl.alignedGrid(1, 0, 5000, 100);
      assert.deepEqual([g.rows, g.cols, g.group, g.ranks, g.counts, g.common], [4, 5, 1, a.ranks, a.counts, a.common]);
      for (let j = 0; j < steps; j++) {
        const onAll = [...Array(rows).keys()].map((r) => j * rows + r);
        assert.equal(g.kFirst[j], a.k[j * rows]);
        assert.equal(g.kLast[j], a.k[j * rows]);
        for (let r = 0; r < rows; r++) {
          const i = j * rows + r;
          const cell = r * g.cols + j;
          assert.equal(g.k[cell], a.k[i]);
          assert.equal(g.excess[cell], a.excess[i]);
          assert.equal(g.duration[cell], a.end[i] - a.start[i]);
          assert.equal(g.spanStart[cell], Math.min(...onAll.map((q) => a.start[q])));
          assert.equal(g.spanEnd[cell], Math.max(...onAll.map((q) => a.end[q])));
        }
      }
      // One column: each rank's cell is step 3 of solve on rank 2 (300 ns
      // over the median), the others' first step (none strays).
      const one = tl.alignedGrid(1, 0, 5000, 1);
      assert.deepEqual([one.cols, one.group, one.kFirst[0], one.kLast[0]], [1, 5, 0, 4]);
      assert.deepEqual(Array.from(one.k), [0, 0, 3, 0]);
      assert.deepEqual(Array.from(one.excess), [0, 0, 300, 0]);
      assert.ok(one.k instanceof Float64Array);
      const late = tl.meanLateness(2, 0, 5000); // exchange: rank 2 starts it late once
      assert.deepEqual(late.ranks, [0, 1, 2, 3]);
      const ex = tl.alignedCalls(2, 0, 5000);
      const mean = (r) => {
        let sum = 0;
        let n = 0;
        for (let i = 0; i < ex.k.length; i++) if (ex.rank[i] === r) ((sum += ex.lateness[i]), n++);
        return sum / n;
      };
      assert.deepEqual(late.lateness, [0, 1, 2, 3].map(mean));
      assert.ok(late.lateness[2] > 0, `${late.lateness}`);
      assert.deepEqual(tl.meanLateness(1, 9000, 9001), { ranks: [0, 1, 2, 3], lateness: [NaN, NaN, NaN, NaN] });
      assert.throws(() => tl.alignedGrid(1, 0, 10, 0), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.alignedGrid: maxColumns 0 is out of range (at least 1)',
      });
      assert.throws(() => tl.alignedGrid(1, 0, 10, 1.5), {
        name: 'TypeError',
        message: 'scope-speedscope: timeline.alignedGrid: maxColumns must be an integer, not a number (1.5)',
      });
      assert.throws(() => tl.meanLateness(3, 0, 10), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.meanLateness: frame 3 is out of range (the timeline has 3 frames)',
      });
    } finally {
      tl.close();
    }
    assert.throws(() => tl.alignedGrid(1, 0, 10, 4), { name: 'TypeError' });
  });
});

// ---- the Node CLI --------------------------------------------------------------------

describe('scope-speedscope imbalance: the Node CLI prints what the native CLI prints', () => {
  const run = (command, args) => spawnSync(command, args, { encoding: 'utf8' });
  const argSets = [
    ['imbalance', imbalanceFile],
    ['imbalance', imbalanceFile, '--json'],
    ['imbalance', imbalanceFile, '--ranks', '0,2', '--exclude', 'step', '--time-window', '3us:4us'],
    ['imbalance', inputPath('nested_s3.h5'), '--include', 'so', 'ma', '--json'],
    ['imbalance', imbalanceFile, '--ranks', '9'],
    ['imbalance', inputPath('not_hdf5.h5')],
    ['imbalance', imbalanceFile, '--include', '('],
    ['imbalance', imbalanceFile, 'other.h5'],
    ['imbalance', imbalanceFile, '--port', '1'],
    ['imbalance', '--help'],
    ['imbalance'],
    ['imbalance', imbalanceFile, '--ranks', 'all', '--json'],
    ['imbalance', imbalanceFile, '--ranks', 'all', '2'],
  ];
  itPrintsWhatTheNativeCliPrints(argSets);

  it('prints the table worked out by hand, and exits 1 or 2 as the export does', () => {
    const table = run(process.execPath, [nodeCli, 'imbalance', imbalanceFile]);
    assert.equal(table.status, 0);
    assert.equal(
      table.stdout.split('\n')[2],
      'solve         4    3.00 us    3.00 us    3.08 us    3.30 us      6.8 %             2',
    );
    assert.equal(run(process.execPath, [nodeCli, 'imbalance', imbalanceFile, '--ranks', '9']).status, 1);
    assert.equal(run(process.execPath, [nodeCli, 'imbalance']).status, 2);
  });
});
