// A job written one file per process (tests/fixtures/job/, make_job.py: the
// C API's <prefix>_rank<NNNNN>.h5) through the package and both CLIs:
// openTimeline([inputs]) and the engine's timeline-open with count answer
// what the job written as one file answers (lanes, frames, bars, imbalance,
// aligned calls, the document), for 2 and 64 ranks; a process's file without
// rank 0 opens its ranks; the errors name both files; and the Node CLI's
// `imbalance FILE...` and `diff A... vs B...` print the native CLI's bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { fixtures, itPrintsWhatTheNativeCliPrints } from './helpers.mjs';
import { createScopeSpeedscope, ScopeSpeedscopeError } from '../../dist/node.js';

const jobFile = (ranks, name) => path.join(fixtures, 'job', String(ranks), name);
const partName = (r) => `job_rank${String(r).padStart(5, '0')}.h5`;
const parts = (ranks) => Array.from({ length: ranks }, (_, r) => jobFile(ranks, partName(r)));
const read = (file) => ({ name: path.basename(file), bytes: new Uint8Array(fs.readFileSync(file)) });
const text = (output) => Buffer.concat(output.chunks).toString('utf8');

// Every answer of a timeline over the whole run, as plain values.
function answersOf(tl) {
  const lanes = tl.lanes.map((l) => [l.name, l.rank, l.calls, l.maxDepth, l.start, l.end]);
  const bars = tl.lanes.map((_, i) => {
    const b = tl.bars(i, 0, tl.runEnd, 800);
    return ['start', 'end', 'depth', 'frame', 'count'].map((k) => [...b[k]]);
  });
  const aligned = tl.frames.map((_, f) => {
    const a = tl.alignedCalls(f, 0, tl.runEnd);
    return ['k', 'rank', 'start', 'end', 'lateness'].map((k) => [...a[k]]);
  });
  return {
    lanes,
    frames: tl.frames,
    originInRun: tl.originInRun,
    runEnd: tl.runEnd,
    bars,
    imbalance: tl.imbalance(0, tl.runEnd),
    aligned,
    regions: tl.regions(0, tl.runEnd),
  };
}

describe('openTimeline of a job written one file per process', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  for (const ranks of [2, 64]) {
    it(`opens the ${ranks} files of a ${ranks}-rank job as the job's one file`, async () => {
      const single = await sp.openTimeline(read(jobFile(ranks, 'job.h5')), { ranks: 'all' });
      // In reverse order, by path: the job is the same.
      const job = await sp.openTimeline(
        parts(ranks)
          .reverse()
          .map((p) => ({ name: path.basename(p), path: p })),
        { ranks: 'all' },
      );
      try {
        assert.equal(job.lanes.length, ranks);
        assert.deepEqual(
          job.lanes.map((l) => l.name),
          Array.from({ length: ranks }, (_, r) => `rank ${r}`),
        );
        assert.deepEqual(answersOf(job), answersOf(single));
        // The document written from the job's columns is the file's.
        const [fromJob] = job.exportSpeedscope({ filepath: 'p.json' });
        const [fromFile] = single.exportSpeedscope({ filepath: 'p.json' });
        assert.equal(text(fromJob), text(fromFile));
      } finally {
        job.close();
        single.close();
      }
    });
  }

  it('opens rank 0 of the job by default, and the ranks of a file without rank 0', async () => {
    const job = await sp.openTimeline(parts(2).map(read));
    const one = await sp.openTimeline(read(jobFile(2, partName(1))));
    try {
      assert.deepEqual(
        job.lanes.map((l) => l.name),
        ['rank 0'],
      );
      assert.deepEqual(
        one.lanes.map((l) => [l.name, l.rank]),
        [['rank 1', 1]],
      );
      // Its first export reads rank 1 of the job (the rest) and writes rank 0.
      const [doc] = job.exportSpeedscope({ filepath: 'p.json' });
      assert.deepEqual(
        JSON.parse(text(doc)).profiles.map((p) => p.name),
        ['rank 0'],
      );
    } finally {
      job.close();
      one.close();
    }
  });

  it('refuses two files holding the same rank, naming both', async () => {
    await assert.rejects(
      sp.openTimeline([read(jobFile(2, partName(0))), read(jobFile(2, 'rerun_rank00000.h5'))]),
      (error) => {
        assert.ok(error instanceof ScopeSpeedscopeError);
        assert.equal(error.kind, 'ValueError');
        assert.equal(error.code, 'job_same_rank');
        assert.equal(
          error.message,
          'job_rank00000.h5 and rerun_rank00000.h5 both hold rank 0: the files of one job must ' +
            'hold different ranks (two runs of the same ranks are compared, not joined)',
        );
        return true;
      },
    );
    await assert.rejects(sp.openTimeline([read(jobFile(2, partName(1))), read(jobFile(2, 'job.h5'))]), {
      code: 'job_not_one_job',
      message:
        'job_rank00001.h5 and job.h5 are not files of one job: job_rank00001.h5 is one ' +
        "process's file (no mpi_size), job.h5 records mpi_size 2",
    });
  });
});

