// Shared by tests/js/big_files.test.mjs and tests/web/big-files.test.mjs:
// valid profiles whose data lies beyond 2 GiB and beyond 4 GiB (sparse files
// made by tests/fixtures/gen/make_big.py, a few hundred KB on disk), and what
// the native CLI makes of them.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = path.join(root, 'tests', 'fixtures', 'gen', 'make_big.py');
export const bigDir = path.join(root, 'build', 'big-files');
export const bigFiles = ['beyond_3gib_s3.h5', 'beyond_5gib_s3.h5'];
export const GIB = 2 ** 30;

// Makes the files when missing or older than their script.
export function makeBigFiles() {
  const stale = bigFiles.some((f) => {
    const p = path.join(bigDir, f);
    return !fs.existsSync(p) || fs.statSync(p).mtimeMs < fs.statSync(script).mtimeMs;
  });
  if (stale) execFileSync('/usr/bin/python3', [script, bigDir], { stdio: 'pipe' });
  return bigFiles.map((f) => path.join(bigDir, f));
}

// The native CLI's output for a file: { name, sha256, bytes }.
export function nativeOutput(file) {
  const out = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'scope-speedscope-big-'));
  try {
    execFileSync(path.join(root, 'build', 'native', 'scope-speedscope'), [file, '-o', out, '--quiet']);
    const names = fs.readdirSync(out);
    if (names.length !== 1) throw new Error(`native: ${names.length} outputs`);
    const bytes = fs.readFileSync(path.join(out, names[0]));
    return { name: names[0], sha256: crypto.createHash('sha256').update(bytes).digest('hex'), bytes };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

export const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
