// The npm package in the projects people have: `npm pack`, the tarball
// installed into a temporary folder, and the small example apps of
// tests/pkg/apps/ built and run against it:
//   node/      an ES module script (Node)                     README snippet
//   cjs/       a CommonJS script: require('scope-speedscope')  README snippet
//   browser/   convert.js + worker.js (README snippets) with a test glue,
//              bundled by esbuild (esbuild/: "type": "commonjs", the
//              README's command line) and by Vite (vite/: `vite build`, no
//              config), served on 127.0.0.1, and through Vite's dev server,
//              run in headless Chromium: bytes and a File on the main
//              thread, a File in a Web Worker
//   ts/        tsc --noEmit of an ES module, a CommonJS (compiled and run)
//              and a bundler consumer, with TypeScript 7 and 5.9
// Outputs are compared byte for byte with tests/fixtures/expected (our
// exporter value in place of scope-profiler's). Everything runs offline.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium } from 'playwright-core';

import { startServer } from '../../scripts/serve.mjs';
import { asScopeProfiler, cases, fixtures, inputPath, root, sha256, tempDir, version } from '../js/helpers.mjs';

const apps = path.join(root, 'tests', 'pkg', 'apps');
const bin = (...p) => path.join(root, 'node_modules', ...p);
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

// The README's build line for esbuild (the test runs exactly these arguments)
// and the one extra step it documents.
const ESBUILD_ARGS = ['src/main.js', 'src/worker.js', '--bundle', '--format=esm', '--outdir=dist'];
const ESBUILD_COPY = 'cp node_modules/scope-speedscope/dist/scope-speedscope.wasm dist/';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const caseNamed = (name) => cases.find((c) => c.name === name);
const expectedOf = (name) => asOurs(fs.readFileSync(path.join(fixtures, caseNamed(name).outputs[0].expected)));
const notHdf5Message = (file) => caseNamed('ERR_not_hdf5').error.message.replaceAll('{path}', file);

// An expected file (scope-profiler's exporter value) with ours.
function asOurs(bytes) {
  const theirs = Buffer.from('"exporter": "scope-profiler@0.7.3"');
  const at = bytes.indexOf(theirs);
  assert.ok(at >= 0, 'expected output without scope-profiler exporter');
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(`"exporter": "scope-speedscope@${version}"`),
    bytes.subarray(at + theirs.length)]);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

