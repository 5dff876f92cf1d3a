// The Debian source packages the builds compile (cmake/deps.cmake): fetched
// by exact name=version through a private apt configuration, never through
// the machine's own sources; a failed fetch names the tarball, its SHA-256,
// the command that fetches it by hand and the folder to put it in; and every
// pinned package can really be fetched today (the dependency cache must not
// hide a fetch that broke).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fakeAptGet, pinnedPackages, runCheckSources, tempDir } from './helpers.mjs';

const packages = pinnedPackages();
const oneLine = (s) => s.replace(/\s+/g, ' ');
const quoteArgs = (args) => args.map((a) => (a === '-o' || !a.includes('::') ? a : `'${a}'`)).join(' ');

test('the pinned packages are hdf5 (trixie), zlib and pcre2 (bookworm), each with an exact version', () => {
  assert.deepEqual(packages.map((p) => `${p.package}=${p.version} ${p.suite}`), [
    'hdf5=1.14.5+repack-3 trixie',
    'zlib=1:1.2.13.dfsg-1 bookworm',
    'pcre2=10.42-1 bookworm',
  ]);
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
      '-o', 'Dir::Etc::SourceList=/dev/null',
      '-o', `Dir::Etc::SourceParts=${root}/sources`,
      '-o', `Dir::State::Lists=${root}/lists`,
      '-o', `Dir::Cache=${root}/cache`,
    ];
    assert.deepEqual(calls[0].args, [...privateOptions, 'update']);
    assert.deepEqual(calls[1].args,
      [...privateOptions, 'source', '--download-only', '--only-source', `${p.package}=${p.version}`]);
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
    const byHand = `${aptGet} ${quoteArgs(privateOptions)} update && cd '${dir}' && ` +
      `${aptGet} ${quoteArgs(privateOptions)} source --download-only --only-source '${p.package}=${p.version}'`;
    assert.ok(r.stderr.includes(byHand), `${r.stderr}\nshould hold\n${byHand}`);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('.tar.')), [], 'no tarball left behind');
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
  const lines = r.stderr.trim().split('\n').filter((l) => !l.startsWith('-- '));
  assert.deepEqual(lines, packages.map((p) => `${p.package}=${p.version} ${p.tarball} ${p.sha256}`));
  for (const p of packages) {
    const bytes = fs.readFileSync(path.join(dir, p.tarball));
    assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), p.sha256, p.tarball);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
