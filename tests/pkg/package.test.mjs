// The npm package in the projects people have: `npm pack`, the tarball
// installed into a temporary folder, and the small example apps of
// tests/pkg/apps/ built and run against it:
//   node/      an ES module script (Node)                     snippet (docs, README)
//   cjs/       a CommonJS script: require('scope-speedscope')  snippet (docs)
//   browser/   convert.js + worker.js (snippets) with a test glue,
//              bundled by esbuild (esbuild/: "type": "commonjs", the
//              documented command line) and by Vite (vite/: `vite build`, no
//              config), served on 127.0.0.1, and through Vite's dev server,
//              run in headless Chromium: bytes and a File on the main
//              thread, a File in a Web Worker
//              and by webpack (webpack/, --target web; webpack-cjs/, a
//              browser app written in CommonJS, main thread), Rollup (rollup/,
//              node-resolve and the documented asset plugin line) and Parcel
//              (parcel/, `parcel build`, no config), the same way
//   node/ and cjs/ again, bundled by webpack --target node; each bundle's
//              output folder is copied alone elsewhere and run there
//   bundlers/  the one install of webpack, Rollup and Parcel (exact versions,
//              package-lock.json), kept in build/pkg-bundlers/ between runs
//              while the lock is unchanged; the apps above that use them
//              are folders below a copy of it, with the packed package in
//              its node_modules
//   ts/        tsc --noEmit of an ES module, a CommonJS (compiled and run)
//              and a bundler consumer, with TypeScript 7 and 5.9
// The snippets, lines and versions are those of docs/package-api.md (the
// README shows the Node script too); the wasm's size, docs/benchmarks.md's.
// No file of the package or of a bundle holds a path of the machine that
// built it (this checkout, the temporary folders, any file:/// URL).
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
import {
  asScopeProfiler,
  cases,
  fixtures,
  inputPath,
  listFiles,
  root,
  sha256,
  tempDir,
  version,
} from '../js/helpers.mjs';
import { machinePathsIn } from '../../scripts/machine-paths.mjs';
import { wasmSizeText } from '../../scripts/wasm-size.mjs';

const apps = path.join(root, 'tests', 'pkg', 'apps');
const bin = (...p) => path.join(root, 'node_modules', ...p);
const readDoc = (name) => fs.readFileSync(path.join(root, name), 'utf8');
const PACKAGE_DOC = 'docs/package-api.md';
const packageDoc = readDoc(PACKAGE_DOC);
const readme = readDoc('README.md');

// The documented build line for esbuild (the test runs exactly these arguments)
// and the one extra step it documents.
const ESBUILD_ARGS = ['src/main.js', 'src/worker.js', '--bundle', '--format=esm', '--outdir=dist'];
const ESBUILD_COPY = 'cp node_modules/scope-speedscope/dist/scope-speedscope.wasm dist/';

// The documented lines for webpack, Rollup and Parcel (`npx <tool> <args>`; the
// test runs the shared install's .bin/<tool> with exactly these arguments).
const WEBPACK_WEB_ARGS = ['./src/main.js', '--target', 'web', '--mode', 'production'];
const WEBPACK_NODE_ARGS = (entry) => [entry, '--target', 'node', '--mode', 'production'];
const ROLLUP_ARGS = [
  'src/main.js',
  'src/worker.js',
  '-d',
  'dist',
  '-f',
  'es',
  '-p',
  'node-resolve',
  '-p',
  "@web/rollup-plugin-import-meta-assets={include:'**/scope-speedscope/**'}",
];
const PARCEL_ARGS = ['build', 'index.html'];
// As a shell line: an argument with characters the shell treats specially in double quotes.
const shellLine = (tool, args) => ['npx', tool, ...args.map((a) => (/^[\w./=:@-]+$/.test(a) ? a : `"${a}"`))].join(' ');

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const caseNamed = (name) => cases.find((c) => c.name === name);
const expectedOf = (name) => asOurs(fs.readFileSync(path.join(fixtures, caseNamed(name).outputs[0].expected)));
const notHdf5Message = (file) => caseNamed('ERR_not_hdf5').error.message.replaceAll('{path}', file);

// An expected file (scope-profiler's exporter value) with ours.
function asOurs(bytes) {
  const theirs = Buffer.from('"exporter": "scope-profiler@0.7.3"');
  const at = bytes.indexOf(theirs);
  assert.ok(at >= 0, 'expected output without scope-profiler exporter');
  return Buffer.concat([
    bytes.subarray(0, at),
    Buffer.from(`"exporter": "scope-speedscope@${version}"`),
    bytes.subarray(at + theirs.length),
  ]);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net
      .createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      })
      .on('error', reject);
  });
}