function run(command, args, cwd, options = {}) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', ...options });
  if (r.status !== 0 && !options.mayFail) {
    assert.fail(`${command} ${args.join(' ')} (in ${cwd}) exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

let work;        // the temporary folder: node_modules/scope-speedscope from the tarball, one folder per app
let tarball;

// An app folder: its files from tests/pkg/apps (plus shared sources), and
// node_modules pointing at the one installation.
function app(name, { extra = [], as = name } = {}) {
  const dir = path.join(work, as);
  fs.cpSync(path.join(apps, name), dir, { recursive: true });
  for (const from of extra) fs.cpSync(path.join(apps, from), dir, { recursive: true });
  fs.symlinkSync(path.join(work, 'install', 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

// The file's text appears in the README as it is (the snippets are the tested code).
function assertInReadme(app) {
  const file = path.join(apps, app);
  const text = fs.readFileSync(file, 'utf8').trimEnd();
  assert.ok(readme.includes(text), `README.md does not show ${path.relative(root, file)} as it is`);
}

before(() => {
  work = tempDir('scope-speedscope-pkg-');
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
  tarball = path.join(work, JSON.parse(out)[0].filename);
  const install = path.join(work, 'install');
  fs.mkdirSync(install);
  fs.writeFileSync(path.join(install, 'package.json'), '{ "name": "install", "private": true }\n');
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], install);
});

after(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('Node', () => {
  it('an ES module script converts a file (the README snippet)', () => {
    const dir = app('node');
    assertInReadme('node/convert.mjs');
    fs.copyFileSync(inputPath('real_run_s1.h5'), path.join(dir, 'real_run_s1.h5'));
    fs.mkdirSync(path.join(dir, 'out'));
    let r = run(process.execPath, ['convert.mjs', 'real_run_s1.h5'], dir);
    assert.equal(r.stdout, 'real_run_s1: 42 calls on 1 rank(s)\n');
    assert.equal(r.stderr, '');
    assert.ok(fs.readFileSync(path.join(dir, 'out', 'profile.speedscope.json')).equals(expectedOf('real_run_s1')));
    fs.copyFileSync(inputPath('not_hdf5.h5'), path.join(dir, 'notes.h5'));
    r = run(process.execPath, ['convert.mjs', 'notes.h5'], dir, { mayFail: true });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `CorruptProfileError: ${notHdf5Message('notes.h5')}\n`);
  });

  it('a CommonJS script require()s the package (the README snippet), errors included', () => {
    const dir = app('cjs');
    assertInReadme('cjs/convert.js');
    fs.copyFileSync(inputPath('real_run_s1.h5'), path.join(dir, 'real_run_s1.h5'));
    let r = run(process.execPath, ['convert.js', 'real_run_s1.h5'], dir);
    assert.equal(r.stderr, '');
    assert.ok(fs.readFileSync(path.join(dir, 'profile.speedscope.json')).equals(expectedOf('real_run_s1')));
    fs.copyFileSync(inputPath('not_hdf5.h5'), path.join(dir, 'notes.h5'));
    r = run(process.execPath, ['convert.js', 'notes.h5'], dir, { mayFail: true });
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `CorruptProfileError: ${notHdf5Message('notes.h5')}\n`);
  });

  it('CommonJS and ES module exports are the same names and values', () => {
    const dir = app('cjs', { as: 'cjs-exports' });
    fs.rmSync(path.join(dir, 'convert.js'));
    const script = `
      const cjs = require('scope-speedscope');
      import('scope-speedscope').then(async (esm) => {
        const names = (o) => Object.keys(o).filter((k) => k !== '__esModule').sort();
        const sp = await cjs.createScopeSpeedscope();
        let error;
        try { sp.inspect(new Uint8Array(4), 'x.h5'); } catch (e) { error = e; }
        console.log(JSON.stringify({
          cjs: names(cjs), esm: names(esm),
          constants: ['NS_PER_SECOND', 'SCHEMA_URL', 'TIME_UNIT'].every((k) => cjs[k] === esm[k]),
          defaultIsCreate: cjs.default === cjs.createScopeSpeedscope && esm.default === esm.createScopeSpeedscope,
          instanceofBoth: error instanceof cjs.ScopeSpeedscopeError && error instanceof esm.ScopeSpeedscopeError,
          notOthers: !(new Error('x') instanceof cjs.ScopeSpeedscopeError),
          own: new cjs.ScopeSpeedscopeError('ValueError', 'm') instanceof cjs.ScopeSpeedscopeError,
          concat: Array.from(cjs.concatChunks([new Uint8Array([1]), new Uint8Array([2, 3])])),
          version: sp.version,
        }));
      });`;
    fs.writeFileSync(path.join(dir, 'check.js'), script);
    const got = JSON.parse(run(process.execPath, ['check.js'], dir).stdout);
    assert.deepEqual(got.cjs, got.esm);
    assert.deepEqual(got, {
      cjs: got.esm, esm: got.esm, constants: true, defaultIsCreate: true, instanceofBoth: true,
      notOthers: true, own: true, concat: [1, 2, 3], version,
    });
  });
});

describe('TypeScript', () => {
  const compilers = [['7', bin('typescript', 'bin', 'tsc')], ['5.9', bin('typescript-5', 'bin', 'tsc')]];
  for (const [tsVersion, tsc] of compilers) {
    it(`tsc ${tsVersion} checks an ES module, a CommonJS and a bundler consumer; the CommonJS one runs`, () => {
      assert.match(run(process.execPath, [tsc, '--version'], root).stdout, new RegExp(`^Version ${tsVersion.replace('.', '\\.')}`));
      for (const kind of ['esm', 'bundler']) {
        const dir = app(path.join('ts', kind));
        run(process.execPath, [tsc, '-p', '.'], dir);
        fs.rmSync(dir, { recursive: true });
      }
      const dir = app(path.join('ts', 'cjs'));
      run(process.execPath, [tsc, '-p', '.'], dir);
      const emitted = fs.readFileSync(path.join(dir, 'out', 'index.js'), 'utf8');
      assert.match(emitted, /require\("scope-speedscope"\)/);
      const r = run(process.execPath, [path.join('out', 'index.js')], dir);
      assert.equal(r.stdout, `${version} ${version} ${version} CorruptProfileError\n`);
      fs.rmSync(dir, { recursive: true });
    });
  }
});

describe('bundlers and browsers', () => {
  let browser;
  let userDataDir;
  const expected = () => {
    const bytes = expectedOf('gzip_s3');
    return { size: bytes.length, sha256: sha256(bytes) };
  };

  before(async () => {
    userDataDir = tempDir('scope-speedscope-pkg-chromium-');
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS,
    });
  });
  after(async () => {
    await browser?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  // Serves dist/ of an app (or opens the URL of a server), converts
  // gzip_s3.h5 the three ways and checks the results; returns the paths the
  // page asked for.
  async function convertInChromium(dist) {
    const server = typeof dist === 'string' ? await startServer({ root: dist, port: 0 }) : dist;
    const page = await browser.newPage();
    const problems = [];
    const requests = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => document.title === 'ready', null, { timeout: 20_000 });
      await page.setInputFiles('input[type=file]', inputPath('gzip_s3.h5'));
      const got = await page.evaluate(() => window.example.run());
      const want = expected();
      assert.deepEqual(got.bytes, want, 'main thread, bytes');
      assert.deepEqual(got.file, want, 'main thread, a File through exportSpeedscopeAsync');
      assert.deepEqual(got.worker, want, 'a File in a Web Worker');
      assert.deepEqual(got.syncFile, {
        threw: true, name: 'TypeError', isTypeError: true,
        message: 'scope-speedscope: input gzip_s3.h5: a File or Blob can be read synchronously only inside a Web Worker. ' +
          'Here, use the async methods (await sp.exportSpeedscopeAsync(inputs, options), await sp.inspectAsync(input)), ' +
          'or read it first: await sp.readInput({ name, file }) gives { name, bytes }.',
      });
      assert.deepEqual(got.badRanks, {
        name: 'TypeError', message: 'scope-speedscope: ranks must be an array of integers; ranks[0] is a string ("0")',
        kind: null, ours: false,
      });
      assert.deepEqual(got.notHdf5, {
        name: 'ScopeSpeedscopeError', kind: 'CorruptProfileError', message: notHdf5Message('notes.h5'), ours: true,
      });
      assert.deepEqual(problems, []);
      return requests;
    } finally {
      await page.close();
      await server.close();
    }
  }

  it('the README shows the browser app\'s convert.js and worker.js', () => {
    assertInReadme('browser/src/convert.js');
    assertInReadme('browser/src/worker.js');
  });

  it('esbuild (an app with "type": "commonjs", the README\'s command and copy line) in Chromium', async () => {
    const dir = app('esbuild', { extra: ['browser'] });
    assert.ok(readme.includes(`npx esbuild ${ESBUILD_ARGS.join(' ')}`), 'README shows the esbuild command');
    assert.ok(readme.includes(ESBUILD_COPY), 'README shows the copy line');
    const r = run(bin('.bin', 'esbuild'), ESBUILD_ARGS, dir);
    assert.doesNotMatch(r.stderr, /warning/i, r.stderr);
    run('sh', ['-c', ESBUILD_COPY], dir);
    fs.copyFileSync(path.join(dir, 'index.html'), path.join(dir, 'dist', 'index.html'));
    for (const file of ['main.js', 'worker.js']) {
      const node = fs.readFileSync(path.join(dir, 'dist', file), 'utf8').match(/.{0,60}(?:["']node:|\brequire\(["']).{0,60}/);
      assert.equal(node, null, `${file} has Node code: ${node}`);
    }
    const requests = await convertInChromium(path.join(dir, 'dist'));
    assert.ok(requests.includes('/scope-speedscope.wasm'), requests.join(' '));
  });

  it('Vite (vite build, no configuration) in Chromium', async () => {
    const dir = app('vite', { extra: ['browser'] });
    const r = run(process.execPath, [bin('vite', 'bin', 'vite.js'), 'build'], dir);
    assert.doesNotMatch(r.stdout + r.stderr, /warn|error/i, r.stdout + r.stderr);
    const assets = fs.readdirSync(path.join(dir, 'dist', 'assets'));
    const wasm = assets.filter((f) => f.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one .wasm asset: ${assets.join(' ')}`);
    const requests = await convertInChromium(path.join(dir, 'dist'));
    assert.ok(requests.includes(`/assets/${wasm[0]}`), requests.join(' '));
  });

  it('Vite\'s dev server (vite, no configuration) in Chromium', async () => {
    const dir = app('vite', { extra: ['browser'], as: 'vite-dev' });
    const port = await freePort();
    const vite = spawn(process.execPath, [bin('vite', 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    vite.stdout.on('data', (d) => { output += d; });
    vite.stderr.on('data', (d) => { output += d; });
    try {
      const url = `http://127.0.0.1:${port}/`;
      for (let i = 0; i < 300 && !output.includes(url); i++) await new Promise((ok) => setTimeout(ok, 100));
      assert.ok(output.includes(url), `vite did not start:\n${output}`);
      const requests = await convertInChromium({ url, close: async () => {} });
      assert.ok(requests.some((r) => r.endsWith('/scope-speedscope/dist/scope-speedscope.wasm')), requests.join(' '));
      assert.doesNotMatch(output, /error|warn/i, output);
    } finally {
      vite.kill();
    }
  });
});
