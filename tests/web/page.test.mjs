// Browser tests of the static page (dist/web), in Debian's headless Chromium
// driven by playwright-core. Run: npm run build && node --test tests/web/
//
// They convert fixtures through the file input and compare the downloaded
// bytes with the expected outputs, check that the embedded speedscope renders,
// that an error names its file and leaves the page usable, that Cancel works,
// and that no request leaves the page's origin. One screenshot per run goes to
// build/test-artifacts/page.png.
//
// SCOPE_SPEEDSCOPE_WEB_ROOT=<dir> tests another build of the site, e.g. one
// made by `node scripts/build-web.mjs --lib <dir> --out <dir>`.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const root = resolve(process.env.SCOPE_SPEEDSCOPE_WEB_ROOT ?? join(repo, 'dist', 'web'));
const artifacts = join(repo, 'build', 'test-artifacts');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The project's fixtures, or the shared copy until the project has its own.
const fixtures = [join(repo, 'tests', 'fixtures'), '/work/shared/fixtures']
  .find((dir) => existsSync(join(dir, 'cases.json'))) ?? join(repo, 'tests', 'fixtures');
const cases = existsSync(join(fixtures, 'cases.json'))
  ? JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8')) : [];
const caseNamed = (name) => cases.find((c) => c.name === name);

const ORIGINAL_EXPORTER = '"exporter": "scope-profiler@0.7.3"';
const OUR_EXPORTER = `"exporter": "scope-speedscope@${version}"`;

function expectedBytes(output) {
  const text = readFileSync(join(fixtures, output.expected), 'utf8');
  assert.ok(text.includes(ORIGINAL_EXPORTER), `${output.expected} has no scope-profiler exporter`);
  return Buffer.from(text.replace(ORIGINAL_EXPORTER, OUR_EXPORTER), 'utf8');
}

function builtSiteProblem() {
  const need = ['index.html', 'app.js', 'worker.js', 'lib/index.js', 'lib/scope-speedscope.js',
    'lib/scope-speedscope.wasm', 'speedscope/index.html', 'example/real_run_s1.h5'];
  const missing = need.filter((f) => !existsSync(join(root, f)));
  return missing.length ? `${root} is missing ${missing.join(', ')}: run npm run build first` : null;
}

let server;
let context;
let userDataDir;
const requests = [];        // every URL any frame or worker asked for
const cspViolations = [];   // console messages about blocked content
const pageErrors = [];

async function openPage(query = '') {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`${server.url}${query}`);
  await page.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent),
    null, { timeout: 30_000 });
  return page;
}

// Picks files through the file input and waits until the page has read them.
async function pick(page, names) {
  await page.setInputFiles('[data-testid=file-input]', names.map((name) => ({
    name, mimeType: 'application/x-hdf5', buffer: readFileSync(join(fixtures, 'h5', name)),
  })));
  await page.waitForFunction(
    () => /ready to convert|No file can be converted/.test(document.querySelector('[data-testid=status]').textContent),
    null, { timeout: 30_000 });
}

// Sets the options of a fixture case; false when the page cannot express them
// (checkboxes give ranks in ascending order, as the CLI sorts them).
async function setOptions(page, c) {
  if (c.ranks) {
    const sorted = [...new Set(c.ranks)].sort((a, b) => a - b);
    if (JSON.stringify(sorted) !== JSON.stringify(c.ranks)) return false;
    for (const box of await page.locator('#ranks input[name=rank]').all()) await box.uncheck();
    for (const r of c.ranks) {
      const box = page.getByTestId(`rank-${r}`);
      if (!(await box.count())) return false;
      await box.check();
    }
  }
  await page.getByTestId('include').fill((c.include ?? []).join('\n'));
  await page.getByTestId('exclude').fill((c.exclude ?? []).join('\n'));
  await page.getByTestId('output-name').fill(c.filepath);
  return true;
}

