// Source locations through the package and the Node CLI: the option
// sourceLocations (exact documents against tests/fixtures/source/expected,
// written by tests/fixtures/gen/make_source_expected.py), onWarning,
// timeline.frameSources, the engine's open, and `--source-locations`,
// `imbalance --source` and `diff --source` printing the native CLI's bytes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { asScopeProfiler, fixtures, itPrintsWhatTheNativeCliPrints, nodeCli, tempDir } from './helpers.mjs';
import { concatChunks, createScopeSpeedscope } from '../../dist/node.js';

const source = (name) => path.join(fixtures, 'source', name);
const expected = (name) => fs.readFileSync(source(path.join('expected', `${name}.speedscope.json`)));
const IO_FILE = 'io/wr\u00eete.py';

let sp;
before(async () => {
  sp = await createScopeSpeedscope();
});

function exported(name, options) {
  const [out] = sp.exportSpeedscope([{ name: source(`${name}.h5`), path: source(`${name}.h5`) }], {
    ranks: [0, 1],
    ...options,
  });
  return concatChunks(out.chunks);
}

describe('sourceLocations', () => {
  for (const name of ['sources_s1', 'sources_s2', 'sources_s3', 'hostile_s1', 'hostile_s3', 'wronglen_s2']) {
    it(`${name}: each frame its lowest rank's file and line, the expected bytes`, () => {
      assert.deepEqual(asScopeProfiler(exported(name, { sourceLocations: true })), expected(name));
    });
  }

  it('is off by default: frames are {name} only and nothing is said', () => {
    const warnings = [];
    const text = Buffer.from(exported('hostile_s3', { onWarning: (w) => warnings.push(w) })).toString();
    assert.match(text, /"frames": \[\{"name": "main"\}, \{"name": "solve"\}, \{"name": "io"\}\]/);
    assert.deepEqual(warnings, []);
    assert.deepEqual(exported('sources_s3', { sourceLocations: false }), exported('sources_s3', {}));
  });

  it('says a bad value once to onWarning, and still converts', () => {
    const warnings = [];
    exported('hostile_s3', { sourceLocations: true, onWarning: (w) => warnings.push(w) });
    assert.deepEqual(warnings, [
      `${source('hostile_s3.h5')}: 3 source location value(s) could not be used and are read as unknown ` +
        "(the first: dataset 'rank_region_index/source_files' could not be read (dataset " +
        "'rank_region_index/source_files' does not hold strings))",
    ]);
    // A callback that throws cannot stop the export.
    const out = exported('hostile_s3', {
      sourceLocations: true,
      onWarning: () => {
        throw new Error('no');
      },
    });
    assert.deepEqual(asScopeProfiler(out), expected('hostile_s3'));
  });

  it('must be true or false', () => {
    assert.throws(() => exported('sources_s3', { sourceLocations: 'yes' }), /sourceLocations must be true or false/);
  });
});

describe('timeline.frameSources', () => {
  it('per frame {file, line, text}, null when unknown; [] without the option', async () => {
    const input = { name: 'sources_s2.h5', bytes: new Uint8Array(fs.readFileSync(source('sources_s2.h5'))) };
    const tl = await sp.openTimeline(input, { ranks: [0, 1], sourceLocations: true });
    assert.deepEqual(tl.frames, ['main', 'solve', 'io']);
    assert.deepEqual(tl.frameSources, [
      { file: 'run.py', line: 12, text: 'main()' },
      { file: null, line: null, text: null },
      { file: IO_FILE, line: 3, text: '\tflush(f)\n' },
    ]);
    tl.close();
    const plain = await sp.openTimeline(input, { ranks: [0, 1] });
    assert.deepEqual(plain.frameSources, []);
    plain.close();
  });

  it('through the engine: timeline-open with sourceLocations', () => {
    const input = { name: 'hostile_s3.h5', bytes: new Uint8Array(fs.readFileSync(source('hostile_s3.h5'))) };
    const answer = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: [0, 1], sourceLocations: true } },
      { inputs: { file: input } },
    );
    assert.equal(answer.type, 'result', JSON.stringify(answer));
    assert.deepEqual(answer.frameSources, [
      { file: null, line: null, text: null },
      { file: null, line: null, text: 'y'.repeat(4096) },
      { file: null, line: 3, text: '\tflush(f)\n' },
    ]);
    assert.equal(answer.warnings.length, 1);
    assert.match(answer.warnings[0], /^hostile_s3\.h5: 3 source location value\(s\)/);
    const plain = sp.engineRequest({ type: 'timeline-open', options: { ranks: [0, 1] } }, { inputs: { file: input } });
    assert.deepEqual(plain.frameSources, []);
    assert.deepEqual(plain.warnings, []);
  });
});

