// The timeline through the package (sp.openTimeline): lanes, frames and
// times against the exported document of the same fixture, every query
// against a naive model in JavaScript (a plain loop over the document's
// calls), argument errors, damaged files, and a trap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { cases, fixtures, inputPath } from './helpers.mjs';
import { createScopeSpeedscope, ScopeSpeedscopeError } from '../../dist/node.js';
import { rng } from './seeded.mjs';
import { modelOf } from './timeline-model.mjs';

const read = (file) => ({ name: path.basename(file), bytes: new Uint8Array(fs.readFileSync(file)) });

// ---- the model: the document's calls ---------------------------------------------

const coveredEnd = (c) => (c.e > c.s ? c.e : c.s + 1);
const overlaps = (c, a, z) => c.s < z && coveredEnd(c) > a;

function modelBars(lane, a, z, width) {
  const out = { start: [], end: [], depth: [], frame: [], count: [], rows: [] };
  const span = BigInt(z - a);
  const W = BigInt(width);
  const maxDepth = Math.max(...lane.calls.map((c) => c.depth));
  for (let d = 0; d <= maxDepth; d++) {
    out.rows.push(out.start.length); // where depth d's items start
    let inBlock = false;
    for (const c of lane.calls) {
      if (c.depth !== d || !overlaps(c, a, z)) continue;
      const long = BigInt(c.e - c.s) * W >= span;
      const n = out.start.length;
      if (!long && inBlock && BigInt(c.s - out.end[n - 1]) * W < span) {
        out.end[n - 1] = c.e;
        out.count[n - 1] += 1;
        if (out.frame[n - 1] !== c.frame) out.frame[n - 1] = -1;
        continue;
      }
      out.start.push(c.s);
      out.end.push(c.e);
      out.depth.push(d);
      out.frame.push(c.frame);
      out.count.push(1);
      inBlock = !long;
    }
  }
  out.rows.push(out.start.length);
  return out;
}

function modelStack(lane, t, frames) {
  return lane.calls
    .filter((c) => c.s <= t && t < coveredEnd(c))
    .sort((x, y) => x.depth - y.depth)
    .map((c) => ({ frame: c.frame, name: frames[c.frame], start: c.s, end: c.e, depth: c.depth, self: c.self }));
}

function modelRegions(model, a, z, lanes, frames) {
  const by = new Map();
  const clip = (c) => Math.max(0, Math.min(c.e, z) - Math.max(c.s, a));
  for (const l of lanes) {
    for (const c of model[l].calls) {
      if (!overlaps(c, a, z)) continue;
      const r = by.get(c.frame) ?? { frame: c.frame, name: frames[c.frame], calls: 0, total: 0, self: 0 };
      by.set(c.frame, r);
      r.calls += 1;
      r.total += clip(c); // every call, one inside another of its region too
      r.self += clip(c);
      if (c.parent) {
        const p = by.get(c.parent.frame) ?? {
          frame: c.parent.frame,
          name: frames[c.parent.frame],
          calls: 0,
          total: 0,
          self: 0,
        };
        by.set(c.parent.frame, p);
        p.self -= clip(c);
      }
    }
  }
  return [...by.values()].sort((x, y) => x.frame - y.frame);
}

const plain = (bars) => Object.fromEntries(Object.entries(bars).map(([k, v]) => [k, Array.from(v)]));

// ---- the fixtures ------------------------------------------------------------------

const fixtureCases = cases.filter((c) => !c.error && c.inputs.length === 1);