function run(command, args, cwd, options = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    ...options,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
  });
  if (r.status !== 0 && !options.mayFail) {
    assert.fail(`${command} ${args.join(' ')} (in ${cwd}) exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

let work; // the temporary folder: node_modules/scope-speedscope from the tarball, one folder per app
let tarball;

// An app folder: its files from tests/pkg/apps (plus shared sources), and a
// copy of the one installation's node_modules, laid out as npm leaves it in a
// project (a symlink out of the app would put the package outside the folders
// Vite's dev server may serve).
function app(name, { extra = [], as = name } = {}) {
  const dir = path.join(work, as);
  fs.cpSync(path.join(apps, name), dir, { recursive: true });
  for (const from of extra) fs.cpSync(path.join(apps, from), dir, { recursive: true });
  fs.cpSync(path.join(work, 'install', 'node_modules'), path.join(dir, 'node_modules'), { recursive: true });
  return dir;
}

// The file's text appears in the documentation as it is (the snippets are the
// tested code): in docs/package-api.md, and in the README when it shows it too.
function assertShown(app, { alsoInReadme = false } = {}) {
  const file = path.join(apps, app);
  const text = fs.readFileSync(file, 'utf8').trimEnd();
  assert.ok(packageDoc.includes(text), `${PACKAGE_DOC} does not show ${path.relative(root, file)} as it is`);
  if (alsoInReadme) assert.ok(readme.includes(text), `README.md does not show ${path.relative(root, file)} as it is`);
}

// The bundlers' install (tests/pkg/apps/bundlers: package.json and its lock),
// made once with `npm ci` and kept in build/pkg-bundlers/ while those two
// files are unchanged. Returns its folder.
function installedBundlers() {
  const from = path.join(apps, 'bundlers');
  const key =
    sha256(Buffer.concat(['package.json', 'package-lock.json'].map((f) => fs.readFileSync(path.join(from, f))))) +
    ` ${process.platform}-${process.arch}`;
  const cached = path.join(root, 'build', 'pkg-bundlers');
  const stamp = path.join(cached, 'installed');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === key) return cached;
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  const fresh = fs.mkdtempSync(`${cached}-`);
  try {
    for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(from, f), path.join(fresh, f));
    run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], fresh);
    fs.writeFileSync(path.join(fresh, 'installed'), key);
    fs.rmSync(cached, { recursive: true, force: true });
    fs.renameSync(fresh, cached);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  return cached;
}

let bundlers; // work/bundlers: a copy of that install plus the packed package; the apps are folders in it

// A bundler's app: a folder below work/bundlers (whose node_modules holds
// the bundlers and the package, as npm lays them out), with its files from
// tests/pkg/apps.
function bundlerApp(name, { extra = [], as = name } = {}) {
  const dir = path.join(bundlers, as);
  fs.cpSync(path.join(apps, name), dir, { recursive: true });
  for (const from of extra) fs.cpSync(path.join(apps, from), dir, { recursive: true });
  return dir;
}

// `npx <tool> args` in an app of work/bundlers.
function bundle(tool, args, dir) {
  return run(path.join(bundlers, 'node_modules', '.bin', tool), args, dir);
}

// No file below dir holds a path of this machine: the repository, the test's
// temporary folder (where the package was installed and bundled), a file:/// URL.
function assertNoMachinePaths(dir, what, { fileUrls = true, except = null } = {}) {
  const needles = [root, work, ...(fileUrls ? ['file:///'] : [])];
  for (const file of listFiles(dir).filter((f) => !except?.test(f))) {
    const bytes = fs.readFileSync(path.join(dir, file));
    // The wasm: also the paths of wherever its dependencies were built.
    if (file.endsWith('.wasm')) assert.deepEqual(machinePathsIn(bytes).slice(0, 3), [], `${what}: ${file}`);
    for (const needle of needles) {
      const at = bytes.indexOf(needle);
      assert.equal(at, -1, `${what}: ${file} holds ${needle}: ${bytes.subarray(Math.max(0, at - 60), at + 100)}`);
    }
  }
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
  it('an ES module script converts a file (the snippet of the docs and the README)', () => {
    const dir = app('node');
    assertShown('node/convert.mjs', { alsoInReadme: true });
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

  it("a CommonJS script require()s the package (the docs' snippet), errors included", () => {
    const dir = app('cjs');
    assertShown('cjs/convert.js');
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
      cjs: got.esm,
      esm: got.esm,
      constants: true,
      defaultIsCreate: true,
      instanceofBoth: true,
      notOthers: true,
      own: true,
      concat: [1, 2, 3],
      version,
    });
  });
});

describe('the packed package', () => {
  const installed = () => path.join(work, 'install', 'node_modules', 'scope-speedscope');

  it('holds no path of the machine that built it', () => {
    // (speedscope's own files, shipped as its package publishes them, are not ours:
    // its jfrview wasm names its author's Rust sources.)
    assertNoMachinePaths(installed(), 'scope-speedscope', { fileUrls: false, except: /^dist\/web\/speedscope\// });
    // The glues have no import.meta (a bundler writes it out as a file:// path)
    // and name no file but the shipped .wasm (a bundler for Node follows it).
    for (const glue of ['scope-speedscope.js', 'scope-speedscope.node.js']) {
      const text = fs.readFileSync(path.join(installed(), 'dist', glue), 'utf8');
      assert.equal(text.includes('import.meta'), false, `${glue} uses import.meta`);
      assert.deepEqual([...new Set(text.match(/[\w.-]+\.wasm\b/g))], ['scope-speedscope.wasm'], glue);
    }
  });

  it('docs/benchmarks.md states the size of the wasm it ships, once (and no other page does)', () => {
    const SIZE_DOC = 'docs/benchmarks.md';
    const sizeDoc = readDoc(SIZE_DOC);
    const sizes = sizeDoc.match(/<!-- wasm-size -->([^]*?)<!-- \/wasm-size -->/g);
    assert.equal(sizes?.length, 1, `one <!-- wasm-size --> span in ${SIZE_DOC}`);
    assert.equal(
      sizes[0],
      `<!-- wasm-size -->${wasmSizeText(path.join(installed(), 'dist'))}<!-- /wasm-size -->`,
      `${SIZE_DOC}'s size of the wasm is not the packed file's: \`node scripts/build-dist.mjs\` writes it`,
    );
    // "wasm" then, in the same sentence (no period) and the same table row
    // (no line starting with "|" in between), a size: another size of the wasm.
    const anotherSize = /\bwasm\b(?:(?!\n\|)[^.]){0,80}\b\d+(?:\.\d+)? (?:MB|KB|kB|MiB|KiB)\b/i;
    const pages = [
      'README.md',
      ...fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    for (const page of pages) {
      const text = page === SIZE_DOC ? sizeDoc.replace(sizes[0], '') : readDoc(page);
      assert.doesNotMatch(text, anotherSize, `another size of the wasm in ${page}`);
    }
  });
});

