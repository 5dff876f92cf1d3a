// Narrowing (min-duration, time-window) and the overview through the JS API
// and the Node CLI: the generated narrow_* cases (expected bytes from the
// Python model: the export of a file holding only the kept calls), errors
// with what they blame, and the suggestion's promise of a call count.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import {
  asScopeProfiler,
  generated,
  generatedCases,
  generatedInput,
  inputPath,
  listFiles,
  nativeCli,
  nodeCli,
  sha256,
  tempDir,
} from './helpers.mjs';
import { createScopeSpeedscope, concatChunks, ScopeSpeedscopeError } from '../../dist/node.js';

const cases = generatedCases('narrow_');
const read = (file) => ({ name: file, bytes: new Uint8Array(fs.readFileSync(file)) });
const message = (c) => c.error.message.replaceAll('{path}', generatedInput(c.inputs[0]));

function exportCase(sp, c, narrowing) {
  return sp.exportSpeedscope(
    c.inputs.map((i) => read(generatedInput(i))),
    {
      filepath: c.filepath,
      ranks: c.ranks,
      include: c.include,
      exclude: c.exclude,
      ...narrowing,
    },
  );
}

function checkOutputs(c, outputs) {
  assert.deepEqual(outputs.map((o) => o.fileName).sort(), c.outputs.map((o) => o.file).sort());
  for (const o of outputs) {
    const want = c.outputs.find((x) => x.file === o.fileName);
    const bytes = asScopeProfiler(concatChunks(o.chunks));
    assert.equal(sha256(bytes), want.sha256, o.fileName);
  }
}

const eventsOf = (outputs) =>
  outputs.reduce(
    (n, o) => n + JSON.parse(Buffer.concat(o.chunks)).profiles.reduce((m, p) => m + p.events.length, 0),
    0,
  );

describe('narrowing through the JS API', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('has the generated cases', () => assert.ok(cases.length >= 30, `${cases.length} cases in ${generated}`));

  for (const c of cases) {
    it(`case ${c.name}`, () => {
      const narrowing = { minDuration: c.min_duration, timeWindow: c.time_window };
      if (c.error) {
        assert.throws(
          () => exportCase(sp, c, narrowing),
          (e) => {
            assert.ok(e instanceof ScopeSpeedscopeError);
            assert.equal(e.kind, c.error.kind);
            assert.equal(e.message, message(c));
            assert.equal(e.field, c.error.field);
            assert.equal(e.index, c.error.index);
            assert.equal(e.file && path.basename(e.file), c.error.file);
            return true;
          },
        );
        return;
      }
      checkOutputs(c, exportCase(sp, c, narrowing));
    });
  }

  it('takes numbers of seconds and [start, end] pairs', () => {
    const c = cases.find((x) => x.name === 'narrow_window_edges');
    checkOutputs(c, exportCase(sp, c, { timeWindow: [1e-7, 2e-7] }));
    checkOutputs(c, exportCase(sp, c, { timeWindow: ['100ns', '200ns'] }));
    const open = cases.find((x) => x.name === 'narrow_window_edges_open_end');
    checkOutputs(open, exportCase(sp, open, { timeWindow: [1e-7, null] }));
    const min = cases.find((x) => x.name === 'narrow_min_real_run');
    checkOutputs(min, exportCase(sp, min, { minDuration: 5e-6 }));
  });

  it('refuses bad values before reading, naming the option', () => {
    const c = cases.find((x) => x.name === 'narrow_window_edges');
    for (const [narrowing, field, text] of [
      [{ minDuration: -1 }, 'minDuration', "minDuration: invalid duration '-1.0'"],
      [{ minDuration: '2 ms' }, 'minDuration', "minDuration: invalid duration '2 ms'"],
      [{ minDuration: NaN }, 'minDuration', "minDuration: invalid duration 'nan'"],
      [{ timeWindow: [5, 2] }, 'timeWindow', "timeWindow: invalid time window '5.0:2.0' (END must be after START)"],
      [{ timeWindow: '3' }, 'timeWindow', "timeWindow: invalid time window '3'"],
    ]) {
      assert.throws(
        () => sp.exportSpeedscope([{ name: 'missing.h5', bytes: new Uint8Array(0) }], narrowing),
        (e) => {
          assert.equal(e.kind, 'ValueError');
          assert.equal(e.field, field);
          assert.equal(e.file, null);
          assert.ok(e.message.startsWith(text), e.message);
          return true;
        },
      );
    }
    checkOutputs(c, exportCase(sp, c, { timeWindow: '100ns:200ns' }));
    // Wrong types are TypeErrors naming the option, before anything is read.
    for (const [narrowing, text] of [
      [{ timeWindow: [1] }, 'timeWindow must be [start, end]'],
      [{ timeWindow: [1, {}] }, 'timeWindow must be [start, end]'],
      [{ minDuration: [1] }, 'minDuration must be a number of seconds or a string'],
    ]) {
      assert.throws(
        () => sp.exportSpeedscope([{ name: 'x.h5', bytes: new Uint8Array(0) }], narrowing),
        (e) => e instanceof TypeError && e.message.includes(text),
      );
    }
    assert.throws(
      () => sp.overview({ name: 'x.h5', bytes: new Uint8Array(0) }, { bins: 0 }),
      (e) => e instanceof TypeError && e.message.includes('bins must be a positive integer'),
    );
    assert.throws(() => sp.suggestNarrowing({}, { maxEvents: 10 }), TypeError);
  });

  it('overview: counts, time range and histograms of a selection', () => {
    const input = read(inputPath('nested_s3.h5'));
    const o = sp.overview(input, { ranks: [0, 1], bins: 10 });
    assert.equal(o.calls, 8);
    assert.equal(o.events, 16);
    assert.equal(o.firstStart, 0);
    assert.equal(o.lastEnd, 0.1);
    assert.equal(o.time.binWidth, 0.01);
    assert.equal(o.time.edges.length, 11);
    assert.equal(
      o.time.starts.reduce((a, b) => a + b),
      8,
    );
    assert.equal(
      o.time.ends.reduce((a, b) => a + b),
      8,
    );
    assert.equal(
      o.durations.counts.reduce((a, b) => a + b),
      8,
    );
    assert.equal(o.durations.labels[0], '1ns');
    assert.equal(o.durations.edges.length, o.durations.counts.length - 1);
    assert.equal(o.durations.atLeast[0], 8);
    assert.equal(o.suggestion, undefined);
    const filtered = sp.overview(input, { ranks: [1], include: 'set' });
    assert.equal(filtered.calls, 1);
    const empty = sp.overview(input, { include: [] });
    assert.equal(empty.calls, 0);
    assert.equal(empty.firstStart, null);
    assert.deepEqual(empty.time.edges, []);
    assert.throws(
      () => sp.overview(input, { ranks: [0, 9] }),
      (e) => e.field === 'ranks' && e.index === 1 && e.message === 'Invalid rank requested: 9' && e.file === input.name,
    );
    assert.throws(
      () => sp.overview(input, { exclude: ['ok', '('] }),
      (e) => e.field === 'exclude' && e.index === 1,
    );
  });

  it('the suggestion keeps exactly the calls it promises, within the budget', () => {
    const input = read(inputPath('large_s3.h5'));
    const maxEvents = 60000;
    const o = sp.overview(input, { ranks: [0, 1], bins: 100, maxEvents });
    assert.equal(o.calls, 212030);
    const s = o.suggestion;
    assert.equal(s.fits, false);
    assert.equal(s.maxCalls, 30000);
    assert.ok(s.minDuration && s.timeWindow, JSON.stringify(s));
    assert.deepEqual(sp.suggestNarrowing(o, { maxEvents }), s);
    assert.equal(s.preferred, s.minDuration.calls >= s.timeWindow.calls ? 'minDuration' : 'timeWindow');
    assert.equal(sp.suggestNarrowing(o, { maxEvents: 1e9 }).fits, true);
    assert.equal(sp.suggestNarrowing(o, { maxEvents: 1e9 }).preferred, null);
    const byMin = sp.exportSpeedscope([input], { ranks: [0, 1], minDuration: s.minDuration.value });
    assert.equal(eventsOf(byMin), s.minDuration.events);
    assert.ok(s.minDuration.events <= maxEvents);
    const byWindow = sp.exportSpeedscope([input], { ranks: [0, 1], timeWindow: s.timeWindow.value });
    assert.equal(eventsOf(byWindow), s.timeWindow.events);
    assert.ok(s.timeWindow.events <= maxEvents);
    const byText = sp.exportSpeedscope([input], { ranks: [0, 1], timeWindow: s.timeWindow.text });
    assert.deepEqual(concatChunks(byText[0].chunks), concatChunks(byWindow[0].chunks));
  });
});

