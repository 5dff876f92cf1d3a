// Shared set-up of the page's browser tests: the built site served on a free
// port, Debian's headless Chromium driven by playwright-core, the fixtures,
// and helpers that follow the page's flow through <body data-phase=...>
// (see web/state.js) instead of sleeping.
//
// SCOPE_SPEEDSCOPE_WEB_ROOT=<dir> tests another build of the site, e.g. one
// made by `node scripts/build-web.mjs --lib <dir> --out <dir>`.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';
import { createScopeSpeedscope } from '../../dist/node.js';

export const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const root = resolve(process.env.SCOPE_SPEEDSCOPE_WEB_ROOT ?? join(repo, 'dist', 'web'));
export const artifacts = join(repo, 'build', 'test-artifacts');
export const fixtures = join(repo, 'tests', 'fixtures');
export const nativeCli = join(repo, 'build', 'native', 'scope-speedscope');
export const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
export const cases = JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8'));
export const caseNamed = (name) => cases.find((c) => c.name === name);

const CHROMIUM = '/usr/bin/chromium';
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

const ORIGINAL_EXPORTER = '"exporter": "scope-profiler@0.7.3"';
const OUR_EXPORTER = `"exporter": "scope-speedscope@${version}"`;
const TERMINAL = ['done', 'failed', 'waiting', 'cancelled'];

// The core's generated cases (tests/fixtures/gen/make_fixtures.py, written by
// the native build): more layouts, and narrowing, with an independent model's
// expected outputs.
export const generated = join(repo, 'build', 'native', 'tests', 'cpp', 'generated');

export function expectedBytes(output, base = fixtures) {
  const text = readFileSync(join(base, output.expected), 'utf8');
  assert.ok(text.includes(ORIGINAL_EXPORTER), `${output.expected} has no scope-profiler exporter`);
  return Buffer.from(text.replace(ORIGINAL_EXPORTER, OUR_EXPORTER), 'utf8');
}

export function checkOutput(c, o, bytes, base = fixtures) {
  if (o.expected) {
    assert.ok(bytes.equals(expectedBytes(o, base)), `${c.name}: ${o.file} differs from ${o.expected}`);
  } else {
    // Large cases keep only a hash of scope-profiler's bytes.
    const theirs = Buffer.from(bytes.toString('utf8').replace(OUR_EXPORTER, ORIGINAL_EXPORTER), 'utf8');
    assert.equal(createHash('sha256').update(theirs).digest('hex'), o.sha256, `${c.name}: ${o.file} sha256`);
    assert.equal(theirs.length, o.bytes);
  }
}

function builtSiteProblem() {
  const need = [
    'index.html',
    'app.js',
    'worker.js',
    'lib/index.js',
    'lib/scope-speedscope.js',
    'lib/scope-speedscope.wasm',
    'speedscope/index.html',
    'speedscope/bridge.js',
    'example/real_run_s1.h5',
  ];
  const missing = need.filter((f) => !existsSync(join(root, f)));
  return missing.length ? `${root} is missing ${missing.join(', ')}: run npm run build first` : null;
}

