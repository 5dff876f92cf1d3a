// The page opened from disk (file://), in headless Chromium:
//  - dist/scope-speedscope.html, the single-file page, copied alone into an
//    empty folder: converts a picked fixture and the example, the download
//    holds the expected bytes, the chart is painted, and nothing is requested
//    but the page itself, blob: and data: URLs;
//  - dist/web/index.html from a copied folder: says at once (no hang on
//    "Loading the converter…") which command serves the folder, and that
//    command works.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import { assertChartPainted, caseNamed, downloads, expectedBytes, fixtures, launch, repo } from './browser-helpers.mjs';

const single = join(repo, 'dist', 'scope-speedscope.html');
const site = join(repo, 'dist', 'web');

async function pickAndConvert(page, c) {
  await page.setInputFiles('[data-testid=file-input]', c.inputs.map((name) => ({
    name, mimeType: 'application/x-hdf5', buffer: readFileSync(join(fixtures, 'h5', name)),
  })));
  await page.waitForFunction(() => /ready to convert/.test(document.querySelector('[data-testid=status]').textContent),
    null, { timeout: 30_000 });
  await page.getByTestId('convert').click();
  await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
}

describe('the page from disk', { timeout: 300_000 }, () => {
  let context;
  let dir;
  before(async () => {
    for (const f of [single, join(site, 'index.html')]) assert.ok(existsSync(f), `${f} is missing: run npm run build first`);
    context = await launch();
    dir = mkdtempSync(join(tmpdir(), 'scope-speedscope-file-'));
  });
  after(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the single-file page converts and shows the chart from file://', async () => {
    copyFileSync(single, join(dir, 'scope-speedscope.html'));
    const url = pathToFileURL(join(dir, 'scope-speedscope.html')).href;
    const page = await context.newPage();
    const requests = [];
    const problems = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => { if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text()); });
    const started = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent),
      null, { timeout: 30_000 });
    const ready = Date.now() - started;

    const c = caseNamed('real_run_s1');
    await pickAndConvert(page, c);
    const got = await downloads(page);
    assert.ok(got.get('profile.speedscope.json').equals(expectedBytes(c.outputs[0])), 'download bytes');
    await assertChartPainted(page, 'real_run_s1');
    const painted = Date.now() - started;

    // Several outputs, and the bundled example.
    const multi = caseNamed('multi_fixtures');
    await pickAndConvert(page, multi);
    const many = await downloads(page);
    for (const o of multi.outputs) assert.ok(many.get(o.file).equals(expectedBytes(o)), o.file);
    await assertChartPainted(page, 'hdf5-schema-1');
    await page.getByTestId('example').click();
    await page.waitForFunction(() => /Converted/.test(document.querySelector('[data-testid=status]').textContent),
      null, { timeout: 60_000 });
    await assertChartPainted(page, 'real_run_s1');

    const foreign = requests.filter((u) => !(u === url || u.startsWith('blob:') || u.startsWith('data:')));
    assert.deepEqual(foreign, []);
    assert.deepEqual(problems, []);
    console.log(`single file: ${statSync(single).size} bytes; converter ready after ${ready} ms, ` +
      `real_run_s1 painted ${painted} ms after opening`);
    await page.close();
  });

  test('a copied dist/web opened as a file says at once which command serves it, and that command works', async () => {
    const folder = join(dir, 'copied web');
    cpSync(site, folder, { recursive: true });
    const page = await context.newPage();
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
    const args = ['-m', 'http.server', '-b', '127.0.0.1', '-d', folder, String(port)];
    const server = spawn('python3', args, { stdio: 'ignore' });
    try {
      const served = await context.newPage();
      for (let i = 0; ; i++) {
        try {
          await served.goto(`http://127.0.0.1:${port}/`);
          break;
        } catch (e) {
          if (i > 50) throw e;
          await new Promise((ok) => setTimeout(ok, 100));
        }
      }
      await served.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent),
        null, { timeout: 30_000 });
      await served.getByTestId('example').click();
      await assertChartPainted(served, 'real_run_s1');
      await served.close();
    } finally {
      server.kill();
    }
  });
});
