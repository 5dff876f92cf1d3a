// Hostile files through the wasm build: every file of tests/fixtures/bad
// (with its cases.json arguments) through the Node CLI and the JS API, and
// the seeded campaign of damaged files (generated into the native build tree
// by tests/fixtures/gen/make_mutations.py) through the Node CLI, against the
// native CLI. The rules: a clean refusal (exit 1, "error: <message>", nothing
// written) or a correct conversion; no signal, no trap, no hang (30 s),
// under 1 GiB; after any of them the same module instance converts a good
// file correctly.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import {
  asScopeProfiler,
  fixtures,
  inputPath,
  listFiles,
  nativeCli,
  nodeCli,
  root,
  sha256,
  tempDir,
} from './helpers.mjs';
import { createScopeSpeedscope, concatChunks, ScopeSpeedscopeError } from '../../dist/node.js';

const TIME_LIMIT_MS = 30_000;
const MEMORY_LIMIT_KIB = 1024 * 1024;

const badDir = path.join(fixtures, 'bad');
const badCases = JSON.parse(fs.readFileSync(path.join(badDir, 'cases.json'), 'utf8'));
const expected = JSON.parse(fs.readFileSync(path.join(badDir, 'expected.json'), 'utf8'));
const mutationsDir = path.join(root, 'build', 'native', 'tests', 'cpp', 'mutations');
const mutationsFile = path.join(mutationsDir, 'mutations.json');
if (!fs.existsSync(mutationsFile)) throw new Error(`${mutationsFile} is missing: run npm run build first`);
const campaign = JSON.parse(fs.readFileSync(mutationsFile, 'utf8'));

// Runs a CLI under GNU time (peak memory) with a time limit.
function watched(command, args) {
  const r = spawnSync('/usr/bin/time', ['--quiet', '-f', '%M', command, ...args], {
    encoding: 'buffer',
    timeout: TIME_LIMIT_MS,
    killSignal: 'SIGKILL',
  });
  const err = r.stderr.toString();
  const lines = err.split('\n');
  lines.pop(); // the empty string after the last newline
  const rss = Number(lines.pop());
  return {
    status: r.status,
    signal: r.signal,
    timedOut: r.error?.code === 'ETIMEDOUT',
    stderr: lines.length ? `${lines.join('\n')}\n` : '',
    stdout: r.stdout.toString(),
    rssKiB: rss,
  };
}

// The same, without blocking (for the campaign's pool of runs).
function watchedAsync(command, args) {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/time',
      ['--quiet', '-f', '%M', command, ...args],
      {
        encoding: 'buffer',
        timeout: TIME_LIMIT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 1 << 26,
      },
      (error, stdout, stderr) => {
        const lines = stderr.toString().split('\n');
        lines.pop();
        const rss = Number(lines.pop());
        resolve({
          status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          signal: error?.signal ?? null,
          timedOut: Boolean(error?.killed),
          stderr: lines.length ? `${lines.join('\n')}\n` : '',
          stdout: stdout.toString(),
          rssKiB: rss,
        });
      },
    );
  });
}

const nodeRun = (args) => watched(process.execPath, [nodeCli, ...args]);

function withinLimits(r, what) {
  assert.equal(r.timedOut, false, `${what}: still running after ${TIME_LIMIT_MS} ms`);
  assert.equal(r.signal, null, `${what}: ended by ${r.signal}`);
  assert.ok(r.rssKiB < MEMORY_LIMIT_KIB, `${what}: peak memory ${r.rssKiB} KiB`);
  assert.ok(r.status === 0 || r.status === 1, `${what}: exit ${r.status}\n${r.stderr}`);
}

// HDF5's own reason at the end of a message may differ between its file
// driver (native CLI, reading a path) and its memory driver (Node CLI).
const withoutHdf5Reason = (message) => message.replace(/ \([^()]*\)\n$/, ' (...)\n');

const good = 'hdf5-schema-3.h5';
const goodBytes = () => new Uint8Array(fs.readFileSync(inputPath(good)));

describe('bad input: the Node CLI', () => {
  for (const c of badCases) {
    it(c.file, () => {
      const file = path.join(badDir, c.file);
      const out = tempDir();
      const r = nodeRun([file, ...c.args, '-o', out, '--quiet']);
      withinLimits(r, c.file);
      const want = expected[c.file];
      if (want.error) {
        assert.equal(r.stderr, `error: ${want.error.message.replaceAll('{path}', file)}\n`);
        assert.equal(r.status, 1);
        assert.deepEqual(listFiles(out), []);
      } else {
        assert.equal(r.status, 0, r.stderr);
        for (const o of want.outputs) {
          assert.equal(sha256(asScopeProfiler(fs.readFileSync(path.join(out, o.file)))), o.sha256);
        }
      }
    });
  }
});

describe('bad input: the JS API keeps working after each file', () => {
  let sp;
  let goodOutput;
  before(async () => {
    sp = await createScopeSpeedscope();
    goodOutput = concatChunks(sp.exportSpeedscope([{ name: good, bytes: goodBytes() }])[0].chunks);
  });

  for (const c of badCases) {
    it(c.file, () => {
      const file = path.join(badDir, c.file);
      const include = c.args[0] === '--include' ? c.args.slice(1) : null;
      const want = expected[c.file];
      const convert = () =>
        sp.exportSpeedscope([{ name: file, bytes: new Uint8Array(fs.readFileSync(file)) }], { include });
      if (want.error) {
        assert.throws(convert, (e) => {
          assert.ok(e instanceof ScopeSpeedscopeError, String(e));
          assert.equal(e.kind, want.error.kind);
          assert.equal(e.message, want.error.message.replaceAll('{path}', file));
          return true;
        });
      } else {
        const [o] = convert();
        assert.equal(sha256(asScopeProfiler(concatChunks(o.chunks))), want.outputs[0].sha256);
      }
      const [again] = sp.exportSpeedscope([{ name: good, bytes: goodBytes() }]);
      assert.deepEqual(concatChunks(again.chunks), goodOutput);
    });
  }
});