describe('narrowing through the Node CLI', () => {
  const node = (args) => spawnSync(process.execPath, [nodeCli, ...args], { encoding: 'buffer' });
  const native = (args) => spawnSync(nativeCli, args, { encoding: 'buffer' });

  for (const c of cases) {
    it(`case ${c.name}`, () => {
      const out = tempDir();
      const args = [...c.inputs.map(generatedInput), '--filepath', path.join(out, c.filepath), '--quiet'];
      if (c.ranks !== null) args.push('--ranks', [...new Set(c.ranks)].sort((a, b) => a - b).join(','));
      if (c.include !== null) args.push('--include', ...c.include);
      if (c.exclude !== null) args.push('--exclude', ...c.exclude);
      if (c.min_duration !== null) args.push(`--min-duration=${c.min_duration}`);
      if (c.time_window !== null) args.push(`--time-window=${c.time_window}`);
      const r = node(args);
      const sortedRanks =
        c.ranks === null || JSON.stringify(c.ranks) === JSON.stringify([...new Set(c.ranks)].sort((a, b) => a - b));
      if (c.error) {
        assert.equal(r.status, 1);
        assert.equal(r.stderr.toString(), `error: ${message(c)}\n`);
        assert.deepEqual(listFiles(out), []);
      } else if (sortedRanks) {
        assert.equal(r.status, 0, r.stderr.toString());
        assert.deepEqual(listFiles(out), c.outputs.map((o) => o.file).sort());
        for (const o of c.outputs) {
          assert.equal(sha256(asScopeProfiler(fs.readFileSync(path.join(out, o.file)))), o.sha256, o.file);
        }
      }
      // The native CLI: the same streams and bytes.
      const outNative = tempDir();
      const argsNative = args.map((a) => (a.startsWith(out) ? outNative + a.slice(out.length) : a));
      const n = native(argsNative);
      assert.equal(n.status, r.status);
      assert.equal(n.stderr.toString(), r.stderr.toString());
      for (const f of listFiles(out)) {
        assert.ok(fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(outNative, f))), f);
      }
      fs.rmSync(out, { recursive: true });
      fs.rmSync(outNative, { recursive: true });
    });
  }

  it('usage errors for bad values, as the native CLI', () => {
    for (const args of [
      ['x.h5', '-o', 'd', '--min-duration', 'fast'],
      ['x.h5', '-o', 'd', '--time-window', '5:2'],
      ['x.h5', '-o', 'd', '--time-window'],
    ]) {
      const a = node(args);
      const b = native(args);
      assert.equal(a.status, 2);
      assert.equal(a.stderr.toString(), b.stderr.toString());
    }
  });
});
