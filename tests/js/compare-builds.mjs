// The differential run: one answer per file, whatever build reads
// it. Each input goes through the native CLI (build/native/scope-speedscope)
// and through the WebAssembly module in Node, from its bytes and from its
// path (read lazily by the core's file driver); the outcomes must be the
// same: the same output files with the same bytes, or the same message
// (the file's path stands as {path}). Used by differential.test.mjs (the
// seeded campaign of npm test and the shared bad fixtures) and, as a
// program, by scripts/differential.sh (a larger seeded campaign):
//
//   node tests/js/compare-builds.mjs --campaign DIR/mutations.json [--bad DIR] [--jobs N]
//
// prints one line per difference and a summary; exit 1 when any file differs.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createScopeSpeedscope, ScopeSpeedscopeError, concatChunks } from '../../dist/node.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const nativeCli = path.join(root, 'build', 'native', 'scope-speedscope');
const TIME_LIMIT_MS = 60_000;

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

// Words a message must never show without ours around them (HDF5's
// internals, JavaScript's undefined).
export const RAW_WORDS = /\bundefined\b|\baddr = |\beoa = |\bNaN\b|\[object /;

// The message with the input's path and the output folder as placeholders.
function normalized(message, file, out) {
  return message.replaceAll(out, '{out}').replaceAll(file, '{path}');
}

// Every file below dir, relative, sorted.
function listFiles(dir) {
  const found = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else found.push(path.relative(dir, p));
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The native CLI's outcome: { error } (the message after "error: "), { outputs }
 * ([[file relative to the output folder, sha256]]) or { failure } (a signal, a
 * time-out, another exit status, stderr not one "error:" line).
 */
export function nativeOutcome(file, args, out) {
  fs.mkdirSync(out, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      nativeCli,
      [file, ...args, '-o', out, '--quiet'],
      {
        encoding: 'buffer',
        timeout: TIME_LIMIT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 1 << 26,
      },
      (error, stdout, stderr) => {
        const text = stderr.toString();
        const status = error ? error.code : 0;
        if (error && (error.signal || error.killed || typeof status !== 'number')) {
          resolve({ failure: `native: ${error.signal ?? 'killed'} ${text}` });
        } else if (status === 0) {
          resolve({ outputs: listFiles(out).map((f) => [f, sha256(fs.readFileSync(path.join(out, f)))]) });
        } else if (status === 1 && /^error: [^\n]*\n$/.test(text)) {
          resolve({ error: normalized(text.slice('error: '.length, -1), file, out) });
        } else {
          resolve({ failure: `native: exit ${status}: ${text}` });
        }
        fs.rmSync(out, { recursive: true, force: true });
      },
    );
  });
}

/**
 * The same through the wasm module `sp`, the input given as 'bytes' or as a
 * 'path'; the arguments are parsed by the module's own command line (the
 * native CLI's), the outputs collected in memory as if written below `out`.
 */
export function wasmOutcome(sp, file, args, out, how) {
  try {
    const options = sp.cli.parse([file, ...args, '-o', out, '--quiet']);
    const input =
      how === 'bytes' ? { name: file, bytes: new Uint8Array(fs.readFileSync(file)) } : { name: file, path: file };
    const outputs = sp.exportSpeedscope([input], {
      filepath: options.filepath,
      ranks: options.ranks,
      include: options.include,
      exclude: options.exclude,
      labels: options.labels,
      minDuration: options.minDuration,
      timeWindow: options.timeWindow,
    });
    return {
      outputs: outputs
        .map((o) => [path.relative(out, o.fileName), sha256(concatChunks(o.chunks))])
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    };
  } catch (error) {
    if (error instanceof ScopeSpeedscopeError) return { error: normalized(error.message, file, out) };
    return { failure: `wasm (${how}): ${error?.stack ?? error}` };
  }
}