describe('openTimeline against the exported document', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('has fixture cases', () => assert.ok(fixtureCases.length >= 15, `${fixtureCases.length}`));

  for (const c of fixtureCases) {
    it(`case ${c.name}`, async () => {
      const input = read(inputPath(c.inputs[0]));
      const options = { ranks: c.ranks, include: c.include, exclude: c.exclude };
      const doc = sp.buildSpeedscopeDocument(input, options);
      const phases = new Set();
      const tl = await sp.openTimeline(input, { ...options, onProgress: (p) => phases.add(p.phase) });
      try {
        assert.deepEqual(
          tl.frames,
          doc.shared.frames.map((f) => f.name),
        );
        assert.deepEqual(
          tl.lanes.map((l) => l.name),
          doc.profiles.map((p) => p.name),
        );
        assert.ok(phases.has('reconstruct') && phases.has('index'), [...phases].join());
        const model = modelOf(doc);
        const frames = tl.frames;
        let runEnd = 0;
        for (let l = 0; l < model.length; l++) {
          const lane = tl.lanes[l];
          const m = model[l];
          assert.equal(lane.calls, m.calls.length);
          assert.equal(lane.maxDepth, Math.max(...m.calls.map((x) => x.depth)));
          // start / 1e9 is the first O event's `at` up to the document's rounding.
          assert.ok(Math.abs(lane.start / 1e9 - m.calls[0].at) < 5e-10, `${lane.start} ${m.calls[0].at}`);
          assert.equal(lane.start, m.calls[0].s);
          assert.equal(lane.end, Math.max(...m.calls.map((x) => x.e)));
          runEnd = Math.max(runEnd, lane.end);
          // Every call as an item of its own: a width where each lasts a pixel
          // is impossible for zero-length calls, so compare with the model.
          const whole = tl.bars(l, lane.start, lane.end + 1, 16384);
          assert.deepEqual(plain(whole), modelBars(m, lane.start, lane.end + 1, 16384));
          assert.ok(whole.start instanceof Float64Array && whole.end instanceof Float64Array);
          assert.ok(whole.depth instanceof Uint32Array && whole.count instanceof Uint32Array);
          assert.ok(whole.frame instanceof Int32Array);
          assert.equal(
            whole.count.reduce((n, x) => n + x, 0),
            m.calls.length,
          );
        }
        // originInRun turns timeline times into time-window instants, to the
        // nanosecond: the lanes' whole span leaves the document as it is; a
        // window a nanosecond later cuts or drops the first call.
        const first = Math.min(...tl.lanes.map((l) => l.start));
        assert.equal(first, 0);
        assert.ok(Number.isSafeInteger(tl.originInRun) && tl.originInRun >= 0, `${tl.originInRun}`);
        const windowed = (a, z) =>
          sp.buildSpeedscopeDocument(input, {
            ...options,
            timeWindow: [`${tl.originInRun + a}ns`, `${tl.originInRun + z}ns`],
          });
        assert.deepEqual(windowed(first, runEnd + 1), doc);
        assert.notDeepEqual(windowed(first + 1, runEnd + 1), doc);
        const random = rng(c.name.length * 7919 + 13);
        const instant = () => Math.floor(random() * (runEnd + 10)) - 5;
        for (let round = 0; round < 25; round++) {
          const l = Math.floor(random() * model.length);
          let a;
          let z;
          if (round % 4 === 0) {
            a = 0;
            z = runEnd + 1;
          } else if (round % 4 === 1) {
            a = instant();
            z = a + 1;
          } else {
            a = instant();
            z = Math.max(a + 1, instant());
          }
          const width = [1, 2, 3, 64, 2000, 4096][round % 6];
          assert.deepEqual(
            plain(tl.bars(l, a, z, width)),
            modelBars(model[l], a, z, width),
            `bars ${l} [${a}, ${z}) ${width}`,
          );
          const t = instant();
          assert.deepEqual(tl.stackAt(l, t), modelStack(model[l], t, frames), `stackAt ${l} ${t}`);
          const lanes = round % 2 ? [l] : null;
          assert.deepEqual(
            tl.regions(a, z, lanes),
            modelRegions(model, a, z, lanes ?? model.map((_, i) => i), frames),
            `regions [${a}, ${z})`,
          );
        }
      } finally {
        tl.close();
      }
    });
  }
});

describe('openTimeline: bounds of bars', () => {
  it('at most 2 * width + 4 items a depth, counts adding up, items not overlapping (large_s3)', async () => {
    const sp = await createScopeSpeedscope();
    const input = read(inputPath('large_s3.h5'));
    const tl = await sp.openTimeline(input, { ranks: [0, 1] });
    const lane = tl.lanes[0];
    for (const width of [1, 10, 200, 2000]) {
      for (const [a, z] of [
        [lane.start, lane.end + 1],
        [lane.start + 1000, lane.start + 1_000_000],
      ]) {
        const b = tl.bars(0, a, z, width);
        const perDepth = new Map();
        for (let i = 0; i < b.start.length; i++) {
          perDepth.set(b.depth[i], (perDepth.get(b.depth[i]) ?? 0) + 1);
          if (i > 0 && b.depth[i] === b.depth[i - 1]) assert.ok(b.end[i - 1] <= b.start[i]);
        }
        for (const n of perDepth.values()) assert.ok(n <= 2 * width + 4, `${n} items at width ${width}`);
      }
    }
    tl.close();
  });
});