// One browser and server per test file. Records every request of every frame
// and worker, console messages about blocked content, and page errors.
export async function startBrowser({ viewport = { width: 1400, height: 900 } } = {}) {
  const problem = builtSiteProblem();
  if (problem) throw new Error(problem);
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
  const server = await startServer({ root, port: 0 });
  const userDataDir = mkdtempSync(join(tmpdir(), 'scope-speedscope-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
    acceptDownloads: true,
  });
  const log = { requests: [], blocked: [], errors: [] };
  context.on('request', (request) => log.requests.push(request.url()));
  return {
    server,
    context,
    log,
    // init: a function run in the page before its scripts (page.addInitScript).
    async openPage(query = '', { wait = true, init = null } = {}) {
      const page = await context.newPage();
      if (init) await page.addInitScript(init);
      page.on('console', (msg) => {
        if (/Content Security Policy|Refused to/i.test(msg.text())) log.blocked.push(msg.text());
      });
      page.on('pageerror', (err) => log.errors.push(err.message));
      await page.goto(`${server.url}${query}`);
      if (wait) await converterReady(page);
      return page;
    },
    async close() {
      await context.close();
      await server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function converterReady(page) {
  await page.waitForFunction(
    () => /running in your browser/.test(document.getElementById('version-line').textContent),
    null,
    { timeout: 60_000 },
  );
}

const counter = (page, key) => page.evaluate((k) => Number(document.body.dataset[k] ?? 0), key);

// Runs `action` and waits until the page has settled after it: `key` is the
// counter the action bumps ('selection' for new files, 'attempts' for a
// conversion asked for), then a terminal phase.
export async function settle(page, key, action, { timeout = 120_000 } = {}) {
  const before = await counter(page, key);
  await action();
  await page.waitForFunction(
    ([k, n, terminal]) => Number(document.body.dataset[k] ?? 0) > n && terminal.includes(document.body.dataset.phase),
    [key, before, TERMINAL],
    { timeout },
  );
  return page.evaluate(() => document.body.dataset.phase);
}

// dir: a folder of tests/fixtures, or an absolute path.
export function h5(name, dir = 'h5') {
  return { name, mimeType: 'application/x-hdf5', buffer: readFileSync(join(resolve(fixtures, dir), name)) };
}

// Chooses files through the file input; resolves with the phase it settles in.
export function pick(page, names, { dir = 'h5', timeout } = {}) {
  return settle(
    page,
    'selection',
    () =>
      page.setInputFiles(
        '[data-testid=file-input]',
        names.map((n) => h5(n, dir)),
      ),
    { timeout },
  );
}

// Drops files on the page as a person would (a drop event with a DataTransfer);
// `dir` as for pick.
// names: file names in `dir`, or { dir, name } each for files of several folders.
export function drop(page, names, { dir = 'h5' } = {}) {
  const files = names
    .map((n) => (typeof n === 'string' ? { dir, name: n } : n))
    .map((f) => ({ name: f.name, bytes: [...readFileSync(join(resolve(fixtures, f.dir), f.name))] }));
  return settle(page, 'selection', () =>
    page.evaluate((list) => {
      const data = new DataTransfer();
      for (const f of list) data.items.add(new File([new Uint8Array(f.bytes)], f.name));
      const target = document.getElementById('dropzone');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    }, files),
  );
}

// Every rank ticked in Options (All ranks): converted and painted; Options closed again.
export async function allRanks(page) {
  await openOptions(page);
  assert.equal(await settle(page, 'attempts', () => page.getByTestId('rank-all').check()), 'done');
  assert.equal(await chartPainted(page), 'painted');
  await page.getByTestId('options-toggle').click();
}

export async function openOptions(page) {
  if ((await page.getByTestId('options-toggle').getAttribute('aria-expanded')) !== 'true') {
    await page.getByTestId('options-toggle').click();
  }
}

// Sets a fixture case's options and converts; false when the page cannot
// express them (checkboxes give ranks in ascending order, as the CLI sorts them).
export async function convertWith(page, c) {
  await openOptions(page);
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
  if (c.min_duration != null) await page.getByTestId('min-duration').fill(c.min_duration);
  if (c.time_window != null) {
    const [start, end] = c.time_window.split(':');
    await page.getByTestId('window-start').fill(start);
    await page.getByTestId('window-end').fill(end);
  }
  await page.getByTestId('output-name').fill(c.filepath);
  await settle(page, 'attempts', () => page.getByTestId('convert').click());
  return true;
}

// The current outputs' bytes, by file name, through the Download link (the
// selector goes through each output).
export async function downloads(page) {
  const result = new Map();
  const select = page.getByTestId('output-select');
  const n = await select.locator('option').count();
  for (let i = 0; i < Math.max(n, 1); i++) {
    if (n > 1) await select.selectOption(String(i));
    const link = page.getByTestId('download');
    const name = await link.getAttribute('download');
    assert.match(await link.getAttribute('href'), /^blob:/);
    await scrollIntoViewDrawn(page, link);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), name);
    result.set(name, readFileSync(await download.path()));
  }
  return result;
}

// Scrolls an element into view and waits until the scrolled page was drawn.
// Chromium routes a click by what the compositor last drew: with speedscope
// filling the window (an out-of-process frame), a click right after
// scrolling the bar into view can land in the frame on a busy machine.
export async function scrollIntoViewDrawn(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))),
  );
}

export async function assertOutputs(page, c, base = fixtures) {
  const got = await downloads(page);
  assert.deepEqual([...got.keys()].sort(), c.outputs.map((o) => o.file).sort(), 'output file names');
  for (const o of c.outputs) checkOutput(c, o, got.get(o.file), base);
}