describe('comparing with a job written one file per process', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it("compareRuns(file, [its job's files]) finds nothing changed, as the file against itself", async () => {
    const job = await sp.compareRuns(read(jobFile(2, 'job.h5')), parts(2).map(read), { ranks: 'all' });
    const itself = await sp.compareRuns(read(jobFile(2, 'job.h5')), read(jobFile(2, 'job.h5')), { ranks: 'all' });
    try {
      assert.deepEqual(job.regions, itself.regions);
      assert.deepEqual(job.partnerLanes, itself.partnerLanes);
      assert.ok(job.regions.every((r) => r.deltaSelf === 0 && r.deltaTotal === 0));
    } finally {
      job.close();
      itself.close();
    }
  });

  it('timeline-compare-open with countB: the job as run B', () => {
    const opened = sp.engineRequest(
      { type: 'timeline-compare-open', countB: 2, options: { ranks: 'all' } },
      {
        inputs: {
          fileA: read(jobFile(2, 'rerun_rank00000.h5')),
          fileB0: read(jobFile(2, partName(0))),
          fileB1: read(jobFile(2, partName(1))),
        },
      },
    );
    assert.equal(opened.type, 'result');
    assert.deepEqual(
      opened.lanes.map((l) => l.name),
      ['B · rank 0', 'B · rank 1', 'A · rank 0'],
    );
    assert.equal(opened.compare.lanesB, 2);
  });
});

describe('the engine: timeline-open with count', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('answers the job of 64 files as its one file, and the errors', () => {
    const inputs = Object.fromEntries(parts(64).map((p, i) => [`file${i}`, read(p)]));
    const job = sp.engineRequest({ type: 'timeline-open', count: 64, options: { ranks: 'all' } }, { inputs });
    assert.equal(job.type, 'result');
    const jobImbalance = sp.engineRequest({
      type: 'timeline-imbalance',
      timeline: job.timeline,
      start: 0,
      end: job.runEnd,
    });
    const file = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: 'all' } },
      { inputs: { file: read(jobFile(64, 'job.h5')) } },
    );
    const fileImbalance = sp.engineRequest({
      type: 'timeline-imbalance',
      timeline: file.timeline,
      start: 0,
      end: file.runEnd,
    });
    for (const key of ['lanes', 'frames', 'runEnd', 'originInRun', 'runOrigin', 'unreadRanks']) {
      assert.deepEqual(job[key], file[key], key);
    }
    assert.deepEqual([...job.totals], [...file.totals]);
    assert.deepEqual(jobImbalance.rows ?? jobImbalance.regions, fileImbalance.rows ?? fileImbalance.regions);
    assert.deepEqual(Object.keys(jobImbalance).sort(), Object.keys(fileImbalance).sort());
    for (const key of Object.keys(fileImbalance)) {
      if (key !== 'timeline') assert.deepEqual(jobImbalance[key], fileImbalance[key], key);
    }
    // Default ranks: rank 0 of the job, every rank of a file without rank 0.
    const byDefault = sp.engineRequest(
      { type: 'timeline-open', count: 2 },
      { inputs: { file0: read(jobFile(2, partName(1))), file1: read(jobFile(2, partName(0))) } },
    );
    assert.deepEqual(
      byDefault.lanes.map((l) => l.name),
      ['rank 0'],
    );
    assert.deepEqual(byDefault.unreadRanks, [1]);
    const alone = sp.engineRequest({ type: 'timeline-open' }, { inputs: { file: read(jobFile(2, partName(1))) } });
    assert.deepEqual(
      alone.lanes.map((l) => [l.name, l.rank]),
      [['rank 1', 1]],
    );
    const twice = sp.engineRequest(
      { type: 'timeline-open', count: 2 },
      { inputs: { file0: read(jobFile(2, partName(0))), file1: read(jobFile(2, 'rerun_rank00000.h5')) } },
    );
    assert.equal(twice.type, 'error');
    assert.equal(twice.code, 'job_same_rank');
    assert.equal(twice.file, 'rerun_rank00000.h5');
    assert.equal(
      twice.wording,
      'job_rank00000.h5 and rerun_rank00000.h5 both hold rank 0, so they cannot be opened as one ' +
        "job: choose each process's file once, or two runs to compare.",
    );
    const none = sp.engineRequest({ type: 'timeline-open', count: 0 }, { inputs: {} });
    assert.equal(none.type, 'error');
    assert.equal(none.message, "scope-speedscope engine: 'count' must be from 1 to 4096 files");
  });
});

describe('scope-speedscope imbalance and diff with a job written one file per process', () => {
  const two = parts(2);
  itPrintsWhatTheNativeCliPrints([
    ['imbalance', ...two],
    ['imbalance', two[1], two[0], '--json'],
    ['imbalance', ...parts(64)],
    ['imbalance', two[0], jobFile(2, 'rerun_rank00000.h5')],
    ['imbalance', two[0], jobFile(2, 'job.h5')],
    ['diff', jobFile(2, 'rerun_rank00000.h5'), 'vs', ...two],
    ['diff', jobFile(64, 'job.h5'), 'vs', ...parts(64), '--ranks', 'all', '--json'],
    ['diff', jobFile(2, 'job.h5'), two[1]],
    ['diff', two[0], 'vs'],
    ['diff', ...two, two[0]],
  ]);
});