// windowWithin: the window around the middle within a budget of calls,
// against the rule searched naively with regions() counting the calls.
describe('openTimeline: windowWithin', () => {
  it('is the widest centred window holding at most maxCalls calls (large_s3)', async () => {
    const sp = await createScopeSpeedscope();
    const tl = await sp.openTimeline(read(inputPath('large_s3.h5')), { ranks: [0, 1] });
    const count = (a, z) => tl.regions(a, z).reduce((n, r) => n + r.calls, 0);
    const end = Math.max(...tl.lanes.map((l) => l.end)) + 1;
    const random = rng(2024);
    let narrowed = 0;
    for (let round = 0; round < 12; round++) {
      const a = Math.floor(random() * end);
      const z = a + 1 + Math.floor(random() * 2000);
      const all = count(a, z);
      const budget = round % 3 === 0 ? all : Math.floor(all / 2);
      const got = tl.windowWithin(a, z, budget);
      if (all <= budget) {
        assert.deepEqual(got, { start: a, end: z, calls: all });
        continue;
      }
      narrowed++;
      const mid = Math.floor((a + z) / 2);
      let want = { start: mid, end: mid + 1, calls: count(mid, mid + 1) };
      for (let h = Math.ceil((z - a) / 2) - 1; h >= 1; h--) {
        const lo = Math.max(a, mid - h);
        const hi = Math.min(z, mid + h);
        const n = count(lo, hi);
        if (n <= budget) {
          want = { start: lo, end: hi, calls: n };
          break;
        }
      }
      assert.deepEqual(got, want, `${a}:${z} within ${budget}`);
    }
    assert.ok(narrowed >= 4, `${narrowed} windows were narrowed`);
    assert.throws(() => tl.windowWithin(0, 10, 1.5), TypeError);
    assert.throws(() => tl.windowWithin(0, 10, -1), RangeError);
    assert.throws(() => tl.windowWithin(10, 10, 1), RangeError);
    tl.close();
  });
});