describe("a timeline's downloads", () => {
  const read = (name) => ({ name: `${name}.h5`, bytes: new Uint8Array(fs.readFileSync(source(`${name}.h5`))) });
  const bytesOf = ([out]) => concatChunks(out.chunks);

  for (const name of ['sources_s1', 'sources_s2', 'sources_s3', 'hostile_s1', 'hostile_s3', 'wronglen_s2']) {
    it(`${name}: timeline.exportSpeedscope({ sourceLocations: true }) writes the expected bytes`, async () => {
      const tl = await sp.openTimeline(read(name), { ranks: [0, 1], sourceLocations: true });
      try {
        assert.deepEqual(asScopeProfiler(bytesOf(tl.exportSpeedscope({ sourceLocations: true }))), expected(name));
        // Without the option: scope-profiler's frames, the sources read or not.
        assert.deepEqual(bytesOf(tl.exportSpeedscope()), exported(name, {}));
      } finally {
        tl.close();
      }
    });
  }

  it('of some ranks and of a window: what the export of the file writes with the same options', async () => {
    for (const name of ['sources_s2', 'hostile_s1']) {
      for (const ranks of [[1], [0]]) {
        const tl = await sp.openTimeline(read(name), { ranks, sourceLocations: true });
        try {
          for (const narrowing of [{}, { timeWindow: ['50ns', '1.5us'] }, { minDuration: '500ns' }]) {
            const options = { ...narrowing, sourceLocations: true };
            assert.deepEqual(
              bytesOf(tl.exportSpeedscope(options)),
              exported(name, { ...options, ranks }),
              `${name} ranks ${ranks} ${JSON.stringify(narrowing)}`,
            );
          }
        } finally {
          tl.close();
        }
      }
    }
  });

  it('a timeline opened without sourceLocations refuses them', async () => {
    const tl = await sp.openTimeline(read('sources_s3'), { ranks: [0, 1] });
    try {
      assert.throws(
        () => tl.exportSpeedscope({ sourceLocations: true }),
        (err) =>
          err instanceof RangeError &&
          err.message.includes(
            'exportSpeedscope: sourceLocations needs a timeline opened with sourceLocations: true ' +
              '(its source locations were not read)',
          ),
      );
      assert.throws(() => tl.exportSpeedscope({ sourceLocations: 1 }), /sourceLocations must be true or false/);
    } finally {
      tl.close();
    }
  });

  it("through the engine: timeline-export's and convert's options.sourceLocations", () => {
    const chunks = [];
    const sink = { open() {}, write: (v) => chunks.push(Buffer.from(v)), close() {}, commit() {}, abort() {} };
    const take = () => asScopeProfiler(Buffer.concat(chunks.splice(0)));
    const opened = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: [0, 1], sourceLocations: true } },
      { inputs: { file: read('sources_s1') } },
    );
    const answer = sp.engineRequest(
      { type: 'timeline-export', timeline: opened.timeline, options: { sourceLocations: true } },
      { sink },
    );
    assert.equal(answer.type, 'result', JSON.stringify(answer));
    assert.deepEqual(take(), expected('sources_s1'));
    const converted = sp.engineRequest(
      { type: 'convert', count: 1, options: { ranks: [0, 1], sourceLocations: true } },
      { inputs: { file0: read('hostile_s3') }, sink },
    );
    assert.equal(converted.type, 'result', JSON.stringify(converted));
    assert.deepEqual(take(), expected('hostile_s3'));
    const bad = sp.engineRequest(
      { type: 'timeline-export', timeline: opened.timeline, options: { sourceLocations: 'yes' } },
      { sink },
    );
    // What the timeline cannot write is refused (the page then converts the file).
    assert.deepEqual(bad, {
      type: 'refused',
      message: "scope-speedscope engine: 'options.sourceLocations' must be true or false",
    });
    const plain = sp.engineRequest(
      { type: 'timeline-open', options: { ranks: [0, 1] } },
      { inputs: { file: read('sources_s1') } },
    );
    assert.deepEqual(
      sp.engineRequest(
        { type: 'timeline-export', timeline: plain.timeline, options: { sourceLocations: true } },
        { sink },
      ),
      {
        type: 'refused',
        message:
          'exportSpeedscope: sourceLocations needs a timeline opened with sourceLocations: true ' +
          '(its source locations were not read)',
      },
    );
  });
});

describe('a comparison', () => {
  it("timeline-compare-open: each frame B's source where B knows it, else A's", () => {
    const read = (name) => ({ name, bytes: new Uint8Array(fs.readFileSync(source(name))) });
    const answer = sp.engineRequest(
      { type: 'timeline-compare-open', options: { ranks: [0, 1], sourceLocations: true } },
      { inputs: { fileA: read('hostile_s1.h5'), fileB: read('sources_s1.h5') } },
    );
    assert.equal(answer.type, 'result', JSON.stringify(answer));
    assert.deepEqual(answer.frames, ['main', 'solve', 'io']);
    assert.deepEqual(answer.frameSources, [
      { file: 'run.py', line: 12, text: 'main()' },
      { file: 'ok.py', line: null, text: null },
      { file: IO_FILE, line: 3, text: '\tflush(f)\n' },
    ]);
    assert.equal(answer.warnings.length, 1);
    assert.match(answer.warnings[0], /^hostile_s1\.h5: 5 source location value\(s\)/);
  });
});

describe('the Node CLI', () => {
  it('--source-locations writes the expected bytes and says the warning on stderr', () => {
    const dir = tempDir();
    const out = path.join(dir, 'out.speedscope.json');
    const run = spawnSync(
      process.execPath,
      [nodeCli, source('hostile_s3.h5'), '--filepath', out, '--ranks', '0-1', '--source-locations', '-q'],
      { encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /^warning: .*hostile_s3\.h5: 3 source location value\(s\) could not be used/);
    assert.deepEqual(asScopeProfiler(fs.readFileSync(out)), expected('hostile_s3'));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('prints what the native CLI prints', () => {
    itPrintsWhatTheNativeCliPrints([
      ['imbalance', source('sources_s3.h5'), '--source'],
      ['imbalance', source('sources_s1.h5'), '--source', '--json'],
      ['imbalance', source('hostile_s3.h5'), '--source'],
      ['diff', source('hostile_s1.h5'), source('sources_s1.h5'), '--ranks', 'all', '--source'],
      ['diff', source('sources_s2.h5'), source('sources_s3.h5'), '--source', '--json'],
      ['diff', source('sources_s2.h5'), source('sources_s3.h5'), '--source=1'],
    ]);
  });
});
