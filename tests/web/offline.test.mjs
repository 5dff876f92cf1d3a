// The page offline: after one visit the service worker serves the whole site
// (the page, its modules and timeline/, the worker, the wasm, the viewer's
// frame) from its cache, so with the network gone and the server stopped a
// reload still converts and paints the timeline and speedscope. A new build replaces the old cache. The web
// app manifest makes the page installable.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startServer } from '../../scripts/serve.mjs';
import {
  assertOutputs,
  assertPainted,
  caseNamed,
  chartPainted,
  converterReady,
  openInSpeedscope,
  pick,
  repo,
  root,
  startBrowser,
} from './harness.mjs';

const versionOf = (dir) => readFileSync(join(dir, 'sw.js'), 'utf8').match(/const VERSION = "([0-9a-f]{16})";/)[1];

// Polls `check` (an async function) until it returns true.
async function until(what, check, timeout = 30_000) {
  for (const start = Date.now(); !(await check());) {
    assert.ok(Date.now() - start < timeout, `${what} within ${timeout} ms`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

// Resolves once a service worker controls the page; returns the cache names.
async function waitForControl(page) {
  await until('a service worker controls the page', () =>
    page.evaluate(() => navigator.serviceWorker.controller !== null),
  );
  return page.evaluate(() => caches.keys());
}

// The build that the service worker controlling the page serves.
function servedVersion(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const sw = navigator.serviceWorker;
        if (!sw.controller) {
          resolve(null);
          return;
        }
        sw.addEventListener('message', (e) => resolve(e.data.version), { once: true });
        sw.controller.postMessage('version');
      }),
  );
}

describe('the page offline', { timeout: 300_000 }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('after one visit, a reload without network converts and paints the chart', async () => {
    const { context, server } = browser;
    const page = await browser.openPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    assert.deepEqual(await waitForControl(page), [`scope-speedscope ${server.url} ${versionOf(root)}`]);

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
      await converterReady(page);
      const c = caseNamed('real_run_s1');
      assert.equal(await pick(page, c.inputs), 'done');
      assert.equal(await chartPainted(page), 'painted');
      await assertOutputs(page, c);
      assert.equal(await openInSpeedscope(page), 'painted');
      await assertPainted(page, 'real_run_s1');
      // The bundled example comes from the cache too.
      await page.reload();
      await converterReady(page);
      await page.getByTestId('example').click();
      assert.equal(await chartPainted(page), 'painted');
      assert.deepEqual(errors, []);
    } finally {
      await context.setOffline(false);
      await page.close();
    }
  });

  test('a new build replaces the old cache', async () => {
    const { context } = browser;
    // A copy of the site, served, visited, then rebuilt with one file changed.
    const dir = mkdtempSync(join(tmpdir(), 'scope-speedscope-site-'));
    cpSync(root, dir, { recursive: true });
    const server = await startServer({ root: dir, port: 0 });
    try {
      let page = await context.newPage();
      await page.goto(server.url);
      await converterReady(page);
      const [oldCache] = await waitForControl(page);
      await page.close();

      appendFileSync(join(dir, 'style.css'), '\n/* build 2 */\n');
      execFileSync(process.execPath, [join(repo, 'scripts', 'build-web.mjs'), '--service-worker', dir]);
      const version = versionOf(dir);
      const newCache = `scope-speedscope ${server.url} ${version}`;
      assert.notEqual(newCache, oldCache);

      // The next visit (still the old build, from the cache) finds the new
      // worker, which installs and waits while a page uses the old one.
      page = await context.newPage();
      await page.goto(server.url);
      assert.ok(!(await page.evaluate(async () => (await fetch('style.css')).text())).includes('build 2'));
      await until('the new build waits', () =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).waiting !== null),
      );
      await page.close();
      // With no page left it takes over (soon: a page opened before that is
      // still the old one's, so try again), and deletes the old cache.
      for (const start = Date.now(); ;) {
        page = await context.newPage();
        await page.goto(server.url);
        await converterReady(page);
        if ((await servedVersion(page)) === version) break;
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