// Clicks Convert and waits for the downloads or the error.
async function convert(page, { timeout = 120_000 } = {}) {
  await page.getByTestId('convert').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=error]').hidden ||
      document.querySelectorAll('[data-testid=download]').length > 0, null, { timeout });
}

async function downloads(page) {
  const result = new Map();
  for (const link of await page.getByTestId('download').all()) {
    const name = await link.getAttribute('download');
    assert.match(await link.getAttribute('href'), /^blob:/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), name);
    result.set(name, readFileSync(await download.path()));
  }
  return result;
}

async function assertOutputs(page, c) {
  const got = await downloads(page);
  assert.deepEqual([...got.keys()].sort(), c.outputs.map((o) => o.file).sort(), 'output file names');
  for (const o of c.outputs) {
    const bytes = got.get(o.file);
    if (o.expected) {
      assert.ok(bytes.equals(expectedBytes(o)), `${c.name}: ${o.file} differs from ${o.expected}`);
    } else {
      // Large cases keep only a hash of scope-profiler's bytes.
      const theirs = Buffer.from(bytes.toString('utf8').replace(OUR_EXPORTER, ORIGINAL_EXPORTER), 'utf8');
      assert.equal(createHash('sha256').update(theirs).digest('hex'), o.sha256, `${c.name}: ${o.file} sha256`);
      assert.equal(theirs.length, o.bytes);
    }
  }
}

async function errorText(page) {
  const box = page.getByTestId('error');
  await box.waitFor({ state: 'visible' });
  return box.innerText();
}

// Watches which progress phases the page shows (in the page, before Convert).
async function watchPhases(page) {
  await page.evaluate(() => {
    window.__phases = [];
    const area = document.getElementById('progress-area');
    new MutationObserver(() => {
      if (!area.hidden && area.dataset.phase && window.__phases.at(-1) !== area.dataset.phase) {
        window.__phases.push(area.dataset.phase);
      }
    }).observe(area, { attributes: true });
  });
}

