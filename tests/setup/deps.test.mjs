// The Debian source packages the builds compile (cmake/deps.cmake): fetched
// by exact name=version through a private apt configuration, never through
// the machine's own sources; a failed fetch names the tarball, its SHA-256,
// the command that fetches it by hand and the folder to put it in; and every
// pinned package can really be fetched today (the dependency cache must not
// hide a fetch that broke).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fakeAptGet, pinnedPackages, root, runCheckSources, tempDir } from './helpers.mjs';

const commitScript = path.join(root, 'cmake', 'deps-commit.cmake');

const packages = pinnedPackages();
const oneLine = (s) => s.replace(/\s+/g, ' ');
const quoteArgs = (args) => args.map((a) => (a === '-o' || !a.includes('::') ? a : `'${a}'`)).join(' ');

test('the pinned packages are hdf5 (trixie), zlib, pcre2, libzstd and liblzf (bookworm), each with an exact version', () => {
  assert.deepEqual(
    packages.map((p) => `${p.package}=${p.version} ${p.suite}`),
    [
      'hdf5=1.14.5+repack-3 trixie',
      'zlib=1:1.2.13.dfsg-1 bookworm',
      'pcre2=10.42-1 bookworm',
      'libzstd=1.5.4+dfsg2-5 bookworm',
      'liblzf=3.6-3 bookworm',
    ],
  );
});

for (const p of packages) {
  test(`${p.package}: fetched as ${p.package}=${p.version} from a private ${p.suite} configuration; a failed fetch says what to do`, () => {
    const dir = tempDir();
    const apt = fakeAptGet(0); // answers, fetches nothing
    const r = runCheckSources(dir, { only: p.name, env: { PATH: `${apt.dir}:${process.env.PATH}` } });
    assert.notEqual(r.status, 0, 'a fetch that gave no tarball must fail the configure');

    const calls = apt.calls();
    assert.equal(calls.length, 2, JSON.stringify(calls));
    const root = path.join(dir, `apt-${p.suite}`);
    const privateOptions = [
      '-o',
      'Dir::Etc::SourceList=/dev/null',
      '-o',
      `Dir::Etc::SourceParts=${root}/sources`,
      '-o',
      `Dir::State::Lists=${root}/lists`,
      '-o',
      `Dir::Cache=${root}/cache`,
    ];
    assert.deepEqual(calls[0].args, [...privateOptions, 'update']);
    assert.deepEqual(calls[1].args, [
      ...privateOptions,
      'source',
      '--download-only',
      '--only-source',
      `${p.package}=${p.version}`,
    ]);
    assert.ok(calls[1].cwd.startsWith(dir + path.sep), calls[1].cwd);

    // The private sources: one deb-src entry for the package's release only.
    for (const n of [1, 2]) {
      const folder = path.join(apt.dir, `sources-${n}`);
      assert.deepEqual(fs.readdirSync(folder), [`${p.suite}.sources`]);
      const text = fs.readFileSync(path.join(folder, `${p.suite}.sources`), 'utf8');
      assert.match(text, /^Types: deb-src\n/);
      assert.match(text, new RegExp(`^Suites: ${p.suite}$`, 'm'));
      assert.match(text, /^Components: main$/m);
    }

    const said = oneLine(r.stderr);
    assert.ok(said.includes(`deps: could not fetch ${p.tarball}.`), said);
    assert.ok(said.includes(`put ${p.tarball} (SHA-256 ${p.sha256}) into ${dir},`), said);
    const aptGet = path.join(apt.dir, 'apt-get');
    const byHand =
      `${aptGet} ${quoteArgs(privateOptions)} update && cd '${dir}' && ` +
      `${aptGet} ${quoteArgs(privateOptions)} source --download-only --only-source '${p.package}=${p.version}'`;
    assert.ok(r.stderr.includes(byHand), `${r.stderr}\nshould hold\n${byHand}`);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.includes('.tar.')),
      [],
      'no tarball left behind',
    );
  });
}

test('apt-get failing outright gives the same message', () => {
  const dir = tempDir();
  const apt = fakeAptGet(100);
  const r = runCheckSources(dir, { only: 'ZLIB', env: { PATH: `${apt.dir}:${process.env.PATH}` } });
  assert.notEqual(r.status, 0);
  const zlib = packages.find((p) => p.name === 'ZLIB');
  assert.ok(oneLine(r.stderr).includes(`put ${zlib.tarball} (SHA-256 ${zlib.sha256}) into ${dir},`), r.stderr);
  assert.ok(r.stderr.includes('(exit 100)'), r.stderr);
});

test('every pinned source package can be fetched now, into an empty folder, with its SHA-256', () => {
  const dir = tempDir();
  const r = runCheckSources(dir);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stderr
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('-- '));
  assert.deepEqual(
    lines,
    packages.map((p) => `${p.package}=${p.version} ${p.tarball} ${p.sha256}`),
  );
  for (const p of packages) {
    const bytes = fs.readFileSync(path.join(dir, p.tarball));
    assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), p.sha256, p.tarball);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

// cmake/deps-commit.cmake: a library built into its staging folder moves to
// its cache entry in one rename; an entry left half-written (no
// complete.stamp) is replaced; one completed by another build meanwhile is
// kept and the staging folder dropped.
function commit(staging, prefix, lock) {
  return spawnSync('cmake', [`-DSTAGING=${staging}`, `-DPREFIX=${prefix}`, `-DLOCK=${lock}`, '-P', commitScript], {
    encoding: 'utf8',
  });
}
function library(dir, content) {
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'lib', 'libx.a'), content);
}

test('a built library enters the cache whole, replacing a half-written entry', () => {
  const cache = tempDir();
  const prefix = path.join(cache, 'wasm-x-0123456789ab');
  const staging = `${prefix}.partial-aaaaaaaa`;
  library(prefix, 'killed half-way'); // no complete.stamp: a build was killed
  library(staging, 'built');
  const r = commit(staging, prefix, path.join(cache, 'install.lock'));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(path.join(prefix, 'lib', 'libx.a'), 'utf8'), 'built');
  assert.ok(fs.existsSync(path.join(prefix, 'complete.stamp')));
  assert.ok(!fs.existsSync(staging));
});

test('a library completed by another build meanwhile is kept', () => {
  const cache = tempDir();
  const prefix = path.join(cache, 'native-hdf5-0123456789ab');
  const staging = `${prefix}.partial-bbbbbbbb`;
  library(prefix, 'the other build');
  fs.writeFileSync(path.join(prefix, 'complete.stamp'), '');
  library(staging, 'ours');
  const r = commit(staging, prefix, path.join(cache, 'install.lock'));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(path.join(prefix, 'lib', 'libx.a'), 'utf8'), 'the other build');
  assert.ok(!fs.existsSync(staging));
});