// Waits until the viewer reports the flame chart painted (pixels on its
// canvases, reported by the frame's bridge) or a failure.
export async function viewerSettled(page, { timeout = 120_000 } = {}) {
  await page.waitForFunction(() => ['painted', 'failed', 'held'].includes(document.body.dataset.viewer), null, {
    timeout,
  });
  return page.evaluate(() => document.body.dataset.viewer);
}

export async function assertPainted(page, docName) {
  assert.equal(await viewerSettled(page), 'painted', await page.getByTestId('status').innerText());
  const frame = page.frameLocator('[data-testid=viewer]');
  const handle = await page.getByTestId('viewer').elementHandle();
  const content = await handle.contentFrame();
  assert.equal(await content.evaluate(() => document.title), `${docName} - speedscope`);
  assert.doesNotMatch(await frame.locator('body').innerText(), /Something went wrong|Unrecognized format/i);
}

// Waits until the page's timeline is drawn for the current file (<body data-chart>).
export async function chartPainted(page, { timeout = 120_000 } = {}) {
  // The state seen, not one read after it (a comparison opens right after
  // its run B was painted alone).
  const seen = await page.waitForFunction(
    () => ['painted', 'failed'].includes(document.body.dataset.chart) && document.body.dataset.chart,
    null,
    { timeout },
  );
  return seen.jsonValue();
}

// Open in speedscope, then waits until the viewer settled (painted, failed).
export async function openInSpeedscope(page) {
  await page.getByTestId('open-in-speedscope').click();
  await page.waitForFunction(() => document.body.dataset.viewer !== 'none', null, { timeout: 60_000 });
  return viewerSettled(page);
}

// The error box's text; the message must be in the page exactly once.
export async function errorText(page) {
  const box = page.getByTestId('error');
  await box.waitFor({ state: 'visible' });
  return box.innerText();
}

export async function occurrences(page, text) {
  const body = await page.evaluate(() => document.body.innerText);
  return body.split(text).length - 1;
}

// axe-core, injected into the page (and not its frames: speedscope's own page
// is not ours to fix), at zero violations.
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export async function assertAccessible(page, label) {
  // Evaluated through the protocol: the page's policy forbids inline scripts.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      exclude: [['iframe']],
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  });
  assert.deepEqual(violations, [], `axe violations (${label})`);
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, name) });
}

// No request left the origin, and nothing was blocked by a policy.
export function assertSameOrigin(log, origin) {
  const foreign = log.requests.filter(
    (u) => !(u.startsWith(`${origin}/`) || u.startsWith('blob:') || u.startsWith('data:')),
  );
  assert.deepEqual(foreign, []);
  assert.deepEqual(log.blocked, []);
  assert.deepEqual(log.errors, []);
}

// The error the core gives for a case, asked of the package in Node the way
// the page asks it in its worker: reading each file first, then converting
// with the case's options. The page must show its peopleMessage (its words
// for people; the CLI's message where it has none).
let nodeModule = null;
export async function coreError(c, base = fixtures) {
  nodeModule ??= await createScopeSpeedscope();
  const inputs = c.inputs.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(base, 'h5', name))) }));
  try {
    for (const input of inputs) nodeModule.inspect(input);
    const options = {
      filepath: c.filepath ?? 'profile.speedscope.json',
      ranks: c.ranks ?? null,
      include: c.include ?? null,
      exclude: c.exclude ?? null,
    };
    if (c.min_duration != null) options.minDuration = c.min_duration;
    if (c.time_window != null) options.timeWindow = c.time_window;
    nodeModule.exportSpeedscope(inputs, options);
  } catch (err) {
    return err;
  }
  throw new Error(`${c.name}: the core converted it`);
}

// The page said the core's error for case `c` once: on its field when the
// core blames an option, else in the error box naming the file once.
export async function assertCoreError(page, c, base = fixtures) {
  const err = await coreError(c, base);
  const words = err.peopleMessage ?? err.message;
  assert.equal(await occurrences(page, words), 1, `${c.name}: "${words}" said once`);
  if (err.field) return err;
  const text = await errorText(page);
  assert.ok(text.includes(words), `${c.name}: ${text}`);
  assert.doesNotMatch(text, /\b(ValueError|NestingError|CorruptProfileError|HDF5SchemaError|OSError)\b/);
  const file = err.file ?? (c.inputs.length === 1 ? c.inputs[0] : null);
  if (file) assert.equal(text.split(file).length - 1, 1, `${c.name}: ${file} named once: ${text}`);
  return err;
}