describe('TypeScript', () => {
  const compilers = [
    ['7', bin('typescript', 'bin', 'tsc')],
    ['5.9', bin('typescript-5', 'bin', 'tsc')],
  ];
  for (const [tsVersion, tsc] of compilers) {
    it(`tsc ${tsVersion} checks an ES module, a CommonJS and a bundler consumer; the CommonJS one runs`, () => {
      assert.match(
        run(process.execPath, [tsc, '--version'], root).stdout,
        new RegExp(`^Version ${tsVersion.replace('.', '\\.')}`),
      );
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
    const installed = installedBundlers();
    bundlers = path.join(work, 'bundlers');
    fs.mkdirSync(bundlers);
    for (const f of ['package.json', 'package-lock.json'])
      fs.copyFileSync(path.join(installed, f), path.join(bundlers, f));
    run('cp', ['-a', path.join(installed, 'node_modules'), path.join(bundlers, 'node_modules')], bundlers); // fs.cpSync: 10x slower
    fs.cpSync(
      path.join(work, 'install', 'node_modules', 'scope-speedscope'),
      path.join(bundlers, 'node_modules', 'scope-speedscope'),
      { recursive: true },
    );
    userDataDir = tempDir('scope-speedscope-pkg-chromium-');
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  });
  after(async () => {
    await browser?.close();
    if (userDataDir) fs.rmSync(userDataDir, { recursive: true, force: true });
  });

  // Serves dist/ of an app (or opens the URL of a server), converts
  // gzip_s3.h5 the three ways and checks the results; returns the paths the
  // page asked for.
  // worker: false for an app without a worker (the CommonJS one).
  async function convertInChromium(dist, { worker = true } = {}) {
    const server = typeof dist === 'string' ? await startServer({ root: dist, port: 0 }) : dist;
    const page = await browser.newPage();
    const problems = [];
    const requests = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => document.title === 'ready', null, { timeout: 20_000 });
      await page.setInputFiles('input[type=file]', inputPath('gzip_s3.h5'));
      const got = await page.evaluate(() => window.example.run());
      const want = expected();
      assert.deepEqual(got.bytes, want, 'main thread, bytes');
      assert.deepEqual(got.file, want, 'main thread, a File through exportSpeedscopeAsync');
      if (worker) assert.deepEqual(got.worker, want, 'a File in a Web Worker');
      else assert.equal(got.worker, undefined);
      assert.deepEqual(got.syncFile, {
        threw: true,
        name: 'TypeError',
        isTypeError: true,
        message:
          'scope-speedscope: input gzip_s3.h5: a File or Blob can be read synchronously only inside a Web Worker. ' +
          'Here, use the async methods (await sp.exportSpeedscopeAsync(inputs, options), await sp.inspectAsync(input)), ' +
          'or read it first: await sp.readInput({ name, file }) gives { name, bytes }.',
      });
      assert.deepEqual(got.badRanks, {
        name: 'TypeError',
        message: 'scope-speedscope: ranks must be an array of integers; ranks[0] is a string ("0")',
        kind: null,
        ours: false,
      });
      assert.deepEqual(got.notHdf5, {
        name: 'ScopeSpeedscopeError',
        kind: 'CorruptProfileError',
        message: notHdf5Message('notes.h5'),
        ours: true,
      });
      assert.deepEqual(problems, []);
      return requests;
    } finally {
      await page.close();
      await server.close();
    }
  }

  it("the docs' snippets are the browser app's convert.js and worker.js", () => {
    assertShown('browser/src/convert.js');
    assertShown('browser/src/worker.js');
  });

  it('esbuild (an app with "type": "commonjs", the documented command and copy line) in Chromium', async () => {
    const dir = app('esbuild', { extra: ['browser'] });
    assert.ok(packageDoc.includes(`npx esbuild ${ESBUILD_ARGS.join(' ')}`), `${PACKAGE_DOC} shows the esbuild command`);
    assert.ok(packageDoc.includes(ESBUILD_COPY), `${PACKAGE_DOC} shows the copy line`);
    const r = run(bin('.bin', 'esbuild'), ESBUILD_ARGS, dir);
    assert.doesNotMatch(r.stderr, /warning/i, r.stderr);
    run('sh', ['-c', ESBUILD_COPY], dir);
    fs.copyFileSync(path.join(dir, 'index.html'), path.join(dir, 'dist', 'index.html'));
    for (const file of ['main.js', 'worker.js']) {
      const node = fs
        .readFileSync(path.join(dir, 'dist', file), 'utf8')
        .match(/.{0,60}(?:["']node:|\brequire\(["']).{0,60}/);
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

  it("Vite's dev server (vite, no configuration) in Chromium", async () => {
    const dir = app('vite', { extra: ['browser'], as: 'vite-dev' });
    const port = await freePort();
    const vite = spawn(
      process.execPath,
      [bin('vite', 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
    );
    // Colours are off, and any that remain are stripped: a coloured port number
    // (as under a CI that sets FORCE_COLOR) must not hide the URL.
    let output = '';
    const add = (d) => {
      output += String(d).replace(/\x1b\[[0-9;]*m/g, '');
    };
    vite.stdout.on('data', add);
    vite.stderr.on('data', add);
    try {
      const url = `http://127.0.0.1:${port}/`;
      for (let i = 0; i < 300 && !output.includes(url); i++) await new Promise((ok) => setTimeout(ok, 100));
      assert.ok(output.includes(url), `vite did not start:\n${output}`);
      const requests = await convertInChromium({ url, close: async () => {} });
      assert.ok(
        requests.some((r) => r.endsWith('/scope-speedscope/dist/scope-speedscope.wasm')),
        requests.join(' '),
      );
      assert.doesNotMatch(output, /error|warn/i, output);
    } finally {
      vite.kill();
    }
  });

  // The bundlers' versions: the lock's, installed, and what docs/package-api.md says.
  it('docs/package-api.md names the bundlers at the versions installed, with their lines', () => {
    const wanted = JSON.parse(fs.readFileSync(path.join(apps, 'bundlers', 'package.json'), 'utf8')).devDependencies;
    for (const [name, version] of Object.entries(wanted)) {
      const got = JSON.parse(
        fs.readFileSync(path.join(bundlers, 'node_modules', name, 'package.json'), 'utf8'),
      ).version;
      assert.equal(got, version, `${name} installed`);
      assert.ok(
        packageDoc.includes(`${name}\` ${version}`) || packageDoc.includes(`${name} ${version}`),
        `${PACKAGE_DOC} names ${name} ${version}`,
      );
    }
    // The project's own dev-dependencies: esbuild, Vite, both TypeScripts.
    const at = (name) => JSON.parse(fs.readFileSync(bin(name, 'package.json'), 'utf8')).version;
    for (const name of ['esbuild', 'vite'])
      assert.ok(packageDoc.includes(`\`${name}\` ${at(name)} |`), `${PACKAGE_DOC} names ${name} ${at(name)}`);
    assert.ok(
      packageDoc.includes(`\`typescript\` ${at('typescript')} and ${at('typescript-5')} |`),
      `${PACKAGE_DOC} names both TypeScripts`,
    );
    for (const line of [
      shellLine('webpack', WEBPACK_WEB_ARGS),
      shellLine('webpack', WEBPACK_NODE_ARGS('./convert.mjs')),
      shellLine('rollup', ROLLUP_ARGS),
      shellLine('parcel', PARCEL_ARGS),
    ]) {
      assert.ok(packageDoc.includes(line), `${PACKAGE_DOC} shows ${line}`);
    }
  });

  // webpack's only warnings on a browser bundle are its size hints (the .wasm
  // is over its 244 KiB advice).
  function assertWebpackClean(r) {
    const output = r.stdout + r.stderr;
    assert.match(output, /webpack 5\.\d+\.\d+ compiled (?:successfully|with \d+ warnings?) in/, output);
    const warnings = [...output.matchAll(/^WARNING in (.*)$/gm)].map((m) => m[1]);
    for (const w of warnings)
      assert.match(w, /^(?:asset size limit|entrypoint size limit|webpack performance recommendations)/, output);
    assert.doesNotMatch(output, /^ERROR/m, output);
  }

  // The one .wasm of a bundle's output: the package's, under any name.
  function emittedWasm(dir) {
    const wasm = listFiles(dir).filter((f) => f.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `one .wasm in ${dir}: ${listFiles(dir).join(' ')}`);
    const shipped = fs.readFileSync(
      path.join(bundlers, 'node_modules', 'scope-speedscope', 'dist', 'scope-speedscope.wasm'),
    );
    assert.ok(fs.readFileSync(path.join(dir, wasm[0])).equals(shipped), `${wasm[0]} is the package's wasm`);
    return wasm[0];
  }

  it('webpack --target web (no configuration) in Chromium: main thread and a module worker', async () => {
    const dir = bundlerApp('webpack', { extra: ['browser'] });
    assertWebpackClean(bundle('webpack', WEBPACK_WEB_ARGS, dir));
    fs.copyFileSync(path.join(dir, 'index.html'), path.join(dir, 'dist', 'index.html'));
    const wasm = emittedWasm(path.join(dir, 'dist'));
    assertNoMachinePaths(path.join(dir, 'dist'), 'webpack --target web');
    const requests = await convertInChromium(path.join(dir, 'dist'));
    assert.ok(requests.includes(`/${wasm}`), requests.join(' '));
  });

  it('webpack --target web (no configuration) in Chromium: an app written in CommonJS (require), main thread', async () => {
    const dir = bundlerApp('webpack', { as: 'webpack-cjs', extra: ['webpack-cjs'] }); // its page, this app's package and source
    assertWebpackClean(bundle('webpack', WEBPACK_WEB_ARGS, dir));
    fs.copyFileSync(path.join(dir, 'index.html'), path.join(dir, 'dist', 'index.html'));
    const wasm = emittedWasm(path.join(dir, 'dist'));
    assertNoMachinePaths(path.join(dir, 'dist'), 'webpack --target web, CommonJS');
    // The browser entry, not the Node one behind require().
    const main = fs.readFileSync(path.join(dir, 'dist', 'main.js'), 'utf8');
    assert.doesNotMatch(main, /["']node:(?:fs|module|url|worker_threads)["']/, 'no Node module in the browser bundle');
    const requests = await convertInChromium(path.join(dir, 'dist'), { worker: false });
    assert.ok(requests.includes(`/${wasm}`), requests.join(' '));
  });

  it('Rollup (node-resolve and the asset plugin, the documented line) in Chromium: main thread and a module worker', async () => {
    const dir = bundlerApp('rollup', { extra: ['browser'] });
    const r = bundle('rollup', ROLLUP_ARGS, dir);
    assert.match(r.stderr, /created dist in/, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /\(!\)|warn|error/i, r.stdout + r.stderr);
    fs.copyFileSync(path.join(dir, 'index.html'), path.join(dir, 'dist', 'index.html'));
    const wasm = emittedWasm(path.join(dir, 'dist'));
    assertNoMachinePaths(path.join(dir, 'dist'), 'rollup');
    const requests = await convertInChromium(path.join(dir, 'dist'));
    assert.ok(requests.includes(`/${wasm}`), requests.join(' '));
  });

  it('Parcel (parcel build, no configuration) in Chromium: main thread and a module worker', async () => {
    const dir = bundlerApp('parcel', { extra: ['browser'] });
    const manifests = () => [dir, bundlers].map((d) => fs.readFileSync(path.join(d, 'package.json'), 'utf8'));
    const before = manifests();
    const r = bundle('parcel', PARCEL_ARGS, dir);
    assert.match(r.stdout, /Built in/, r.stdout + r.stderr);
    // Parcel's only mark: ⚠️ beside the size of the .wasm (over its 1 MB advice).
    const marked = (r.stdout + r.stderr).split('\n').filter((l) => /warn|error|⚠|install/i.test(l));
    for (const l of marked)
      assert.match(
        l,
        /^dist\/scope-speedscope\.[0-9a-f]+\.wasm +⚠️ +\d+\.\d+ MB +(?:\d+ms|\d+\.\d+s)$/,
        r.stdout + r.stderr,
      );
    // Nothing installed into the app behind its back (Parcel's polyfills for Node's modules).
    assert.deepEqual(manifests(), before);
    const wasm = emittedWasm(path.join(dir, 'dist'));
    assertNoMachinePaths(path.join(dir, 'dist'), 'parcel');
    const requests = await convertInChromium(path.join(dir, 'dist'));
    assert.ok(requests.includes(`/${wasm}`), requests.join(' '));
  });

  // webpack --target node on the documented Node scripts; the output folder is
  // copied alone to another folder (the app, node_modules and the package
  // removed) and run there.
  for (const [kind, name, entry] of [
    ['an ES module', 'node', './convert.mjs'],
    ['a CommonJS', 'cjs', './convert.js'],
  ]) {
    it(`webpack --target node (no configuration), ${kind} script, run from a copy of its output alone`, () => {
      const dir = bundlerApp(name, { as: `webpack-${name}` });
      assertWebpackClean(bundle('webpack', WEBPACK_NODE_ARGS(entry), dir));
      emittedWasm(path.join(dir, 'dist'));
      assertNoMachinePaths(path.join(dir, 'dist'), `webpack --target node (${name})`);
      const elsewhere = tempDir('scope-speedscope-pkg-moved-');
      try {
        fs.cpSync(path.join(dir, 'dist'), path.join(elsewhere, 'dist'), { recursive: true });
        fs.rmSync(dir, { recursive: true });
        fs.copyFileSync(inputPath('real_run_s1.h5'), path.join(elsewhere, 'real_run_s1.h5'));
        fs.copyFileSync(inputPath('not_hdf5.h5'), path.join(elsewhere, 'notes.h5'));
        fs.mkdirSync(path.join(elsewhere, 'out'));
        let r = run(process.execPath, [path.join('dist', 'main.js'), 'real_run_s1.h5'], elsewhere);
        assert.equal(r.stderr, '');
        const written = name === 'node' ? path.join('out', 'profile.speedscope.json') : 'profile.speedscope.json';
        assert.equal(r.stdout, name === 'node' ? 'real_run_s1: 42 calls on 1 rank(s)\n' : '');
        assert.ok(fs.readFileSync(path.join(elsewhere, written)).equals(expectedOf('real_run_s1')));
        r = run(process.execPath, [path.join('dist', 'main.js'), 'notes.h5'], elsewhere, { mayFail: true });
        assert.equal(r.status, 1);
        assert.equal(r.stderr, `CorruptProfileError: ${notHdf5Message('notes.h5')}\n`);
      } finally {
        fs.rmSync(elsewhere, { recursive: true, force: true });
      }
    });
  }
});