// The embedded speedscope shows the document `docName`.
async function assertViewerShows(page, docName) {
  const frame = page.frameLocator('[data-testid=viewer]');
  await frame.locator('canvas').first().waitFor({ state: 'visible', timeout: 60_000 });
  const frameHandle = await page.getByTestId('viewer').elementHandle();
  const content = await frameHandle.contentFrame();
  await content.waitForFunction((name) => document.title === `${name} - speedscope`, docName, { timeout: 60_000 });
  const text = await frame.locator('body').innerText();
  assert.doesNotMatch(text, /Something went wrong|Unrecognized format/i);
  assert.ok(await page.getByTestId('viewer-note').isHidden(), 'no viewer failure note');
  const src = await page.getByTestId('viewer').getAttribute('src');
  assert.match(src, /^speedscope\/index\.html#profileURL=blob%3Ahttp/);
  return decodeURIComponent(src.split('#profileURL=')[1]);
}

describe('the static page', { timeout: 600_000 }, () => {
  before(async () => {
    const problem = builtSiteProblem();
    if (problem) throw new Error(problem);
    assert.ok(cases.length, `no fixture cases in ${fixtures}`);
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
    server = await startServer({ root, port: 0 });
    userDataDir = mkdtempSync(join(tmpdir(), 'scope-speedscope-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true,
      viewport: { width: 1280, height: 1000 }, acceptDownloads: true,
    });
    context.on('request', (request) => requests.push(request.url()));
  });

  after(async () => {
    await context?.close();
    await server?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  test('Try the example converts the bundled run and speedscope shows it', async () => {
    const page = await openPage();
    await watchPhases(page);
    await page.getByTestId('example').click();
    await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
    await assertOutputs(page, caseNamed('real_run_s1'));
    const phases = await page.evaluate(() => window.__phases);
    assert.ok(phases.some((p) => p !== 'load'), `the progress bar showed conversion phases (saw ${phases})`);
    // Region names are shown as text.
    const regions = await page.locator('[data-testid=regions] td.region').allInnerTexts();
    assert.ok(regions.includes('inner: with spaces & (parens)'), `regions listed: ${regions}`);
    const profileUrl = await assertViewerShows(page, 'real_run_s1');
    assert.equal(profileUrl, await page.getByTestId('download').getAttribute('href'));
    await page.waitForTimeout(500);  // let the flame chart paint
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'page.png'), fullPage: true });
    await page.close();
  });

  test('an error names the file, and a good file converts right after', async () => {
    const page = await openPage();
    const bad = caseNamed('ERR_partial_overlap');
    await pick(page, bad.inputs);
    await convert(page);
    const text = await errorText(page);
    assert.ok(text.includes(bad.error.message), `error box shows the message: ${text}`);
    assert.ok(text.includes('overlap_s3.h5'), `error box names the file: ${text}`);
    assert.equal(await page.getByTestId('download').count(), 0);

    const good = caseNamed('real_run_s1');
    await pick(page, good.inputs);
    assert.ok(await page.getByTestId('error').isHidden(), 'a new selection clears the error');
    await setOptions(page, good);
    await convert(page);
    assert.ok(await page.getByTestId('error').isHidden());
    await assertOutputs(page, good);
    await assertViewerShows(page, 'real_run_s1');
    await page.close();
  });

  test('several outputs: a download each and a selector between them', async () => {
    const page = await openPage();
    const c = caseNamed('multi_fixtures');
    await pick(page, c.inputs);
    await setOptions(page, c);
    await convert(page);
    await assertOutputs(page, c);
    const select = page.getByTestId('output-select');
    assert.deepEqual(await select.locator('option').allInnerTexts(), c.outputs.map((o) => o.file));
    await assertViewerShows(page, 'hdf5-schema-1');
    await select.selectOption({ label: c.outputs[1].file });
    await assertViewerShows(page, 'hdf5-schema-2');
    await page.close();
  });

  test('Cancel stops a conversion and the next one still works', async () => {
    const page = await openPage();
    const c = caseNamed('large_s3');
    // Three copies take long enough that Cancel surely lands first.
    await pick(page, [...c.inputs, ...c.inputs, ...c.inputs]);
    await setOptions(page, c);
    await page.getByTestId('convert').click();
    await page.getByTestId('cancel').click();
    await page.waitForFunction(() => /cancelled/.test(document.querySelector('[data-testid=status]').textContent));
    assert.equal(await page.getByTestId('download').count(), 0);
    assert.ok(await page.getByTestId('progress').isHidden());
    assert.ok(await page.getByTestId('cancel').isHidden());
    await pick(page, c.inputs);
    await setOptions(page, c);
    await convert(page);
    await assertOutputs(page, c);
    await page.close();
  });

  test('speedscope reads the gzip-compressed form used for large outputs', async () => {
    const page = await openPage('?gzip-above=0');
    await page.getByTestId('example').click();
    await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
    await assertOutputs(page, caseNamed('real_run_s1'));  // the download stays plain JSON
    const viewed = await assertViewerShows(page, 'real_run_s1');
    assert.notEqual(viewed, await page.getByTestId('download').getAttribute('href'));
    const head = await page.evaluate(async (url) => [...new Uint8Array(await (await fetch(url)).arrayBuffer()).slice(0, 2)], viewed);
    assert.deepEqual(head, [0x1f, 0x8b], 'the viewer got gzip data');
    await page.close();
  });

  test('keyboard and labels: every control is named, focus is visible, Enter works', async () => {
    const page = await openPage();
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('input, select, textarea, button')]
      .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim()))
      .map((e) => e.id || e.outerHTML));
    assert.deepEqual(unnamed, []);
    let focused = null;
    let sawFileButton = false;
    for (let i = 0; i < 12 && focused !== 'example'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.id);
      if (focused === 'file-input') {
        // The input is visually hidden; its label shows the focus ring.
        const outline = await page.$eval('#file-label', (e) => getComputedStyle(e).outlineStyle);
        assert.notEqual(outline, 'none', 'the file button shows keyboard focus');
        sawFileButton = true;
      }
    }
    assert.ok(sawFileButton, 'Tab reaches the file button');
    assert.equal(focused, 'example', 'Tab reaches "Try the example"');
    assert.notEqual(await page.$eval('#example', (e) => getComputedStyle(e).outlineStyle), 'none');
    await page.keyboard.press('Enter');
    await page.getByTestId('download').first().waitFor({ timeout: 60_000 });
    await page.close();
  });

  test('dropping a file on the page reads it', async () => {
    const page = await openPage();
    await page.evaluate(async () => {
      const blob = await (await fetch('example/real_run_s1.h5')).blob();
      const data = new DataTransfer();
      data.items.add(new File([blob], 'dropped.h5'));
      const target = document.getElementById('dropzone');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    });
    await page.waitForFunction(() => /ready to convert/.test(document.querySelector('[data-testid=status]').textContent));
    assert.match(await page.getByTestId('file-card').innerText(), /dropped\.h5/);
    assert.ok(await page.getByTestId('convert').isEnabled());
    await page.close();
  });

  // Cases whose ranks a person cannot choose on the page: given out of order
  // (the page sends ranks ascending, as the CLI does), or ranks the page does
  // not offer (it offers the ranks that recorded calls). The library and CLI
  // suites run them; the test below checks what the page offers instead.
  const notOnThePage = new Set(['nested_s3_ranks10', 'ERR_rank5', 'ERR_rank_negative', 'ERR_gap_s1_rank1']);

  test('offers exactly the ranks that recorded calls', async () => {
    const page = await openPage();
    for (const [file, ranks] of [['nested_s3.h5', [0, 1]], ['gap_s1.h5', [0, 2]]]) {
      await page.goto(server.url);
      await pick(page, [file]);
      const offered = await page.locator('#ranks input[name=rank]').evaluateAll(
        (boxes) => boxes.map((b) => Number(b.value)));
      assert.deepEqual(offered, ranks, file);
    }
    await page.close();
  });

  describe('fixture cases through the file input', () => {
    let page;
    before(async () => { page = await openPage(); });
    after(async () => { await page?.close(); });

    for (const c of cases.filter((x) => !notOnThePage.has(x.name))) {
      test(c.name, async () => {
        await page.goto(server.url);
        await pick(page, c.inputs);
        if (c.error && !(await page.getByTestId('error').isHidden())) {
          // Rejected when the page read the file.
        } else {
          assert.ok(await setOptions(page, c), `${c.name}: the page cannot set ranks ${c.ranks}`);
          await convert(page);
        }
        if (c.error) {
          const text = await errorText(page);
          const name = c.inputs[0];
          assert.ok(text.includes(c.error.message.replaceAll('{path}', name)), `${c.name}: ${text}`);
          assert.ok(text.includes(name), `${c.name}: the error names ${name}: ${text}`);
        } else {
          assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
          await assertOutputs(page, c);
        }
      });
    }
  });

  test('no request left the origin, and nothing was blocked', () => {
    const origin = new URL(server.url).origin;
    const foreign = requests.filter((u) => !(u.startsWith(`${origin}/`) || u.startsWith('blob:') || u.startsWith('data:')));
    assert.deepEqual(foreign, []);
    // The recording covers the worker (the module), the frame (speedscope) and blobs.
    assert.ok(requests.some((u) => u.startsWith(`${origin}/lib/`)), 'the worker\'s requests were recorded');
    assert.ok(requests.some((u) => u.startsWith(`${origin}/speedscope/`)), 'the frame\'s requests were recorded');
    assert.ok(requests.some((u) => u.startsWith(`blob:${origin}/`)), 'speedscope fetched the blob');
    assert.ok(requests.some((u) => u.endsWith('/lib/scope-speedscope.wasm')), 'the wasm was fetched');
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(pageErrors, []);
  });
});