const describe = (o) =>
  o.error !== undefined
    ? `error: ${o.error}`
    : o.outputs
      ? `converted: ${o.outputs.map(([f, h]) => `${f} ${h.slice(0, 12)}`).join(', ')}`
      : o.failure;

/**
 * Runs every input ({ file, args, label }) through all three; returns
 * { results: [{ input, native, bytes, path, same }], differences }.
 * `jobs` native runs go at once; `onResult` sees each result as it comes.
 */
export async function compareBuilds(inputs, { jobs = 2, onResult } = {}) {
  const sp = await createScopeSpeedscope();
  const scratch = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'scope-speedscope-diff-'));
  const results = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      const input = inputs[i];
      const out = path.join(scratch, `out-${i}`);
      const native = await nativeOutcome(input.file, input.args, out);
      const bytes = wasmOutcome(sp, input.file, input.args, out, 'bytes');
      const lazily = wasmOutcome(sp, input.file, input.args, out, 'path');
      const key = (o) => JSON.stringify(o);
      const same = native.failure === undefined && key(native) === key(bytes) && key(native) === key(lazily);
      results[i] = { input, native, bytes, path: lazily, same };
      onResult?.(results[i]);
    }
  };
  try {
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { results, differences: results.filter((r) => !r.same) };
}

export function explain(r) {
  return `${r.input.label}:\n  native: ${describe(r.native)}\n  wasm (bytes): ${describe(r.bytes)}\n  wasm (path): ${describe(r.path)}`;
}

/** The inputs of a campaign (mutations.json) and of a bad-fixture folder (cases.json). */
export function campaignInputs(mutationsFile) {
  const dir = path.dirname(mutationsFile);
  return JSON.parse(fs.readFileSync(mutationsFile, 'utf8')).map((m) => ({
    file: path.join(dir, m.file),
    args: [],
    label: `${m.file} (${m.kind}: ${m.detail})`,
  }));
}

export function badInputs(badDir) {
  const cases = JSON.parse(fs.readFileSync(path.join(badDir, 'cases.json'), 'utf8'));
  const inputs = cases.map((c) => ({
    file: path.join(badDir, c.file),
    args: c.args,
    label: `bad/${c.file} ${c.args.join(' ')}`.trim(),
  }));
  // The issue's pattern: a group repeated over a 1 MiB name (PCRE2's frames
  // are half as large in 32-bit WebAssembly; the depth limit is ours).
  inputs.push({
    file: path.join(badDir, 'name_1mb.h5'),
    args: ['--exclude', '(x|y)*z'],
    label: "bad/name_1mb.h5 --exclude '(x|y)*z'",
  });
  return inputs;
}

// As a program (scripts/differential.sh).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const value = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const inputs = [];
  if (value('--campaign')) inputs.push(...campaignInputs(value('--campaign')));
  if (value('--bad')) inputs.push(...badInputs(value('--bad')));
  const started = Date.now();
  let done = 0;
  const counts = { converted: 0, refused: 0, differ: 0 };
  const { results, differences } = await compareBuilds(inputs, {
    jobs: Number(value('--jobs') ?? 2),
    onResult: (r) => {
      done += 1;
      if (!r.same) {
        counts.differ += 1;
        process.stdout.write(`DIFFERENT ${explain(r)}\n`);
      } else if (r.native.outputs) counts.converted += 1;
      else counts.refused += 1;
      if (done % 250 === 0) process.stderr.write(`${done}/${inputs.length} files\n`);
    },
  });
  const raw = results.filter((r) => [r.native, r.bytes, r.path].some((o) => o.error && RAW_WORDS.test(o.error)));
  for (const r of raw) process.stdout.write(`RAW WORDS ${explain(r)}\n`);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(
    `${inputs.length} files in ${seconds} s: ${counts.converted} converted identically, ` +
      `${counts.refused} refused with the same message, ${differences.length} different, ` +
      `${raw.length} with raw words in a message\n`,
  );
  process.exitCode = differences.length || raw.length ? 1 : 0;
}