// Every file of the campaign goes through the wasm module against the native
// CLI in differential.test.mjs (in one process). Through the Node CLI, one
// process per file (about 0.6 s each), it takes the first file of every kind
// of damage and every eighth file besides: the CLI is a thin shell, and what
// this adds is its exit code, its single line and nothing left written.
const seenKinds = new Set();
const cliCampaign = campaign.filter((m, i) => {
  const first = !seenKinds.has(m.kind);
  seenKinds.add(m.kind);
  return first || i % 8 === 0;
});

describe('bad input: the seeded campaign, Node CLI against native CLI', () => {
  // All runs first, a few at a time (each is one process under GNU time and a
  // time limit), then one test per file.
  const results = new Map();
  before(async () => {
    const jobs = cliCampaign.map((m) => async () => {
      const file = path.join(mutationsDir, m.file);
      const outNode = tempDir();
      const outNative = tempDir();
      const [a, b] = await Promise.all([
        watchedAsync(process.execPath, [nodeCli, file, '-o', outNode, '--quiet']),
        watchedAsync(nativeCli, [file, '-o', outNative, '--quiet']),
      ]);
      results.set(m.file, { file, a, b, outNode, outNative });
    });
    const pool = Array.from({ length: 2 }, async () => {
      while (jobs.length) await jobs.shift()();
    });
    await Promise.all(pool);
  });

  it('takes every kind of damage of the campaign', () => {
    assert.ok(cliCampaign.length >= campaign.length / 8, `${cliCampaign.length} of ${campaign.length}`);
    assert.deepEqual(new Set(cliCampaign.map((m) => m.kind)), new Set(campaign.map((m) => m.kind)));
  });

  for (const m of cliCampaign) {
    it(`${m.file} (${m.kind}: ${m.detail})`, () => {
      const { file, a, b, outNode, outNative } = results.get(m.file);
      withinLimits(a, `node ${m.file}`);
      withinLimits(b, `native ${m.file}`);
      assert.equal(a.status, b.status, `node: ${a.stderr} native: ${b.stderr}`);
      assert.equal(withoutHdf5Reason(a.stderr), withoutHdf5Reason(b.stderr));
      if (m.error) assert.equal(a.stderr, `error: ${m.error.replaceAll('{path}', file)}\n`);
      assert.deepEqual(listFiles(outNode), listFiles(outNative));
      if (a.status === 1) {
        assert.match(a.stderr, /^error: [^\n]+\n$/);
        assert.deepEqual(listFiles(outNode), []);
      } else {
        const bytes = fs.readFileSync(path.join(outNode, 'profile.speedscope.json'));
        assert.ok(bytes.equals(fs.readFileSync(path.join(outNative, 'profile.speedscope.json'))));
        const names = JSON.parse(bytes.toString()).shared.frames.map((f) => f.name);
        for (const n of names)
          assert.ok(m.names.includes(n), `region name ${JSON.stringify(n.slice(0, 80))} is not in the file`);
      }
    });
  }
});

describe('a trap inside the module', () => {
  // What a heap-corrupting bug did before (hdf5_gheap_wasm_heap_corrupt.h5:
  // "the module stays broken"), done on purpose: a sink that scribbles over
  // WebAssembly memory through the view it is handed. The conversion then
  // stops inside the module (a trap, or the Emscripten glue failing on a
  // corrupted heap); that must come out as a ScopeSpeedscopeError in words
  // (never a raw RuntimeError or TypeError), and the next calls, on the
  // instance the wrapper makes anew, must be correct.
  const scribbles = {
    'the heap after the output buffer': [
      (v) => new Uint8Array(v.buffer, v.byteOffset + v.byteLength).fill(0xff),
      'memory access out of bounds',
    ],
    'everything below the output buffer': [(v) => new Uint8Array(v.buffer, 0, v.byteOffset).fill(0xff), null],
    'the first MiB': [(v) => new Uint8Array(v.buffer, 0, 1 << 20).fill(0xff), null],
    'all of it, with zeros': [(v) => new Uint8Array(v.buffer).fill(0), null],
  };
  for (const [what, [scribble, trap]] of Object.entries(scribbles)) {
    it(`over ${what}: reported in words, and the next conversion is correct`, async () => {
      const sp = await createScopeSpeedscope();
      const input = () => [{ name: good, bytes: goodBytes() }];
      const want = concatChunks(sp.exportSpeedscope(input())[0].chunks);
      const scribbler = { open() {}, close() {}, commit() {}, abort() {}, write: scribble };
      assert.throws(
        () => sp.exportSpeedscope(input(), { sink: scribbler }),
        (e) => {
          assert.ok(e instanceof ScopeSpeedscopeError, `not in words: ${e}`);
          assert.equal(e.kind, 'CorruptProfileError');
          if (trap) {
            assert.equal(e.message, `hdf5-schema-3.h5: the file is damaged: the converter stopped (${trap})`);
          } else {
            assert.match(e.message, /^hdf5-schema-3\.h5: the file is damaged: the converter stopped \(.+\)$/);
          }
          return true;
        },
      );
      assert.deepEqual(concatChunks(sp.exportSpeedscope(input())[0].chunks), want);
      assert.equal(sp.checkPattern('solve'), null);
      assert.equal(sp.inspect(input()[0]).regions[0].name, 'solve');
    });
  }
});
