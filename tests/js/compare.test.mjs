// Comparing two runs through the package and the Node CLI: sp.compareRuns
// against the native CLI's `diff --json` and a naive model of the exported
// documents (self time = duration less the direct children's) on the
// fixture pair (tests/fixtures/h5/pair_{a,b}_s3.h5, make_pair.py) and on
// pairs of fixture cases; `scope-speedscope diff` printing the native
// CLI's bytes with its exit status (0, 1, 2, 3).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { inputPath, itPrintsWhatTheNativeCliPrints, nativeCli, nodeCli } from './helpers.mjs';
import { createScopeSpeedscope } from '../../dist/node.js';
import { modelOf } from './timeline-model.mjs';

const read = (file) => ({ name: path.basename(file), bytes: new Uint8Array(fs.readFileSync(file)) });
const pairA = inputPath('pair_a_s3.h5');
const pairB = inputPath('pair_b_s3.h5');
const run = (command, args) => spawnSync(command, args, { encoding: 'utf8' });

// Per region name: calls, total and self over the document's profiles.
function modelTotals(doc) {
  const names = doc.shared.frames.map((f) => f.name);
  const out = new Map();
  for (const lane of modelOf(doc)) {
    for (const c of lane.calls) {
      const t = out.get(names[c.frame]) ?? { calls: 0, total: 0, self: 0 };
      t.calls += 1;
      t.total += c.e - c.s;
      t.self += c.self;
      out.set(names[c.frame], t);
    }
  }
  return out;
}

function modelRows(docA, docB) {
  const a = modelTotals(docA);
  const b = modelTotals(docB);
  const none = { calls: 0, total: 0, self: 0 };
  const rows = [...new Set([...a.keys(), ...b.keys()])].sort().map((name) => {
    const ra = a.get(name) ?? none;
    const rb = b.get(name) ?? none;
    return {
      name,
      a: ra,
      b: rb,
      deltaTotal: rb.total - ra.total,
      deltaSelf: rb.self - ra.self,
      deltaSelfPct: ra.self === 0 ? null : (100 * (rb.self - ra.self)) / ra.self,
    };
  });
  return rows.sort((x, y) => y.deltaSelf - x.deltaSelf); // stable: names ascending among equals
}

