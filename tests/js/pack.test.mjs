// The published package: npm pack, install the tarball into an empty folder,
// run its CLI with npx and import it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import esbuild from 'esbuild';

import { asScopeProfiler, dist, inputPath, listFiles, root, sha256, tempDir, cases, version } from './helpers.mjs';
import { startCli } from './serve-helpers.mjs';

describe('npm package', () => {
  it('declares an ESM package with a browser, a Node and a CommonJS entry, types, a bin', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.name, 'scope-speedscope');
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.license, 'MIT');
    // Order matters: bundlers pick `browser`, Node `node`, everything else the browser build.
    assert.deepEqual(pkg.exports['.'], {
      browser: { types: './dist/index.d.ts', default: './dist/browser.js' },
      node: {
        import: { types: './dist/index.d.ts', default: './dist/node.js' },
        require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
        default: './dist/node.js',
      },
      types: './dist/index.d.ts',
      default: './dist/browser.js',
    });
    assert.equal(pkg.exports['./scope-speedscope.wasm'], './dist/scope-speedscope.wasm');
    assert.equal(pkg.main, './dist/index.cjs');
    // For bundlers that read `exports` only when told to (Parcel 2 by default).
    assert.equal(pkg.browser, './dist/browser.js');
    assert.deepEqual(pkg.bin, { 'scope-speedscope': 'dist/cli.js' });
    assert.equal(pkg.engines.node, '>=20');
  });

  it("has no node: import, require or top-level await in the browser build's module graph", () => {
    const seen = new Set();
    const visit = (file) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = fs.readFileSync(path.join(dist, file), 'utf8');
      const node = text.match(/.{0,60}(?:['"]node:|\brequire\(|__dirname).{0,60}/);
      assert.equal(node, null, `${file} has Node code: ${node}`);
      for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"](\.\/[^'"]+)['"]/gm))
        visit(spec.slice(2));
      for (const [, spec] of text.matchAll(/^import\s*['"](\.\/[^'"]+)['"]/gm)) visit(spec.slice(2));
    };
    visit('browser.js');
    assert.deepEqual([...seen].sort(), [
      'api.js',
      'browser.js',
      'errors.js',
      'inputs.js',
      'instantiate.js',
      'options.js',
      'scope-speedscope.js',
      'sinks.js',
      'timeline.js',
      'wire.js',
    ]);
    // A top-level await stops IIFE bundles (Vite's default for workers) and require(esm).
    for (const format of ['iife', 'cjs']) {
      assert.doesNotThrow(
        () =>
          esbuild.buildSync({
            entryPoints: [path.join(dist, 'browser.js')],
            bundle: true,
            format,
            write: false,
            logLevel: 'silent',
          }),
        `esbuild --format=${format} fails on the browser build`,
      );
    }
    // The Node build has no top-level await either (require(esm), bundles for Node).
    assert.doesNotThrow(
      () =>
        esbuild.buildSync({
          entryPoints: [path.join(dist, 'node.js')],
          bundle: true,
          platform: 'node',
          format: 'cjs',
          write: false,
          logLevel: 'silent',
        }),
      'esbuild --platform=node --format=cjs fails on the Node build',
    );
  });

  it('packs, installs into an empty folder and runs with npx', async () => {
    const work = tempDir('scope-speedscope-pack-');
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' });
    const [{ filename, files }] = JSON.parse(out);
    const names = files.map((f) => f.path).sort();
    // The package, and the built site that `scope-speedscope view` and `serve` serve.
    const site = listFiles(path.join(root, 'dist', 'web')).map((f) => `dist/web/${f}`);
    assert.ok(site.includes('dist/web/index.html') && site.includes('dist/web/sw.js'), 'the site is built');
    // The README's links lead into docs/, shipped with it.
    const docs = listFiles(path.join(root, 'docs')).map((f) => `docs/${f}`);
    assert.ok(docs.includes('docs/package-api.md'), 'the docs are there');
    assert.deepEqual(
      names,
      [
        'LICENSE',
        'README.md',
        'dist/api.js',
        'dist/browser.js',
        'dist/cli.js',
        'dist/engine-server.js',
        'dist/errors.js',
        'dist/index.cjs',
        'dist/index.d.cts',
        'dist/index.d.ts',
        'dist/inputs.js',
        'dist/instantiate.js',
        'dist/node.js',
        'dist/options.js',
        'dist/scope-speedscope.js',
        'dist/scope-speedscope.node.js',
        'dist/scope-speedscope.wasm',
        'dist/server.js',
        'dist/sinks.js',
        'dist/timeline.js',
        'dist/wire.cjs',
        'dist/wire.js',
        ...site,
        ...docs,
        'package.json',
      ].sort(),
    );
    const app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), '{"name": "app", "private": true, "type": "module"}\n');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, filename)], {
      cwd: app,
      stdio: 'pipe',
    });
    const r = spawnSync(
      'npx',
      ['--offline', 'scope-speedscope', inputPath('hdf5-schema-3.h5'), '-o', 'out', '--quiet'],
      { cwd: app, encoding: 'buffer' },
    );
    assert.equal(r.status, 0, r.stderr.toString());
    const c = cases.find((x) => x.name === 'schema3_fixture');
    assert.equal(
      sha256(asScopeProfiler(fs.readFileSync(path.join(app, 'out', 'profile.speedscope.json')))),
      c.outputs[0].sha256,
    );
    // The installed package serves its own copy of the site with the result.
    const viewer = await startCli(['view', inputPath('hdf5-schema-3.h5'), '--no-open'], {
      cwd: app,
      cli: path.join(app, 'node_modules', 'scope-speedscope', 'dist', 'cli.js'),
    });
    try {
      for (const file of ['', 'sw.js', 'lib/scope-speedscope.wasm', 'speedscope/index.html']) {
        assert.equal((await fetch(new URL(file, viewer.url))).status, 200, file);
      }
      const served = Buffer.from(
        await (await fetch(new URL('results/profile.speedscope.json', viewer.url))).arrayBuffer(),
      );
      assert.equal(sha256(asScopeProfiler(served)), c.outputs[0].sha256);
    } finally {
      assert.equal((await viewer.stop('SIGINT')).code, 0);
    }
    const script =
      "import { createScopeSpeedscope } from 'scope-speedscope'; const sp = await createScopeSpeedscope(); console.log(sp.version);";
    assert.equal(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' }),
      `${version}\n`,
    );
    fs.rmSync(work, { recursive: true });
  });
});
