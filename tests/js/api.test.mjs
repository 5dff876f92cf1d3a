// The JavaScript API over the wasm core: every shared case, errors, progress,
// recovery after failures, memory over many conversions.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it, before } from 'node:test';

import { asScopeProfiler, cases, compressedCases, expectedMessage, inputPath, sha256, version } from './helpers.mjs';
import {
  createScopeSpeedscope,
  concatChunks,
  NS_PER_SECOND,
  SCHEMA_URL,
  TIME_UNIT,
  ScopeSpeedscopeError,
} from '../../dist/node.js';

const read = (name) => ({ name: inputPath(name), bytes: new Uint8Array(fs.readFileSync(inputPath(name))) });
const onDisk = (name) => ({ name: inputPath(name), path: inputPath(name) });

function run(sp, c, extra = {}, input = read) {
  return sp.exportSpeedscope(c.inputs.map(input), {
    filepath: c.filepath,
    ranks: c.ranks,
    include: c.include,
    exclude: c.exclude,
    ...extra,
  });
}

describe('scope-speedscope JS API', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('exports the constants and its version', () => {
    assert.equal(NS_PER_SECOND, 1e9);
    assert.equal(SCHEMA_URL, 'https://www.speedscope.app/file-format-schema.json');
    assert.equal(TIME_UNIT, 'seconds');
    assert.equal(sp.version, version);
  });

  // Every shared case; every compressed twin and hostile chunk, as bytes
  // and as a file read from its path.
  const all = [
    ...cases.map((c) => [c, read]),
    ...compressedCases.flatMap((c) => [
      [c, read],
      [{ ...c, name: `${c.name} (path)` }, onDisk],
    ]),
  ];
  for (const [c, input] of all) {
    it(`case ${c.name}`, () => {
      if (c.error) {
        assert.throws(
          () => run(sp, c, {}, input),
          (e) => {
            assert.ok(e instanceof ScopeSpeedscopeError);
            assert.equal(e.kind, c.error.kind);
            assert.equal(e.message, expectedMessage(c));
            return true;
          },
        );
        return;
      }
      const outputs = run(sp, c, {}, input);
      // In input order (cases.json lists them by name).
      assert.deepEqual(outputs.map((o) => o.fileName).sort(), c.outputs.map((o) => o.file).sort());
      for (const o of outputs) {
        const want = c.outputs.find((x) => x.file === o.fileName);
        const bytes = asScopeProfiler(concatChunks(o.chunks));
        assert.equal(bytes.length, want.bytes);
        assert.equal(sha256(bytes), want.sha256);
      }
    });
  }

  it('gives identical bytes in 7-byte chunks', () => {
    const c = cases.find((x) => x.name === 'threads_s3');
    const [whole] = run(sp, c);
    const [small] = run(sp, c, { flushSize: 7 });
    assert.ok(small.chunks.length > 100);
    assert.ok(small.chunks.slice(0, -1).every((chunk) => chunk.length === 7));
    assert.deepEqual(concatChunks(small.chunks), concatChunks(whole.chunks));
  });

  it('reports progress of each phase', () => {
    const seen = new Set();
    run(
      sp,
      cases.find((x) => x.name === 'gzip_s3'),
      {
        onProgress: ({ phase, done, total }) => {
          assert.ok(done <= total, `${phase} ${done}/${total}`);
          seen.add(phase);
        },
      },
    );
    assert.deepEqual([...seen].sort(), ['read', 'reconstruct', 'write']);
  });

  it('inspects a run with threads and tasks', () => {
    const info = sp.inspect(read('tasks_s3.h5'));
    assert.equal(info.displayLabel, 'tasks_s3');
    assert.equal(info.schemaVersion, 3);
    assert.equal(info.storageLayout, 'columnar');
    assert.equal(info.numRanks, 1);
    assert.deepEqual(
      info.regions.map((r) => [r.name, r.calls]),
      [
        ['session', 1],
        ['job', 2],
      ],
    );
    assert.deepEqual(
      info.ranks[0].lanes.map((l) => l.profileName),
      ['rank 0 - MainThread', 'rank 0 - Task-2 (job) on MainThread', 'rank 0 - Task-3 (job) on MainThread'],
    );
  });

  it('inspects bytes given directly', () => {
    const info = sp.inspect(fs.readFileSync(inputPath('nested_s3.h5')), 'x.h5');
    assert.equal(info.label, 'my run 128 ranks');
    assert.deepEqual(
      info.ranks.map((r) => r.rank),
      [0, 1],
    );
  });

  it('builds the document object of a small run', () => {
    const doc = sp.buildSpeedscopeDocument(read('hdf5-schema-3.h5'));
    assert.equal(doc.$schema, SCHEMA_URL);
    assert.equal(doc.exporter, `scope-speedscope@${version}`);
    assert.deepEqual(doc.shared.frames, [{ name: 'solve' }]);
    assert.equal(doc.profiles[0].events.length, 6);
  });

  it('streams into a sink and reports a failing sink as the error', () => {
    const got = [];
    const written = sp.exportSpeedscope([read('edge_s3.h5')], {
      sink: {
        open: (p) => got.push(['open', p]),
        write: (c) => got.push(['write', c.length]),
        close: () => got.push(['close']),
        commit: () => got.push(['commit']),
        abort: () => got.push(['abort']),
      },
    });
    assert.deepEqual(written, ['profile.speedscope.json']);
    assert.deepEqual(
      got.map((g) => g[0]),
      ['open', 'write', 'close', 'commit'],
    );
    const aborted = [];
    assert.throws(
      () =>
        sp.exportSpeedscope([read('edge_s3.h5')], {
          sink: {
            open() {},
            write() {
              throw new Error('disk full');
            },
            close() {},
            commit() {},
            abort: () => aborted.push(1),
          },
        }),
      (e) => e instanceof ScopeSpeedscopeError && e.kind === 'OSError' && e.message === 'disk full',
    );
    assert.deepEqual(aborted, [1]);
  });

  it('stays usable after failures, and converts the next file right', () => {
    const good = cases.find((x) => x.name === 'edge_s3');
    const expected = sha256(asScopeProfiler(concatChunks(run(sp, good)[0].chunks)));
    for (const bad of cases.filter((x) => x.error)) {
      assert.throws(() => run(sp, bad), ScopeSpeedscopeError);
      assert.equal(sha256(asScopeProfiler(concatChunks(run(sp, good)[0].chunks))), expected);
    }
    assert.throws(
      () => sp.exportSpeedscope([{ name: 'empty.h5', bytes: new Uint8Array(0) }]),
      /empty.h5 is not a readable HDF5 profiling file/,
    );
    assert.equal(sha256(asScopeProfiler(concatChunks(run(sp, good)[0].chunks))), expected);
  });

  it('does not grow wasm memory over 100 conversions', () => {
    const c = cases.find((x) => x.name === 'gzip_s3');
    const bad = cases.find((x) => x.name === 'ERR_partial_overlap');
    for (let i = 0; i < 5; i++) run(sp, c);
    const before = sp.wasmMemoryBytes;
    for (let i = 0; i < 100; i++) {
      if (i % 10 === 0) assert.throws(() => run(sp, bad));
      run(sp, c);
    }
    assert.equal(sp.wasmMemoryBytes, before);
  });

  it("says how large a File it reads whole: 256 MiB, or createScopeSpeedscope's readWholeBytes", async () => {
    assert.equal(sp.readWholeBytes, 256 * 1024 * 1024);
    assert.equal((await createScopeSpeedscope({ readWholeBytes: 1234 })).readWholeBytes, 1234);
  });

  it('rejects inputs without bytes', () => {
    assert.throws(() => sp.exportSpeedscope([{ name: 'x.h5' }]), /input x.h5 has no bytes, file or path/);
  });
});