describe('sp.compareRuns', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('gives the rows the native diff --json prints, and the model', async () => {
    for (const ranks of [[0], [0, 1]]) {
      const cmp = await sp.compareRuns(read(pairA), read(pairB), { ranks });
      const native = JSON.parse(run(nativeCli, ['diff', pairA, pairB, '--ranks', ranks.join(','), '--json']).stdout);
      assert.deepEqual(cmp.regions, native.regions);
      const docA = sp.buildSpeedscopeDocument(read(pairA), { ranks });
      const docB = sp.buildSpeedscopeDocument(read(pairB), { ranks });
      assert.deepEqual(cmp.regions, modelRows(docA, docB));
      cmp.close();
    }
    const all = await sp.compareRuns(read(pairA), read(pairB), { ranks: 'all' });
    assert.deepEqual(all.regions[1], {
      name: 'solve',
      a: { calls: 8, total: 4800, self: 1600 },
      b: { calls: 10, total: 7500, self: 2500 },
      deltaTotal: 2700,
      deltaSelf: 900,
      deltaSelfPct: 56.25,
    });
  });

  it('regionsIn: over the whole run the rows diff --json prints, also where a region nests in itself', async () => {
    const nestedA = inputPath('nested_pair_a_s3.h5');
    const nestedB = inputPath('nested_pair_b_s3.h5');
    for (const [a, b, ranks] of [
      [nestedA, nestedB, [0]],
      [nestedA, nestedB, [0, 1]],
      [pairA, pairB, [0, 1]],
    ]) {
      const cmp = await sp.compareRuns(read(a), read(b), { ranks });
      try {
        const native = JSON.parse(run(nativeCli, ['diff', a, b, '--ranks', ranks.join(','), '--json']).stdout);
        const whole = cmp.regionsIn(0, 2 ** 53);
        assert.deepEqual(
          whole.map(({ deltaTotalPct, ...r }) => r),
          native.regions,
        );
        for (const r of whole) {
          assert.equal(r.deltaTotalPct, r.a.total ? (100 * (r.b.total - r.a.total)) / r.a.total : null, r.name);
        }
      } finally {
        cmp.close();
      }
    }
    // kernel inside kernel: its total counts the inner calls too (diff's
    // 6717 ns on rank 0 of A), where imbalance's covered time does not.
    const cmp = await sp.compareRuns(read(nestedA), read(nestedB), { ranks: [0] });
    try {
      const kernel = cmp.regionsIn(0, 2 ** 53).find((r) => r.name === 'kernel');
      assert.equal(kernel.a.total, 6717);
      const covered = cmp.a.imbalance(0, 2 ** 53).find((r) => r.name === 'kernel').max;
      assert.ok(covered < kernel.a.total, `${covered}`);
    } finally {
      cmp.close();
    }
  });

  it("regionsIn: a window of each run is each run's regions of it joined by name", async () => {
    const cmp = await sp.compareRuns(read(pairA), read(pairB), { ranks: 'all' });
    try {
      const rows = cmp.regionsIn(1500, 3100);
      const ra = new Map(cmp.a.regions(1500, 3100).map((r) => [r.name, r]));
      const rb = new Map(cmp.b.regions(1500, 3100).map((r) => [r.name, r]));
      assert.deepEqual(rows.map((r) => r.name).sort(), [...new Set([...ra.keys(), ...rb.keys()])].sort());
      const none = { calls: 0, total: 0, self: 0 };
      for (const r of rows) {
        const { calls, total, self } = ra.get(r.name) ?? none;
        assert.deepEqual(r.a, { calls, total, self }, r.name);
        const vb = rb.get(r.name) ?? none;
        assert.deepEqual(r.b, { calls: vb.calls, total: vb.total, self: vb.self }, r.name);
        assert.equal(r.deltaSelf, vb.self - self);
        assert.equal(r.deltaTotal, vb.total - total);
      }
      for (let i = 1; i < rows.length; i++) {
        const [x, y] = [rows[i - 1], rows[i]];
        assert.ok(x.deltaSelf > y.deltaSelf || (x.deltaSelf === y.deltaSelf && x.name < y.name), y.name);
      }
      assert.throws(() => cmp.regionsIn(5, 5), RangeError);
    } finally {
      cmp.close();
    }
    assert.throws(() => cmp.regionsIn(0, 10), /closed/);
  });

  it('compares different runs of several lanes against the model', async () => {
    for (const [a, b, options] of [
      ['threads_s3.h5', 'tasks_s3.h5', {}],
      ['nested_s3.h5', 'nested_s1.h5', { ranks: [0, 1] }],
      ['hdf5-schema-2.h5', 'hdf5-schema-3.h5', { exclude: ['ma'] }],
    ]) {
      const cmp = await sp.compareRuns(read(inputPath(a)), read(inputPath(b)), options);
      const docA = sp.buildSpeedscopeDocument(read(inputPath(a)), options);
      const docB = sp.buildSpeedscopeDocument(read(inputPath(b)), options);
      assert.deepEqual(cmp.regions, modelRows(docA, docB), `${a} vs ${b}`);
    }
  });

  it('lines B up with A call by call: every bar carries its ratio (make_pair.py numbers)', async () => {
    const cmp = await sp.compareRuns(read(pairA), read(pairB), { ranks: 'all' });
    try {
      assert.deepEqual(cmp.partnerLanes, [0, 1]);
      // The comparison's frames: B's, then A's others (io, which B lacks).
      assert.deepEqual(cmp.frames, [...cmp.b.frames, 'io']);
      assert.ok(cmp.frameOfA instanceof Int32Array);
      assert.deepEqual(
        Array.from(cmp.frameOfA, (f) => cmp.frames[f]),
        cmp.a.frames,
      );
      assert.deepEqual(
        cmp.b.lanes.map((l) => l.name),
        ['rank 0', 'rank 1'],
      );
      const end = cmp.b.lanes[0].end + 1;
      const got = cmp.aligned(0, 0, end, 10000); // every call a bar of its own
      const bars = cmp.b.bars(0, 0, end, 10000);
      for (const key of ['start', 'end', 'depth', 'frame', 'count']) assert.deepEqual(got[key], bars[key], key);
      assert.ok(got.ratio instanceof Float64Array);
      // Per region, the ratios of its calls in time order: A has 4 steps, B 5
      // (the fifth has no partner); halo is new in B.
      const byRegion = {};
      for (let i = 0; i < got.start.length; i++) {
        const name = cmp.b.frames[got.frame[i]];
        (byRegion[name] ??= []).push([got.start[i], got.ratio[i]]);
      }
      const ratios = (name) => byRegion[name].sort((x, y) => x[0] - y[0]).map((x) => x[1]);
      assert.deepEqual(ratios('step'), [1.2, 1.2, 1.2, 1.2, NaN]);
      assert.deepEqual(ratios('solve'), [1.25, 1.25, 1.25, 1.25, NaN]);
      assert.deepEqual(ratios('kernel'), [...Array(8).fill(1.25), NaN, NaN]);
      assert.deepEqual(ratios('exchange'), [1.125, 1.125, 1.125, 1.125, NaN]);
      assert.deepEqual(ratios('halo'), Array(5).fill(NaN));
      // One pixel: a block of every call at each depth, the ratio of the sums
      // of the partnered calls (depth 0: 4 steps of 1200 over 4 of 1000).
      const block = cmp.aligned(0, 0, end, 1);
      assert.deepEqual([...block.count], [5, 10, 15]);
      assert.equal(block.ratio[0], 1.2);
      assert.equal(block.ratio[1], (4 * 750 + 4 * 450) / (4 * 600 + 4 * 400));
      assert.throws(() => cmp.aligned(2, 0, end, 10), { name: 'RangeError' });
    } finally {
      cmp.close();
    }
    assert.throws(() => cmp.aligned(0, 0, 10, 10), { name: 'TypeError' });
    assert.throws(() => cmp.a.bars(0, 0, 10, 10), { name: 'TypeError' });
  });

  it('errors as openTimeline does', async () => {
    await assert.rejects(sp.compareRuns(read(pairA), read(pairB), { ranks: [5] }), {
      name: 'ScopeSpeedscopeError',
      message: 'Invalid rank requested: 5',
      file: 'pair_a_s3.h5',
    });
    await assert.rejects(sp.compareRuns(read(pairA), read(pairB), { ranks: 'some' }), { name: 'TypeError' });
    await assert.rejects(sp.compareRuns(read(pairA), read(pairB), { include: ['nothing'] }), {
      name: 'ScopeSpeedscopeError',
    });
  });
});

