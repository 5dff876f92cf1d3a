// The package's engineRequest: the core's dispatcher (src/core/engine/)
// through the wasm module, as the page's worker pipes to it. Its answers
// decoded are the package Timeline's (the same core functions), its
// errors name the request's problem, its download is the export's bytes,
// and decodeAnswer refuses bytes that are not an answer.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import { inputPath } from './helpers.mjs';
import { createScopeSpeedscope, decodeAnswer } from '../../dist/node.js';

const file = 'ranks_imbalance_s3.h5';
const input = () => ({ name: file, path: inputPath(file) });

describe('engineRequest', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('opens a run and answers bars, regions and lateness as the Timeline does', async () => {
    const opened = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: 'all' } },
      { inputs: { file: input() } },
    );
    assert.equal(opened.type, 'result');
    const tl = await sp.openTimeline(input(), { ranks: 'all' });
    try {
      assert.deepEqual(
        opened.lanes.map((l) => [l.name, l.calls, l.rank]),
        tl.lanes.map((l) => [l.name, l.calls, l.rank]),
      );
      assert.deepEqual(opened.frames, tl.frames);
      assert.equal(opened.runEnd, tl.runEnd);
      assert.ok(opened.totals instanceof Float64Array);
      const { timeline, runEnd } = opened;
      const bars = sp.engineRequest({ type: 'timeline-bars', timeline, lanes: [1], start: 0, end: runEnd, width: 300 });
      const want = tl.bars(1, 0, runEnd, 300);
      for (const k of ['start', 'end', 'depth', 'frame', 'count', 'rows']) {
        assert.deepEqual([...bars.bars[0][k]], [...want[k]], k);
      }
      assert.ok(bars.bars[0].start instanceof Float64Array);
      assert.ok(bars.bars[0].frame instanceof Int32Array);
      const regions = sp.engineRequest({ type: 'timeline-regions', timeline, start: 0, end: runEnd });
      assert.deepEqual(regions.regions, tl.regions(0, runEnd));
      const frame = regions.regions[0].frame;
      const late = sp.engineRequest({ type: 'timeline-lateness', timeline, frame, start: 0, end: runEnd });
      assert.deepEqual([...late.lateness], tl.meanLateness(frame, 0, runEnd).lateness);
      assert.deepEqual(late.ranks, tl.meanLateness(frame, 0, runEnd).ranks);
    } finally {
      tl.close();
    }
  });

  it("timeline-band: each rank's band by region, as tl.bandFrames and tl.bandDepth answer", async () => {
    const opened = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: 'all' } },
      { inputs: { file: input() } },
    );
    const tl = await sp.openTimeline(input(), { ranks: 'all' });
    try {
      const { timeline, runEnd } = opened;
      const groups = [[0], [2], [1, 3]];
      // 10 px over the run (5001 ns): middles 250, 750, ...; each step of
      // 1000 ns runs solve for 600 ns, then exchange (rank 2's fourth solve: 900 ns).
      const auto = sp.engineRequest({
        type: 'timeline-band',
        timeline,
        groups,
        depth: null,
        start: 0,
        end: runEnd,
        width: 10,
      });
      assert.equal(auto.type, 'result', JSON.stringify(auto));
      // step spans every rank (back to back): the bands show depth 1.
      assert.deepEqual(auto.depths, [1, 1, 1]);
      const zero = sp.engineRequest({
        type: 'timeline-band',
        timeline,
        groups,
        depth: 0,
        start: 0,
        end: runEnd,
        width: 10,
      });
      assert.deepEqual([...zero.frames[0]], Array(10).fill(0));
      const one = sp.engineRequest({
        type: 'timeline-band',
        timeline,
        groups,
        depth: 1,
        start: 0,
        end: runEnd,
        width: 10,
      });
      assert.deepEqual(one.depths, [1, 1, 1]);
      assert.ok(one.frames[0] instanceof Int32Array);
      assert.deepEqual([...one.frames[0]], [1, 2, 1, 2, 1, 2, 1, 2, 1, 2]);
      assert.deepEqual([...one.frames[1]], [1, 2, 1, 2, 1, 2, 1, 1, 1, 2]);
      groups.forEach((g, i) => {
        assert.deepEqual([...one.frames[i]], [...tl.bandFrames(g, 1, 0, runEnd, 10)]);
        assert.equal(auto.depths[i], tl.bandDepth(g));
      });
      // Inside one main a rank, looping over step (96 % of main): depth 2.
      const main = await sp.openTimeline(
        { name: 'ranks_main_s3.h5', path: inputPath('ranks_main_s3.h5') },
        { ranks: 'all' },
      );
      try {
        assert.deepEqual(main.frames, ['main', 'step', 'solve', 'exchange']);
        assert.deepEqual(
          [0, 1, 2, 3].map((r) => main.bandDepth([r])),
          [2, 2, 2, 2],
        );
        // 13 px over 5201 ns (about 400 ns each, middles 200, 600, 1000,
        // ...): steps from 100 ns on, each solve 600 ns then exchange 400 ns.
        assert.deepEqual([...main.bandFrames([0], 2, 0, main.runEnd, 13)], [2, 2, 3, 2, 3, 2, 2, 3, 2, 3, 2, 2, 3]);
        // At the first 100 ns only main runs.
        assert.deepEqual([...main.bandFrames([0], 2, 0, 100, 2)], [0, 0]);
      } finally {
        main.close();
      }
      // Outside the run nothing runs.
      assert.deepEqual([...tl.bandFrames([0], 1, runEnd, runEnd + 100, 3)], [-1, -1, -1]);
      const bad = sp.engineRequest({
        type: 'timeline-band',
        timeline,
        groups: [[]],
        depth: 1,
        start: 0,
        end: 10,
        width: 1,
      });
      assert.equal(bad.message, 'bandFrames: no lanes');
      assert.throws(() => tl.bandFrames([0], -1, 0, 10, 1), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.bandFrames: depth -1 is out of range (0 at the top)',
      });
      assert.throws(() => tl.bandFrames([0], 1.5, 0, 10, 1), TypeError);
      assert.throws(() => tl.bandDepth([]), {
        name: 'RangeError',
        message: 'scope-speedscope: timeline.bandDepth: no lanes',
      });
    } finally {
      tl.close();
    }
  });

  it('writes a download that is the export of the file, byte for byte', () => {
    const opened = sp.engineRequest({ type: 'timeline-open', options: { ranks: [2] } }, { inputs: { file: input() } });
    const chunks = [];
    const sink = { open() {}, write: (v) => chunks.push(Buffer.from(v)), close() {}, commit() {}, abort() {} };
    const answer = sp.engineRequest(
      { type: 'timeline-export', timeline: opened.timeline, options: { filepath: 'x.speedscope.json' } },
      { inputs: { file: input() }, sink },
    );
    assert.deepEqual(answer, { type: 'result', files: ['x.speedscope.json'] });
    const [want] = sp.exportSpeedscope([input()], { ranks: [2], filepath: 'x.speedscope.json' });
    assert.ok(Buffer.concat(chunks).equals(Buffer.concat(want.chunks.map((c) => Buffer.from(c)))));
  });

  it('answers a bad request with what is wrong', () => {
    const bad = sp.engineRequest({ type: 'timeline-stack', timeline: 999, lane: 0, time: 0 });
    assert.equal(bad.type, 'error');
    assert.equal(bad.code, 'bad_argument');
    assert.equal(bad.message, 'scope-speedscope engine: the timeline was closed (a newer file or options replaced it)');
    const unknown = sp.engineRequest({ type: 'timeline-teleport' });
    assert.equal(unknown.message, "scope-speedscope engine: unknown request type 'timeline-teleport'");
    const rank = sp.engineRequest({ type: 'timeline-open', options: { ranks: [9] } }, { inputs: { file: input() } });
    assert.equal(rank.kind, 'ValueError');
    assert.equal(rank.code, 'invalid_rank');
    assert.equal(sp.engineRequest({ type: 'engine-version' }).protocol, sp.engineProtocol);
    assert.throws(() => sp.engineRequest(null), /request must be an object with a type/);
  });

  it("answers a compared call's partner, either way round, and A's bars' ratios (make_pair.py by hand)", () => {
    const pair = (name) => ({ name, path: inputPath(name) });
    const opened = sp.engineRequest(
      { type: 'timeline-compare-open', options: { ranks: 'all' } },
      { inputs: { fileA: pair('pair_a_s3.h5'), fileB: pair('pair_b_s3.h5') } },
    );
    assert.equal(opened.type, 'result');
    const { timeline, frames } = opened;
    assert.equal(opened.compare.lanesB, 2);
    const partner = (lane, depth, start) =>
      sp.engineRequest({ type: 'timeline-compare-partner', timeline, lane, depth, start });
    // B's solve of step 3 on rank 0 starts at 3.6 µs; A's at 3 µs (its steps are 1 µs).
    assert.deepEqual(partner(0, 1, 3600), {
      type: 'result',
      partner: { lane: 2, depth: 1, start: 3000, end: 3600, frame: frames.indexOf('solve') },
    });
    // A's io and B's fifth step have none; A's step 2 on rank 1 is B's step 2.
    assert.equal(partner(2, 0, 4000).partner, null);
    assert.equal(partner(0, 0, 4800).partner, null);
    assert.deepEqual(partner(3, 0, 2000).partner, {
      lane: 1,
      depth: 0,
      start: 2400,
      end: 3600,
      frame: frames.indexOf('step'),
    });
    const bad = partner(0, 1, 3601);
    assert.equal(bad.type, 'error');
    assert.equal(bad.message, 'scope-speedscope engine: no call of lane 0 at depth 1 starts at 3601');
    // A's lane 2 at depth 0: four steps (B over A ×1.2) and io (no partner in B).
    const bars = sp.engineRequest({ type: 'timeline-bars', timeline, lanes: [2], start: 0, end: 4100, width: 4100 });
    const a = bars.bars[0];
    const top = [...a.start.slice(a.rows[0], a.rows[1])];
    assert.deepEqual(top, [0, 1000, 2000, 3000, 4000]);
    const ratios = [...a.ratio.slice(a.rows[0], a.rows[1])];
    assert.deepEqual(ratios.slice(0, 4), [1.2, 1.2, 1.2, 1.2]);
    assert.ok(Number.isNaN(ratios[4]));
    sp.engineRequest({ type: 'timeline-close', timeline });
  });

  it('decodeAnswer refuses bytes that are not an answer', () => {
    assert.throws(() => decodeAnswer(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /no SSE1 magic/);
    assert.throws(() => decodeAnswer(new Uint8Array([0x53, 0x53, 0x45, 0x31, 200, 0, 0, 0])), /cut short/);
  });
});
