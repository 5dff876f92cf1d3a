// The Node CLI (wasm) against the native CLI: same flags, same messages,
// same bytes, nothing written on failure.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { createScopeSpeedscope } from '../../dist/node.js';

import {
  asScopeProfiler,
  cases,
  compressedCases,
  expectedMessage,
  inputPath,
  listFiles,
  nativeCli,
  nodeCli,
  sha256,
  tempDir,
  version,
} from './helpers.mjs';

const node = (args) => spawnSync(process.execPath, [nodeCli, ...args], { encoding: 'buffer' });
const native = (args) => spawnSync(nativeCli, args, { encoding: 'buffer' });

// The CLI sorts and de-duplicates ranks and de-duplicates files; cases whose
// arguments change that way are compared with the native CLI only.
function cliArgs(c, out) {
  const args = [...c.inputs.map(inputPath), '--filepath', path.join(out, c.filepath), '--quiet'];
  if (c.ranks !== null) args.push('--ranks', c.ranks.join(','));
  if (c.include !== null) args.push('--include', ...c.include);
  if (c.exclude !== null) args.push('--exclude', ...c.exclude);
  return args;
}
const normalised = (c) =>
  JSON.stringify(c.ranks) === JSON.stringify(c.ranks && [...new Set(c.ranks)].sort((a, b) => a - b)) &&
  new Set(c.inputs).size === c.inputs.length;

