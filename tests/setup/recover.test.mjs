// After a configure that failed, the next `npm start` recovers by itself.
// In a copy of the repository (a fresh build tree) and a dependency cache
// that has everything but zlib for wasm (so zlib must be fetched): the first
// `npm start` runs with the private apt configuration pointed at a closed
// local port and fails at configure time, naming the tarball; the second,
// with the cause removed and nothing deleted by hand, builds and serves the
// page. HDF5 and PCRE2 come from the real cache (linked), so this costs one
// build of the wasm module, not of its dependencies.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { closedPort, copyRepository, depsCacheDir, pinnedPackages, tempDir } from './helpers.mjs';

const zlib = pinnedPackages().find((p) => p.name === 'ZLIB');

// Runs `npm start` in <cwd>; resolves { status, output, url } when it exits or
// prints the page's URL (then the server is stopped).
function npmStart(cwd, env, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['start'], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let done = false;
    let asked = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      resolve({ ...result, output });
    };
    const timer = setTimeout(() => {
      if (!done) {
        done = true;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
        reject(new Error(`npm start took over ${timeoutMs} ms:\n${output.slice(-4000)}`));
      }
    }, timeoutMs);
    const take = (chunk) => {
      output += chunk;
      const m = output.match(/^Serving .* at (http:\/\/127\.0\.0\.1:\d+\/\S*)$/m)?.slice(1);
      if (m && !asked) {
        asked = true;
        // The page and its example, while the server runs.
        Promise.all([fetch(m[0]), fetch(new URL('example/real_run_s1.h5', m[0]))]).then(
          (rs) => finish({ status: null, url: m[0], http: rs.map((r) => r.status) }),
          (e) => finish({ status: null, url: m[0], http: [String(e)] }),
        );
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('exit', (status) => finish({ status, url: null }));
  });
}

test('npm start after a failed configure recovers with no manual step', { timeout: 1_500_000 }, async () => {
  const work = tempDir('scope-speedscope-recover-');
  const repo = path.join(work, 'repo');
  const deps = path.join(work, 'deps');
  copyRepository(repo);
  fs.mkdirSync(deps);
  // Everything the real cache has, but the wasm zlib and the tarballs.
  const cache = depsCacheDir();
  const entries = fs.existsSync(cache) ? fs.readdirSync(cache) : [];
  for (const name of entries) {
    if (!/^wasm-(hdf5|pcre2)-[0-9a-f]{12}$/.test(name)) continue;
    if (!fs.existsSync(path.join(cache, name, 'complete.stamp'))) continue;
    fs.symlinkSync(path.join(cache, name), path.join(deps, name));
  }
  assert.ok(fs.readdirSync(deps).length >= 2, `the cache ${cache} has no wasm HDF5 and PCRE2: build once first`);

  const env = { ...process.env, SCOPE_SPEEDSCOPE_DEPS_DIR: deps, CI: 'true', SCOPE_SPEEDSCOPE_NO_OPEN: '1' };
  delete env.SCOPE_SPEEDSCOPE_APT_URI;
  const port = await closedPort();
  const failed = await npmStart(repo, { ...env, SCOPE_SPEEDSCOPE_APT_URI: `http://127.0.0.1:${port}/debian` }, 600_000);
  assert.equal(failed.url, null, failed.output);
  assert.notEqual(failed.status, 0, failed.output);
  const said = failed.output.replace(/\s+/g, ' ');
  assert.ok(said.includes(`deps: could not fetch ${zlib.tarball}.`), failed.output);
  assert.ok(said.includes(`(SHA-256 ${zlib.sha256}) into ${deps},`), failed.output);
  assert.ok(said.includes(`--only-source '${zlib.package}=${zlib.version}'`), failed.output);
  // The state that used to stop every later run: a cache, no build system.
  assert.ok(fs.existsSync(path.join(repo, 'build', 'wasm', 'CMakeCache.txt')));
  assert.ok(!fs.existsSync(path.join(repo, 'build', 'wasm', 'Makefile')));

  const served = await npmStart(repo, env, 1_200_000);
  assert.ok(served.url, served.output);
  assert.deepEqual(served.http, [200, 200], served.output);
  assert.ok(
    fs.existsSync(
      path.join(
        deps,
        fs.readdirSync(deps).find((n) => n.startsWith('wasm-zlib-')),
        'complete.stamp',
      ),
    ),
  );
  assert.ok(fs.existsSync(path.join(repo, 'dist', 'web', 'index.html')));
  fs.rmSync(work, { recursive: true, force: true });
});
