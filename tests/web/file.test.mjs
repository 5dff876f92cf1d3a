// The page opened from disk (file://), in headless Chromium:
//  - dist/scope-speedscope.html, the single-file page, copied alone into an
//    empty folder: a chosen fixture converts at once, the download holds the
//    expected bytes, the timeline is painted and, on a click, speedscope in the sandboxed viewer frame, and
//    nothing is requested but the page itself, blob: and data: URLs;
//  - dist/web/index.html from a copied folder: says at once (no hang on
//    "Loading the converter…") which command serves the folder, and that
//    command works.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

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

const single = join(repo, 'dist', 'scope-speedscope.html');

describe('the page from disk', { timeout: 300_000 }, () => {
  let browser;
  let dir;
  before(async () => {
    assert.ok(existsSync(single), `${single} is missing: run npm run build first`);
    browser = await startBrowser();
    dir = mkdtempSync(join(tmpdir(), 'scope-speedscope-file-'));
  });
  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the single-file page converts and paints the chart from file://', async () => {
    copyFileSync(single, join(dir, 'scope-speedscope.html'));
    const url = pathToFileURL(join(dir, 'scope-speedscope.html')).href;
    const page = await browser.context.newPage();
    const requests = [];
    const problems = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    const started = Date.now();
    await page.goto(url);
    await converterReady(page);
    const ready = Date.now() - started;

    const c = caseNamed('real_run_s1');
    assert.equal(await pick(page, c.inputs), 'done');
    assert.equal(await chartPainted(page), 'painted');
    const painted = Date.now() - started;
    assert.equal(await openInSpeedscope(page), 'painted');
    await assertPainted(page, 'real_run_s1');
    await assertOutputs(page, c);

    // Several outputs, and the bundled example.
    const multi = caseNamed('multi_fixtures');
    assert.equal(await pick(page, multi.inputs), 'done');
    await assertOutputs(page, multi);
    assert.equal(await chartPainted(page), 'painted');
    await page.getByTestId('example').click();
    await page.waitForFunction(
      () =>
        document.body.dataset.chart === 'painted' &&
        /real_run_s1/.test(document.getElementById('bar-files').textContent),
      null,
      { timeout: 60_000 },
    );

    // No "Open in a new tab" (a tab opened from file:// could not read this
    // page's outputs); full screen instead.
    assert.ok(await page.getByTestId('open-tab').isHidden());
    assert.ok(await page.getByTestId('fullscreen').isVisible());

    const foreign = requests.filter((u) => !(u === url || u.startsWith('blob:') || u.startsWith('data:')));
    assert.deepEqual(foreign, []);
    assert.deepEqual(problems, []);
    console.log(
      `single file: ${statSync(single).size} bytes; converter ready after ${ready} ms, ` +
        `real_run_s1's timeline painted ${painted} ms after opening`,
    );
    await page.close();
  });

  test('a copied dist/web opened as a file says at once which command serves it, and that command works', async () => {
    const folder = join(dir, 'copied web');
    cpSync(root, folder, { recursive: true });
    const page = await browser.context.newPage();
    await page.goto(pathToFileURL(join(folder, 'index.html')).href);
    const notice = page.getByTestId('file-protocol');
    await notice.waitFor({ timeout: 2_000 });
    const text = await notice.innerText();
    assert.ok(!/Loading the converter/.test(await page.locator('body').innerText()), 'no "Loading the converter…"');
    const command = await notice.locator('code').innerText();
    assert.equal(command, `python3 -m http.server -b 127.0.0.1 -d "${folder}" 8000`);
    assert.match(text, /http:\/\/127\.0\.0\.1:8000\//);
    assert.ok(await page.getByTestId('example').isDisabled());
    await page.close();

    // The command, on a free port instead of 8000.
    const free = net.createServer();
    await new Promise((ok) => free.listen(0, '127.0.0.1', ok));
    const { port } = free.address();
    await new Promise((ok) => free.close(ok));
    const server = spawn('python3', ['-m', 'http.server', '-b', '127.0.0.1', '-d', folder, String(port)], {
      stdio: 'ignore',
    });
    try {
      const served = await browser.context.newPage();
      for (let i = 0; ; i++) {
        try {
          await served.goto(`http://127.0.0.1:${port}/`);
          break;
        } catch (e) {
          if (i > 50) throw e;
          await new Promise((ok) => setTimeout(ok, 100));
        }
      }
      await converterReady(served);
      await served.getByTestId('example').click();
      assert.equal(await chartPainted(served), 'painted');
      assert.equal(await openInSpeedscope(served), 'painted');
      await assertPainted(served, 'real_run_s1');
      await served.close();
    } finally {
      server.kill();
    }
  });
});
