// The page offline: after one visit the service worker serves the whole site
// from its cache, so with the network gone (and the server stopped) a reload
// still converts and shows the chart. A new build replaces the old cache. The
// web app manifest makes the page installable.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startServer } from '../../scripts/serve.mjs';
import { assertChartPainted, caseNamed, downloads, expectedBytes, fixtures, launch, repo } from './browser-helpers.mjs';

const site = join(repo, 'dist', 'web');

async function waitForConverter(page) {
  await page.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent),
    null, { timeout: 30_000 });
}

// Polls `check` (an async function) until it returns true.
async function until(what, check, timeout = 30_000) {
  for (const start = Date.now(); !(await check());) {
    assert.ok(Date.now() - start < timeout, `${what} within ${timeout} ms`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

// Resolves once a service worker controls the page; returns its cache names.
async function waitForControl(page) {
  await until('a service worker controls the page', () => page.evaluate(() => navigator.serviceWorker.controller !== null));
  return page.evaluate(() => caches.keys());
}

// The build the service worker that controls the page serves.
async function servedVersion(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const sw = navigator.serviceWorker;
    if (!sw.controller) { resolve(null); return; }
    sw.addEventListener('message', (e) => resolve(e.data.version), { once: true });
    sw.controller.postMessage('version');
  }));
}

async function convertFixture(page, c) {
  await page.setInputFiles('[data-testid=file-input]', c.inputs.map((name) => ({
    name, mimeType: 'application/x-hdf5', buffer: readFileSync(join(fixtures, 'h5', name)),
  })));
  await page.waitForFunction(() => /ready to convert/.test(document.querySelector('[data-testid=status]').textContent),
    null, { timeout: 30_000 });
  await page.getByTestId('convert').click();
  await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
}

describe('the page offline', { timeout: 300_000 }, () => {
  let context;
  before(async () => { context = await launch(); });
  after(async () => { await context?.close(); });

  test('after one visit, a reload without network converts and shows the chart', async () => {
    const server = await startServer({ root: site, port: 0 });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await waitForConverter(page);
    const cachesNow = await waitForControl(page);
    const sw = readFileSync(join(site, 'sw.js'), 'utf8');
    const version = sw.match(/const VERSION = "([0-9a-f]{16})";/)[1];
    assert.deepEqual(cachesNow, [`scope-speedscope ${server.url} ${version}`]);

    // Installable: Chromium finds nothing missing in the manifest, icons or worker.
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, []);
    assert.equal(JSON.parse(manifest.data).name, 'scope-speedscope');
    assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
    await cdp.detach();

    await context.setOffline(true);
    await server.close();
    try {
      await page.reload();
      await waitForConverter(page);
      const c = caseNamed('real_run_s1');
      await convertFixture(page, c);
      const got = await downloads(page);
      assert.ok(got.get('profile.speedscope.json').equals(expectedBytes(c.outputs[0])), 'download bytes offline');
      await assertChartPainted(page, 'real_run_s1');
      // The bundled example comes from the cache too.
      await page.reload();
      await waitForConverter(page);
      await page.getByTestId('example').click();
      await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
      assert.ok(await page.getByTestId('error').isHidden());
      assert.deepEqual(errors, []);
    } finally {
      await context.setOffline(false);
      await page.close();
    }
  });

  test('a new build replaces the old cache', async () => {
    // A copy of the site, served, visited, then rebuilt with one file changed.
    const dir = mkdtempSync(join(tmpdir(), 'scope-speedscope-site-'));
    cpSync(site, dir, { recursive: true });
    const server = await startServer({ root: dir, port: 0 });
    try {
      let page = await context.newPage();
      await page.goto(server.url);
      await waitForConverter(page);
      const [oldCache] = await waitForControl(page);
      await page.close();

      appendFileSync(join(dir, 'style.css'), '\n/* build 2 */\n');
      execFileSync(process.execPath, [join(repo, 'scripts', 'build-web.mjs'), '--service-worker', dir]);
      const version = readFileSync(join(dir, 'sw.js'), 'utf8').match(/const VERSION = "([0-9a-f]{16})";/)[1];
      const newCache = `scope-speedscope ${server.url} ${version}`;
      assert.notEqual(newCache, oldCache);

      // The next visit (still the old build, from the cache) finds the new
      // worker, which installs and waits while a page uses the old one.
      page = await context.newPage();
      await page.goto(server.url);
      assert.ok(!(await page.evaluate(async () => (await fetch('style.css')).text())).includes('build 2'));
      await until('the new build waits', () => page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).waiting !== null));
      await page.close();
      // With no page left it takes over (soon: a page opened before that is
      // still the old one's, so try again), and deletes the old cache.
      for (const start = Date.now(); ;) {
        page = await context.newPage();
        await page.goto(server.url);
        await waitForConverter(page);
        if (await servedVersion(page) === version) break;
        await page.close();
        assert.ok(Date.now() - start < 30_000, 'the new service worker took over');
        await new Promise((ok) => setTimeout(ok, 250));
      }
      assert.deepEqual(await page.evaluate(() => caches.keys()), [newCache]);
      const css = await page.evaluate(async () => (await fetch('style.css')).text());
      assert.ok(css.endsWith('/* build 2 */\n'), 'the new build is served');
      await page.close();
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
