// Shared by the node --test suites: paths, the fixture cases, byte checks.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fixtures = path.join(root, 'tests', 'fixtures');
export const dist = path.join(root, 'dist');
export const nativeCli = path.join(root, 'build', 'native', 'scope-speedscope');
export const nodeCli = path.join(dist, 'cli.js');
export const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
export const cases = JSON.parse(fs.readFileSync(path.join(fixtures, 'cases.json'), 'utf8'));
// The compressed twins of the shared cases (LZF, Zstandard) and the hostile
// chunks, from tests/fixtures/gen/make_compressed.py: inputs under h5/ too.
export const compressedCases = JSON.parse(fs.readFileSync(path.join(fixtures, 'compressed-cases.json'), 'utf8'));

for (const needed of [path.join(dist, 'node.js'), path.join(dist, 'scope-speedscope.wasm')]) {
  if (!fs.existsSync(needed)) throw new Error(`${needed} is missing: run npm run build first`);
}

export const inputPath = (name) => path.join(fixtures, 'h5', name);

// Our bytes with scope-profiler's exporter value, as the expected files have it.
export function asScopeProfiler(bytes) {
  const ours = Buffer.from(`"exporter": "scope-speedscope@${version}"`);
  const theirs = Buffer.from('"exporter": "scope-profiler@0.7.3"');
  const buf = Buffer.from(bytes);
  const at = buf.indexOf(ours);
  if (at < 0) throw new Error('output has no scope-speedscope exporter value');
  return Buffer.concat([buf.subarray(0, at), theirs, buf.subarray(at + ours.length)]);
}

export const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

export function expectedMessage(c) {
  return c.error.message.replaceAll('{path}', inputPath(c.inputs[0]));
}

export function tempDir(prefix = 'scope-speedscope-test-') {
  return fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), prefix));
}

// Every file below dir, relative.
export function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

// The cases tests/fixtures/gen/make_fixtures.py writes into the native build
// (expected outputs from the suite's Python model), inputs in generated/h5.
export const generated = path.join(root, 'build', 'native', 'tests', 'cpp', 'generated');
export function generatedCases(prefix) {
  const file = path.join(generated, 'cases.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  return JSON.parse(fs.readFileSync(file, 'utf8')).filter((c) => c.name.startsWith(prefix));
}
export const generatedInput = (name) => path.join(generated, 'h5', name);

// One test per argument list: the Node CLI prints the native CLI's bytes
// (standard output and error) and exits with its status.
export function itPrintsWhatTheNativeCliPrints(argSets) {
  const run = (command, args) => spawnSync(command, args, { encoding: 'utf8' });
  for (const args of argSets) {
    const name = args
      .slice(1)
      .map((a) => path.basename(a))
      .join(' ');
    it(name || '(no arguments)', () => {
      const native = run(nativeCli, args);
      const node = run(process.execPath, [nodeCli, ...args]);
      assert.equal(node.stdout, native.stdout);
      assert.equal(node.stderr, native.stderr);
      assert.equal(node.status, native.status);
    });
  }
}
