// The published package: npm pack, install the tarball into an empty folder,
// run its CLI with npx and import it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { asScopeProfiler, inputPath, listFiles, root, sha256, tempDir, cases, version } from './helpers.mjs';
import { startCli } from './serve-helpers.mjs';

describe('npm package', () => {
  it('declares an ESM package with types, a bin and only the files users need', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'scope-speedscope');
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.exports['.'].types, './dist/index.d.ts');
    assert.equal(pkg.exports['.'].import, './dist/index.js');
    assert.deepEqual(pkg.bin, { 'scope-speedscope': 'dist/cli.js' });
    assert.equal(pkg.engines.node, '>=20');
  });

  it('packs, installs into an empty folder and runs with npx', async () => {
    const work = tempDir('scope-speedscope-pack-');
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    const [{ filename, files }] = JSON.parse(out);
    const names = files.map((f) => f.path).sort();
    // The package, and the built site that `scope-speedscope view` and `serve` serve.
    const site = listFiles(path.join(root, 'dist', 'web')).map((f) => `dist/web/${f}`);
    assert.ok(site.includes('dist/web/index.html') && site.includes('dist/web/sw.js'), 'the site is built');
    assert.deepEqual(names, ['README.md', 'dist/cli.js', 'dist/index.d.ts', 'dist/index.js',
      'dist/scope-speedscope.js', 'dist/scope-speedscope.wasm', 'dist/server.js', ...site, 'package.json'].sort());
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name": "app", "private": true, "type": "module"}\n');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, filename)],
      { cwd: app, stdio: 'pipe' });
    const r = spawnSync('npx', ['--offline', 'scope-speedscope', inputPath('hdf5-schema-3.h5'), '-o', 'out', '--quiet'],
      { cwd: app, encoding: 'buffer' });
    assert.equal(r.status, 0, r.stderr.toString());
    const c = cases.find((x) => x.name === 'schema3_fixture');
    assert.equal(sha256(asScopeProfiler(fs.readFileSync(path.join(app, 'out', 'profile.speedscope.json')))), c.outputs[0].sha256);
    // The installed package serves its own copy of the site with the result.
    const viewer = await startCli(['view', inputPath('hdf5-schema-3.h5'), '--no-open'],
      { cwd: app, cli: path.join(app, 'node_modules', 'scope-speedscope', 'dist', 'cli.js') });
    try {
      for (const file of ['', 'sw.js', 'lib/scope-speedscope.wasm', 'speedscope/index.html']) {
        assert.equal((await fetch(new URL(file, viewer.url))).status, 200, file);
      }
      const served = Buffer.from(await (await fetch(new URL('results/profile.speedscope.json', viewer.url))).arrayBuffer());
      assert.equal(sha256(asScopeProfiler(served)), c.outputs[0].sha256);
    } finally {
      assert.equal((await viewer.stop('SIGINT')).code, 0);
    }
    const script = "import { createScopeSpeedscope } from 'scope-speedscope'; const sp = await createScopeSpeedscope(); console.log(sp.version);";
    assert.equal(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' }), `${version}\n`);
    fs.rmSync(work, { recursive: true });
  });
});