describe('scope-speedscope diff: the Node CLI prints what the native CLI prints', () => {
  const argSets = [
    ['diff', pairA, pairB],
    ['diff', pairA, pairB, '--ranks', '0-1', '--max-regression', '30'],
    ['diff', pairA, pairB, '--ranks', '0-1', '--max-regression', '60', '--metric', 'total', '--json'],
    ['diff', pairA, pairA, '--max-regression', '0'],
    ['diff', pairA, pairB, '--include', 'so', 'ke', '--json'],
    ['diff', pairA, pairB, '--ranks', '7'],
    ['diff', pairA, inputPath('not_hdf5.h5')],
    ['diff', pairA, pairB, '--metric', 'wall'],
    ['diff', pairA],
    ['diff', '--help'],
    ['diff', pairA, pairB, '--ranks', 'all'],
    ['diff', pairA, pairB, '--ranks', 'all', '--json'],
    ['diff', pairA, pairB, '--ranks', 'all,0'],
  ];
  itPrintsWhatTheNativeCliPrints(argSets);

  it('exits 3 past the limit, 0 within it, 1 on a bad file, 2 on a usage error', () => {
    assert.equal(run(process.execPath, [nodeCli, 'diff', pairA, pairB, '--max-regression', '30']).status, 3);
    assert.equal(run(process.execPath, [nodeCli, 'diff', pairA, pairA, '--max-regression', '0']).status, 0);
    assert.equal(run(process.execPath, [nodeCli, 'diff', pairA, inputPath('not_hdf5.h5')]).status, 1);
    assert.equal(run(process.execPath, [nodeCli, 'diff', pairA]).status, 2);
  });
});