describe('Node CLI', () => {
  for (const c of cases) {
    it(`case ${c.name}`, () => {
      const outNode = tempDir();
      const outNative = tempDir();
      const a = node(cliArgs(c, outNode));
      const b = native(cliArgs(c, outNative));
      assert.equal(a.stderr.toString(), b.stderr.toString());
      assert.equal(a.status, b.status);
      assert.deepEqual(listFiles(outNode), listFiles(outNative));
      for (const f of listFiles(outNode)) {
        assert.ok(fs.readFileSync(path.join(outNode, f)).equals(fs.readFileSync(path.join(outNative, f))), f);
      }
      if (c.error) {
        assert.equal(a.status, 1);
        if (!(c.ranks && c.ranks.some((r) => r < 0))) {
          assert.equal(a.stderr.toString(), `error: ${expectedMessage(c)}\n`);
        }
        assert.deepEqual(listFiles(outNode), []);
      } else if (normalised(c)) {
        assert.equal(a.status, 0, a.stderr.toString());
        assert.deepEqual(listFiles(outNode), c.outputs.map((o) => o.file).sort());
        for (const o of c.outputs) {
          assert.equal(sha256(asScopeProfiler(fs.readFileSync(path.join(outNode, o.file)))), o.sha256, o.file);
        }
      }
      fs.rmSync(outNode, { recursive: true });
      fs.rmSync(outNative, { recursive: true });
    });
  }

  // Every compressed twin, hostile chunk and refused filter against its
  // expectation, one case a file (the JS API runs every case; the native
  // CLI meets the same ones in ctest).
  const oneCasePerFile = [...new Map(compressedCases.map((c) => [c.inputs.join(), c])).values()];
  for (const c of oneCasePerFile) {
    it(`compressed case ${c.name}`, () => {
      const out = tempDir();
      const r = node(cliArgs(c, out));
      if (c.error) {
        assert.equal(r.stderr.toString(), `error: ${expectedMessage(c)}\n`);
        assert.equal(r.status, 1);
        assert.deepEqual(listFiles(out), []);
      } else if (normalised(c)) {
        assert.equal(r.status, 0, r.stderr.toString());
        assert.deepEqual(listFiles(out), c.outputs.map((o) => o.file).sort());
        for (const o of c.outputs) {
          assert.equal(sha256(asScopeProfiler(fs.readFileSync(path.join(out, o.file)))), o.sha256, o.file);
        }
      } else {
        assert.equal(r.status, 0, r.stderr.toString());
      }
      fs.rmSync(out, { recursive: true });
    });
  }

  it('-o DIR writes DIR/profile.speedscope.json and prints the summary', () => {
    const out = tempDir();
    const r = node([inputPath('edge_s3.h5'), '-o', path.join(out, 'new', 'dir')]);
    assert.equal(r.status, 0, r.stderr.toString());
    const file = path.join(out, 'new', 'dir', 'profile.speedscope.json');
    assert.equal(
      r.stdout.toString(),
      `Outputs saved to:\n  ${file}\n\nView ${file} at https://www.speedscope.app (or: npx speedscope <file>)\n`,
    );
    assert.equal(
      r.stdout.toString(),
      native([inputPath('edge_s3.h5'), '-o', path.join(out, 'new', 'dir')]).stdout.toString(),
    );
  });

  it('creates no directory when the export fails', () => {
    const out = tempDir();
    const r = node([inputPath('overlap_s3.h5'), '-o', path.join(out, 'a', 'b')]);
    assert.equal(r.status, 1);
    assert.deepEqual(fs.readdirSync(out), []);
  });

  it('fails to write as the native CLI does: its message, nothing left behind', () => {
    for (const target of ['blocker/sub/profile.json', 'taken.json']) {
      const outs = [tempDir(), tempDir()];
      for (const out of outs) {
        fs.writeFileSync(path.join(out, 'blocker'), '');
        fs.mkdirSync(path.join(out, 'taken.json'));
      }
      const a = node([inputPath('edge_s3.h5'), '--filepath', path.join(outs[0], target)]);
      const b = native([inputPath('edge_s3.h5'), '--filepath', path.join(outs[1], target)]);
      assert.equal(a.status, 1, target);
      assert.equal(b.status, 1, target);
      assert.equal(a.stderr.toString().replaceAll(outs[0], '<out>'), b.stderr.toString().replaceAll(outs[1], '<out>'));
      assert.match(a.stderr.toString(), /^error: cannot (write|create directory) /);
      for (const out of outs) {
        assert.deepEqual(fs.readdirSync(out).sort(), ['blocker', 'taken.json']);
        assert.deepEqual(fs.readdirSync(path.join(out, 'taken.json')), []);
        fs.rmSync(out, { recursive: true });
      }
    }
  });

  it('says when a file does not exist', () => {
    const r = node(['no/such.h5', '-o', tempDir()]);
    assert.equal(r.status, 1);
    assert.equal(r.stderr.toString(), 'error: HDF5 file not found: no/such.h5\n');
  });

  it('prints help, version and usage errors like the native CLI', () => {
    for (const args of [
      ['--help'],
      ['--version'],
      [],
      ['x.h5'],
      ['x.h5', '-o', 'd', '--bogus'],
      ['x.h5', '-o', 'd', '--ranks', '1-x'],
      ['serve', '--help'],
      ['serve', 'a.h5', 'vs'],
      ['serve', 'vs', 'b.h5', '--port', '0'],
      ['serve', 'a.h5', 'vs', 'b.h5', 'vs', 'c.h5'],
    ]) {
      const a = node(args);
      const b = native(args);
      assert.equal(a.status, b.status, args.join(' '));
      assert.equal(a.stdout.toString(), b.stdout.toString(), args.join(' '));
      assert.equal(a.stderr.toString(), b.stderr.toString(), args.join(' '));
    }
    assert.equal(node(['--version']).stdout.toString(), `scope-speedscope ${version}\n`);
    const help = node(['--help']).stdout.toString();
    for (const flag of ['-o', '--ranks', '--include', '--exclude', '--label', '--quiet', '--filepath', '--version']) {
      assert.ok(help.includes(flag), flag);
    }
    assert.equal(node([]).status, 2);
  });

  it('parses serve FILE... [vs FILE...] with the native parser: the files, vs and the files before it', async () => {
    const sp = await createScopeSpeedscope();
    const pick = ({ command, files, vs, aFiles }) => ({ command, files, vs, aFiles });
    assert.deepEqual(pick(sp.cli.parse(['serve', 'a0.h5', 'a1.h5', 'vs', 'b0.h5', '--port', '0'])), {
      command: 'serve',
      files: ['a0.h5', 'a1.h5', 'b0.h5'],
      vs: true,
      aFiles: 2,
    });
    assert.deepEqual(pick(sp.cli.parse(['serve', 'p0.h5', 'p1.h5', 'p2.h5'])), {
      command: 'serve',
      files: ['p0.h5', 'p1.h5', 'p2.h5'],
      vs: false,
      aFiles: 1,
    });
    assert.deepEqual(pick(sp.cli.parse(['diff', 'a.h5', 'vs', 'b0.h5', 'b1.h5'])), {
      command: 'diff',
      files: ['a.h5', 'b0.h5', 'b1.h5'],
      vs: true,
      aFiles: 1,
    });
    assert.throws(() => sp.cli.parse(['serve', 'a.h5', 'vs']), {
      message: 'the following arguments are required: B (after vs)',
    });
  });

  it('applies --label like the native CLI', () => {
    const outA = tempDir();
    const outB = tempDir();
    const args = (o) => [
      inputPath('nested_s3.h5'),
      inputPath('edge_s3.h5'),
      '-o',
      o,
      '--label',
      'first run',
      '--quiet',
    ];
    assert.equal(node(args(outA)).status, 0);
    assert.equal(native(args(outB)).status, 0);
    assert.deepEqual(listFiles(outA), ['profile_edge_s3.speedscope.json', 'profile_first_run.speedscope.json']);
    for (const f of listFiles(outA)) {
      assert.ok(fs.readFileSync(path.join(outA, f)).equals(fs.readFileSync(path.join(outB, f))));
    }
  });

  it('--ranks all exports every rank of each file, as --ranks 0-3 and as the native CLI', () => {
    const [outA, outB, outC] = [tempDir(), tempDir(), tempDir()];
    const file = inputPath('ranks_imbalance_s3.h5');
    const other = inputPath('nested_s3.h5'); // its own ranks
    assert.equal(node([file, other, '-o', outA, '--ranks', 'all', '--quiet']).status, 0);
    assert.equal(native([file, other, '-o', outB, '--ranks', 'all', '--quiet']).status, 0);
    assert.equal(native([file, '-o', outC, '--ranks', '0-3', '--quiet']).status, 0);
    assert.deepEqual(listFiles(outA), listFiles(outB));
    for (const f of listFiles(outA)) {
      assert.ok(fs.readFileSync(path.join(outA, f)).equals(fs.readFileSync(path.join(outB, f))), f);
    }
    const doc = JSON.parse(fs.readFileSync(path.join(outA, 'profile_ranks_imbalance_s3.speedscope.json'), 'utf8'));
    const alone = JSON.parse(fs.readFileSync(path.join(outC, 'profile.speedscope.json'), 'utf8'));
    assert.deepEqual(
      doc.profiles.map((p) => p.name),
      alone.profiles.map((p) => p.name),
    );
    assert.deepEqual(doc.profiles, alone.profiles);
    const bad = node([file, '-o', outA, '--ranks', '0', 'all']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr.toString(), /error: --ranks all names every rank: give it alone, not with other ranks\n$/);
  });
});