describe('openTimeline: errors', () => {
  let sp;
  let tl;
  before(async () => {
    sp = await createScopeSpeedscope();
    tl = await sp.openTimeline(read(inputPath('nested_s3.h5')), { ranks: [0, 1] });
  });

  it('bad arguments are TypeError or RangeError naming them', () => {
    const n = tl.lanes.length;
    assert.throws(() => tl.bars(n, 0, 10, 10), {
      name: 'RangeError',
      message: new RegExp(`timeline\\.bars: lane ${n} is out of range`),
    });
    assert.throws(() => tl.bars(-1, 0, 10, 10), { name: 'RangeError', message: /lane -1 is out of range/ });
    assert.throws(() => tl.bars(0.5, 0, 10, 10), { name: 'TypeError', message: /lane must be an integer/ });
    assert.throws(() => tl.bars('0', 0, 10, 10), { name: 'TypeError', message: /lane must be an integer/ });
    assert.throws(() => tl.bars(0, 10, 10, 10), {
      name: 'RangeError',
      message: /end \(10\) must be after start \(10\)/,
    });
    assert.throws(() => tl.bars(0, 10, 5, 10), { name: 'RangeError', message: /end \(5\) must be after start/ });
    assert.throws(() => tl.bars(0, NaN, 5, 10), { name: 'TypeError', message: /start must be a finite number/ });
    assert.throws(() => tl.bars(0, 0, Infinity, 10), { name: 'TypeError', message: /end must be a finite number/ });
    assert.throws(() => tl.bars(0, 0, 10, 0), { name: 'RangeError', message: /width 0 is outside 1 to 16384/ });
    assert.throws(() => tl.bars(0, 0, 10, 16385), { name: 'RangeError', message: /width 16385 is outside 1 to 16384/ });
    assert.throws(() => tl.bars(0, 0, 10, 2.5), { name: 'TypeError', message: /width must be an integer/ });
    assert.equal(tl.bars(0, 0, 10, 16384).count.length >= 0, true);
    assert.throws(() => tl.stackAt(n, 0), { name: 'RangeError', message: /timeline\.stackAt: lane/ });
    assert.throws(() => tl.stackAt(0, 'x'), { name: 'TypeError', message: /time must be a finite number/ });
    assert.throws(() => tl.regions(5, 5), { name: 'RangeError', message: /timeline\.regions: end \(5\)/ });
    assert.throws(() => tl.regions(0, 5, [n]), {
      name: 'RangeError',
      message: new RegExp(`timeline\\.regions: lane ${n} is out of range`),
    });
    assert.throws(() => tl.regions(0, 5, [-2]), { name: 'RangeError', message: /lanes\[0\] -2 is out of range/ });
    // The core judges the values (whole ns: an empty window stays empty) and names the query once.
    assert.throws(() => tl.bars(0, 10.5, 10.2, 10), {
      name: 'RangeError',
      message: /^scope-speedscope: timeline\.bars: end \(10\) must be after start \(10\)$/,
    });
    assert.throws(() => tl.bars(0, 0, 10, -3), {
      name: 'RangeError',
      message: /timeline\.bars: width -3 is out of range/,
    });
    assert.equal(tl.maxWidth, 16384);
    assert.throws(() => tl.regions(0, 5, 0), { name: 'TypeError', message: /lanes must be an array/ });
  });

  it("options are checked like the export's", async () => {
    await assert.rejects(sp.openTimeline(read(inputPath('nested_s3.h5')), { bins: 3 }), {
      name: 'TypeError',
      message: /unknown option "bins"/,
    });
    await assert.rejects(sp.openTimeline(read(inputPath('nested_s3.h5')), { ranks: 'x' }), {
      name: 'TypeError',
      message: /ranks must be 'all' or an array of integers/,
    });
  });

  it("the export's errors, with what they blame", async () => {
    for (const options of [{ ranks: [7] }, { include: ['nothing'] }, { exclude: ['.'] }, { include: ['('] }]) {
      const input = read(inputPath('nested_s3.h5'));
      let want;
      try {
        sp.exportSpeedscope(input, options);
      } catch (e) {
        want = e;
      }
      assert.ok(want instanceof ScopeSpeedscopeError);
      await assert.rejects(sp.openTimeline(input, options), (e) => {
        assert.ok(e instanceof ScopeSpeedscopeError);
        for (const k of ['kind', 'code', 'message', 'peopleMessage', 'field', 'index', 'file'])
          assert.equal(e[k], want[k], k);
        return true;
      });
    }
  });

  it('a damaged file is the same ScopeSpeedscopeError as inspect gives', async () => {
    const bad = path.join(fixtures, 'bad');
    let damaged = 0;
    for (const file of fs
      .readdirSync(bad)
      .filter((f) => f.endsWith('.h5'))
      .sort()) {
      const input = read(path.join(bad, file));
      let want = null;
      try {
        sp.inspect(input);
      } catch (e) {
        want = e;
      }
      if (want === null) {
        try {
          sp.exportSpeedscope(input);
        } catch (e) {
          want = e;
        }
      }
      if (want === null) {
        const t = await sp.openTimeline(input);
        assert.ok(t.lanes.length >= 1, file);
        t.close();
        continue;
      }
      damaged += 1;
      await assert.rejects(sp.openTimeline(input), (e) => {
        assert.ok(e instanceof ScopeSpeedscopeError, `${file}: ${e}`);
        assert.equal(e.kind, want.kind, file);
        assert.equal(e.code, want.code, file);
        if (want.code !== 'converter_stopped') assert.equal(e.message, want.message, file);
        return true;
      });
    }
    assert.ok(damaged >= 10, `${damaged}`);
  });

  it('a closed timeline is a TypeError; close twice is harmless', async () => {
    const t = await sp.openTimeline(read(inputPath('nested_s3.h5')));
    t.close();
    t.close();
    assert.throws(() => t.bars(0, 0, 10, 10), { name: 'TypeError', message: /timeline\.bars: the timeline is closed/ });
    assert.throws(() => t.stackAt(0, 0), { name: 'TypeError', message: /timeline\.stackAt: the timeline is closed/ });
    assert.throws(() => t.regions(0, 10), { name: 'TypeError', message: /timeline\.regions: the timeline is closed/ });
  });

  it('a trap leaves the module usable; timelines of the dropped instance are closed', async () => {
    const s = await createScopeSpeedscope();
    const input = () => read(inputPath('hdf5-schema-3.h5'));
    const before = await s.openTimeline(input());
    const want = plain(before.bars(0, 0, before.lanes[0].end + 1, 100));
    const scribbler = {
      open() {},
      close() {},
      write: (v) => new Uint8Array(v.buffer, v.byteOffset + v.byteLength).fill(0xff),
    };
    assert.throws(() => s.exportSpeedscope([input()], { sink: scribbler }), ScopeSpeedscopeError);
    assert.throws(() => before.bars(0, 0, 10, 10), { name: 'TypeError', message: /the timeline is closed/ });
    before.close();
    const after = await s.openTimeline(input());
    assert.deepEqual(plain(after.bars(0, 0, after.lanes[0].end + 1, 100)), want);
    after.close();
  });

  it("fresh typed arrays, not views of the module's memory", async () => {
    const t = await sp.openTimeline(read(inputPath('nested_s3.h5')));
    const a = t.bars(0, 0, t.lanes[0].end + 1, 10);
    const copy = plain(a);
    t.bars(0, 0, 5, 1);
    assert.deepEqual(plain(a), copy);
    assert.ok(a.start.buffer.byteLength === a.start.byteLength);
    structuredClone(a, { transfer: [a.start.buffer, a.end.buffer, a.depth.buffer, a.frame.buffer, a.count.buffer] });
    t.close();
  });
});
