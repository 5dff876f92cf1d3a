// Shared by the set-up tests: the pinned source packages as cmake/deps.cmake
// states them, a fake apt-get, the dependency cache's folder, a copy of the
// repository to build in, and a local port that nothing listens on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const depsCmake = path.join(root, 'cmake', 'deps.cmake');
export const checkSources = path.join(root, 'cmake', 'check-sources.cmake');

export function tempDir(prefix = 'scope-speedscope-setup-') {
  return fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), prefix));
}

// The pinned packages, read from deps.cmake's set() lines (the one place
// they are written): [{ name: 'ZLIB', package, version, suite, tarball, sha256 }].
export function pinnedPackages() {
  const text = fs.readFileSync(depsCmake, 'utf8');
  const value = (name, field) => {
    const m = text.match(new RegExp(`^set\\(SCOPE_SPEEDSCOPE_${name}_${field} (\\S+)\\)$`, 'm'));
    if (!m) throw new Error(`deps.cmake has no SCOPE_SPEEDSCOPE_${name}_${field}`);
    return m[1];
  };
  const names = text.match(/^set\(SCOPE_SPEEDSCOPE_SOURCE_PACKAGES ([A-Z0-9 ]+)\)$/m)[1].split(' ');
  return names.map((name) => ({
    name,
    package: value(name, 'PACKAGE'),
    version: value(name, 'VERSION'),
    suite: value(name, 'SUITE'),
    tarball: value(name, 'TARBALL'),
    sha256: value(name, 'SHA256'),
  }));
}

// A folder with an executable `apt-get` that appends its arguments (one
// JSON array per call) to calls.jsonl, copies the private sources folder it
// was given to sources-<n>/, and exits with `exitCode`, fetching nothing.
export function fakeAptGet(exitCode = 0) {
  const dir = tempDir('scope-speedscope-fake-apt-');
  const log = path.join(dir, 'calls.jsonl');
  const script = `#!/usr/bin/env node
const fs = require('fs'), path = require('path');
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args, cwd: process.cwd() }) + '\\n');
const parts = args.find((a) => a.startsWith('Dir::Etc::SourceParts='));
if (parts) {
  const from = parts.slice('Dir::Etc::SourceParts='.length);
  const n = fs.readFileSync(${JSON.stringify(log)}, 'utf8').trim().split('\\n').length;
  fs.cpSync(from, path.join(${JSON.stringify(dir)}, 'sources-' + n), { recursive: true });
}
process.exit(${exitCode});
`;
  fs.writeFileSync(path.join(dir, 'apt-get'), script, { mode: 0o755 });
  const calls = () =>
    fs.existsSync(log)
      ? fs
          .readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  return { dir, calls };
}

// Runs cmake -P check-sources.cmake; returns { status, stdout, stderr }.
export function runCheckSources(dir, { only, env = {} } = {}) {
  const args = [`-DDIR=${dir}`];
  if (only) args.push(`-DONLY=${only}`);
  args.push('-P', checkSources);
  return spawnSync('cmake', args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });
}

// The dependency cache as deps.cmake finds it.
export function depsCacheDir(env = process.env) {
  if (env.SCOPE_SPEEDSCOPE_DEPS_DIR) return env.SCOPE_SPEEDSCOPE_DEPS_DIR;
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) {
    return path.join(env.XDG_CACHE_HOME, 'scope-speedscope', 'deps');
  }
  return path.join(os.homedir(), '.cache', 'scope-speedscope', 'deps');
}

// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
export async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Copies the repository's tracked files (as a clean clone has them, with
// their times, so that npm sees node_modules as up to date) into <dest>,
// and links node_modules.
export function copyRepository(dest) {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const rel of listed.stdout.split('\0').filter(Boolean)) {
    const from = path.join(root, rel);
    if (!fs.existsSync(from)) continue; // deleted, not yet committed
    const to = path.join(dest, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(from, to, { preserveTimestamps: true, verbatimSymlinks: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dest, 'node_modules'));
}
