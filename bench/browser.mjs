#!/usr/bin/env node
// The page's benchmark in headless Chromium (npm run bench:browser): for the
// example run (calls 0) and runs of 1 M, 4 M, 10 M and 20 M calls
// (bench/make_run.py, cached in build/bench-runs/), each in a fresh browser
// with the page loaded, it chooses the file and measures
//   timeline      the page's timeline drawn (<body data-chart="painted">), the first view
//   converted     the outputs exist (the Download link is there)
//   download      a click on Download gave the complete file (while the viewer imports)
//   painted       the viewer's bridge saw the flame chart drawn (pixels, not the title)
//   memory        the peak of the summed RSS of every Chromium process of that browser
// A run over the viewer's budget waits: then it measures "Convert everything"
// and "Show anyway" (the viewer may die; the page must survive and keep the
// download), and, when the core offers narrowing, "Show with the suggestion".
// The baseline, in the same run: speedscope alone (its bundled page as a tab
// of its own, loading the same JSON, written by the native CLI, through
// #profileURL), painted when its overlay canvas has pixels.
// Mode 'page, zoom': after the timeline is drawn, a scripted zoom from the
// whole run down to one call (about 1 µs) and back, one wheel step a frame,
// then a pan; frame times are the gaps between requestAnimationFrame
// callbacks in the page (median, 99th percentile, worst). At 60 Hz those gaps
// are 16.7 ms whenever a frame is on time, so 'page, zoom, unthrottled' runs
// the same script with Chromium's frame-rate limit and vsync off: then a gap
// is what the frame cost (script, canvas raster, commit), not the display's tick.
// Mode 'page, open window': zooms to a window of about 1 M calls (the regions
// table counts them) and measures Open in speedscope until speedscope painted,
// and the page's longest pause meanwhile (a 50 ms timer); then speedscope
// alone (as below) on the same window, written by the native CLI with
// --time-window.
// Modes 'page' and 'speedscope alone' are timed against the first view; the
// old speedscope-first flow is gone (speedscope opens on a click).
//
// --compressions gzip,zstd: each run written in each compression (gzip is
// scope-profiler's default; lzf, zstd and none as bench/make_run.py writes
// them), measured side by side: run 1 of every compression, then run 2, ...
//
//   node bench/browser.mjs [--calls 0,1000001,4000001] [--runs 2] [--limit-s 420] [--json FILE]
//                          [--compressions gzip,zstd]
//                          [--modes 'speedscope alone,page,page, zoom,page, zoom, unthrottled,page, open window,page, suggested narrowing']
//
// Heavy: a 20 M-call run takes several GB. Run one benchmark at a time.

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = arg('--calls', '0,1000001,4000001,20000001').split(',').map(Number);
const RUNS = Number(arg('--runs', '2'));
const LIMIT_MS = Number(arg('--limit-s', '420')) * 1000;
const JSON_OUT = arg('--json', join(repo, 'build', 'bench', 'browser.json'));
// --modes 'speedscope alone,page,page, suggested narrowing' picks some (default: all that apply).
const MODES = arg('--modes', null)?.split(/,(?! )/);
const COMPRESSIONS = arg('--compressions', 'gzip').split(',');
const root = join(repo, 'dist', 'web');
const runsDir = join(repo, 'build', 'bench-runs');

function runFile(calls, compression = 'gzip') {
  if (calls === 0) return join(repo, 'tests', 'fixtures', 'h5', 'real_run_s1.h5'); // the example
  mkdirSync(runsDir, { recursive: true });
  const path = join(runsDir, compression === 'gzip' ? `run_${calls}.h5` : `run_${calls}_${compression}.h5`);
  if (!existsSync(path)) {
    console.error(`bench: writing ${path}`);
    execFileSync(
      '/usr/bin/python3',
      [join(repo, 'bench', 'make_run.py'), path, String(Math.floor((calls - 1) / 4)), '--compression', compression],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  return path;
}

// Summed RSS (bytes) of the processes whose command line names this browser's profile folder.
function browserRss(userDataDir) {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes(userDataDir)) continue;
      const rss = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

// The JSON of a run (native CLI, cached) in a folder served with the viewer.
// timeWindow: the window Open in speedscope converted ('STARTns:ENDns'), or null.
function aloneSite(calls, path, timeWindow = null) {
  const site = join(runsDir, 'alone');
  mkdirSync(site, { recursive: true });
  const json = join(site, `run_${calls}${timeWindow ? '_window' : ''}.json`);
  if (!existsSync(json) || calls === 0 || timeWindow) {
    execFileSync(join(repo, 'build', 'native', 'scope-speedscope'), [
      path,
      '--filepath',
      json,
      '--quiet',
      ...(timeWindow ? ['--time-window', timeWindow] : []),
    ]);
  }
  rmSync(join(site, 'speedscope'), { force: true, recursive: true });
  execFileSync('cp', ['-r', join(root, 'speedscope'), join(site, 'speedscope')]);
  writeFileSync(join(site, 'index.html'), '<!DOCTYPE html><title>speedscope alone</title>\n');
  return { site, name: json.slice(site.length + 1) };
}

const s = (ms) => (ms == null ? '—' : `${(ms / 1000).toFixed(1)} s`);
const gb = (b) => `${(b / 1e9).toFixed(1)} GB`;

async function measure(calls, path, mode, timeWindow = null) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'scope-speedscope-bench-'));
  const alone = mode.startsWith('speedscope alone') ? aloneSite(calls, path, timeWindow) : null;
  const server = await startServer({ root: alone ? alone.site : root, port: 0 });
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1600, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(mode === 'page, zoom, unthrottled' ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : []),
    ],
  });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, browserRss(userDataDir));
  }, 500);
  const result = {
    calls,
    mode,
    json: null,
    timeline: null,
    converted: null,
    download: null,
    painted: null,
    viewer: null,
    waiting: null,
    pageAlive: null,
    note: '',
  };
  try {
    const page = await context.newPage();
    // A crashed viewer frame makes playwright call the page crashed; ask the page through the protocol.
    const cdp = await context.newCDPSession(page);
    const ask = async (expression) =>
      (await cdp.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })).result.value;
    const until = async (expression, limit = LIMIT_MS) => {
      const end = Date.now() + limit;
      for (;;) {
        const v = await ask(expression);
        if (v) return v;
        if (Date.now() > end) return null;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    if (alone) {
      const t0 = Date.now();
      await page.goto(`${server.url}speedscope/index.html#profileURL=${encodeURIComponent(server.url + alone.name)}`);
      result.viewer =
        (await until(`document.title !== 'speedscope' && [...document.querySelectorAll('canvas')].some((c) => {
        const x = c.getContext('2d');
        if (!x || !c.width || !c.height) return false;
        const d = x.getImageData(0, 0, c.width, c.height).data;
        for (let i = 3; i < d.length; i += 4) if (d[i]) return true;
        return false;
      }) && 'painted'`)) ?? 'timeout';
      if (result.viewer === 'painted') result.painted = Date.now() - t0;
      result.json = `${(statSync(join(alone.site, alone.name)).size / 1e6).toFixed(0)} MB`;
      return result;
    }
    await page.goto(server.url);
    await until('/running in your browser/.test(document.getElementById("version-line").textContent)', 60_000);
    const narrowing = await ask('document.body.dataset.narrowing === "true"');
    const t0 = Date.now();
    await page.setInputFiles('[data-testid=file-input]', path);
    const chart = await until(
      `['painted', 'failed'].includes(document.body.dataset.chart) && document.body.dataset.chart`,
    );
    if (chart === 'painted') result.timeline = Date.now() - t0;
    if (mode.startsWith('page, zoom')) {
      Object.assign(result, await ask(ZOOM_SCRIPT));
      result.pageAlive = (await ask('1 + 1')) === 2;
      return result;
    }
    if (mode === 'page, open window') {
      Object.assign(result, await ask(OPEN_WINDOW_SCRIPT));
      const opened = Date.now();
      result.viewer =
        (await until(`['painted', 'failed'].includes(document.body.dataset.viewer) && document.body.dataset.viewer`)) ??
        'timeout';
      if (result.viewer === 'painted') result.painted = Date.now() - opened;
      result.timeWindow = await ask('document.getElementById("viewer-title").dataset.timeWindow ?? null');
      result.longestPause = await ask(
        '(() => { clearInterval(window.benchTimer); const t = window.benchTicks; let m = 0; for (let i = 1; i < t.length; i++) m = Math.max(m, t[i] - t[i - 1]); return Math.round(m); })()',
      );
      result.pageAlive = (await ask('1 + 1')) === 2;
      return result;
    }
    const phase = await until(`['done', 'failed', 'waiting'].includes(document.body.dataset.phase) &&
      document.body.dataset.phase`);
    if (phase === 'waiting') {
      result.waiting = Date.now() - t0;
      if (mode === 'page, suggested narrowing') {
        if (!narrowing) {
          result.note = 'no narrowing in this build';
          return result;
        }
        // The suggestion comes from the core's overview of the run (it reads the file once more).
        if (!(await until('!document.getElementById("budget-apply").hidden'))) {
          result.note = 'no suggestion';
          return result;
        }
        result.suggested = Date.now() - t0;
        result.note = await ask('document.getElementById("budget-suggestion").innerText');
        await ask('document.getElementById("budget-apply").click()');
      } else {
        // The timeline is the view; the complete download waits for a click
        // (Convert everything), as before: not part of the first view.
        result.pageAlive = (await ask('1 + 1')) === 2;
        return result;
      }
      await until(`['done', 'failed'].includes(document.body.dataset.phase)`);
    }
    if ((await ask('document.body.dataset.phase')) !== 'done') {
      result.note = await ask('document.querySelector("[data-testid=error]").innerText');
      return result;
    }
    result.converted = Date.now() - t0;
    result.json = await ask(
      '(() => { const m = /\\(([^)]+)\\)/.exec(document.getElementById("download").innerText); return m && m[1]; })()',
    );
    // Download while the viewer imports: click, wait for the complete file.
    const downloadStarted = Date.now();
    const downloading = page.waitForEvent('download', { timeout: LIMIT_MS }).catch(() => null);
    await ask('document.getElementById("download").click()');
    const download = await downloading;
    if (download) {
      const file = await download.path();
      result.download = result.converted + (Date.now() - downloadStarted);
      result.downloadBytes = statSync(file).size;
      await download.delete();
    }
    result.pageAlive =
      (await ask('1 + 1')) === 2 && /^blob:/.test(await ask('document.getElementById("download").href'));
    return result;
  } catch (err) {
    result.note = `error: ${err.message.split('\n')[0]}`;
    return result;
  } finally {
    clearInterval(sampler);
    result.memory = peak;
    await context.close().catch(() => {});
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

// In the page: a wheel step a frame on the chart, zooming around its middle
// from the whole run to a window of about 1 µs and back out, then panning;
// the gaps between animation frames.
const ZOOM_SCRIPT = `(async () => {
  const chart = document.querySelector('[data-testid=timeline]');
  const r = chart.getBoundingClientRect();
  const span = () => Number(chart.dataset.viewEnd) - Number(chart.dataset.viewStart);
  const frame = () => new Promise((ok) => requestAnimationFrame(ok));
  const wheel = (dx, dy) => chart.dispatchEvent(new WheelEvent('wheel', { deltaX: dx, deltaY: dy, clientX: r.left + r.width / 2,
    clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));
  const times = [];
  let last = await frame();
  const step = async (dx, dy) => { wheel(dx, dy); const t = await frame(); times.push(t - last); last = t; };
  const whole = span();
  let steps = 0;
  while (span() > 1000 && steps++ < 400) await step(0, -100);
  const deepest = span();
  while (span() < whole * 0.999 && steps++ < 800) await step(0, 100);
  for (let i = 0; i < 60; i++) await step(0, -100);
  for (let i = 0; i < 120; i++) await step(40, 0);
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { frames: times.length, medianFrame: q(0.5), p99Frame: q(0.99), worstFrame: sorted.at(-1), deepestSpanNs: deepest };
})()`;

// In the page: zoom in ('+' on the chart) until the regions table counts
// about 1 M calls in view or fewer, then click Open in speedscope; a 50 ms
// timer records the page's pauses meanwhile.
const OPEN_WINDOW_SCRIPT = `(async () => {
  const chart = document.querySelector('[data-testid=timeline]');
  const table = document.querySelector('[data-testid=regions-table]');
  const callsInView = () => Number((document.querySelector('[data-testid=regions-caption]').textContent.match(/: ([\\d,]+) calls?$/) ?? [0, '0'])[1].replaceAll(',', ''));
  const settled = async () => { const w = table.dataset.windowEnd; for (let i = 0; i < 100; i++) { await new Promise((ok) => setTimeout(ok, 50)); if (table.dataset.windowEnd !== w) break; } await new Promise((ok) => setTimeout(ok, 300)); };
  await settled();
  for (let i = 0; i < 40 && callsInView() > 1100000; i++) {
    chart.dispatchEvent(new KeyboardEvent('keydown', { key: '+', bubbles: true, cancelable: true }));
    await settled();
  }
  window.benchTicks = [];
  window.benchTimer = setInterval(() => window.benchTicks.push(performance.now()), 50);
  document.querySelector('[data-testid=open-in-speedscope]').click();
  return { windowCalls: callsInView() };
})()`;

if (!existsSync(join(root, 'index.html'))) {
  console.error('bench: dist/web is missing: run npm run build first');
  process.exit(1);
}
const results = [];
for (const calls of SIZES) {
  const compressions = calls === 0 ? ['gzip'] : COMPRESSIONS;
  const paths = Object.fromEntries(compressions.map((c) => [c, runFile(calls, c)]));
  const modes = [
    'speedscope alone',
    'page',
    'page, zoom',
    'page, zoom, unthrottled',
    'page, open window',
    'page, suggested narrowing',
  ].filter((m) =>
    MODES
      ? MODES.includes(m)
      : m === 'page' ||
        (m === 'speedscope alone' && calls < 10_000_000) ||
        (m.startsWith('page, zoom') && calls >= 20_000_000),
  );
  for (const mode of modes) {
    for (let i = 0; i < RUNS; i++)
      for (const compression of compressions) {
        const path = paths[compression];
        const r = await measure(calls, path, mode);
        r.compression = calls === 0 ? null : compression;
        r.fileBytes = statSync(path).size;
        results.push(r);
        // The same window as a JSON of the native CLI, in speedscope alone.
        if (mode === 'page, open window' && r.timeWindow) {
          const w = await measure(calls, path, 'speedscope alone, the window', r.timeWindow);
          w.windowOf = r.timeWindow;
          results.push(w);
          console.error(
            `bench: ${calls.toLocaleString('en-US')} calls, speedscope alone on the window ${r.timeWindow}: ` +
              `painted ${s(w.painted)} (${w.viewer}), JSON ${w.json}, memory ${gb(w.memory)}`,
          );
        }
        console.error(
          `bench: ${calls ? calls.toLocaleString('en-US') : 'example'} calls` +
            `${r.compression ? ` (${r.compression}, ${(r.fileBytes / 2 ** 20).toFixed(1)} MiB)` : ''}, ${mode}, run ${i + 1}: timeline ${s(r.timeline)}, ` +
            `converted ${s(r.converted)}, download ${s(r.download)}, speedscope painted ${s(r.painted)} (${r.viewer}), ` +
            `memory ${gb(r.memory)}, page alive ${r.pageAlive}` +
            `${r.frames ? `; ${r.frames} frames, median ${r.medianFrame.toFixed(1)} ms, p99 ${r.p99Frame.toFixed(1)} ms, worst ${r.worstFrame.toFixed(1)} ms, deepest ${r.deepestSpanNs.toFixed(0)} ns` : ''}` +
            `${r.windowCalls ? `; window ${r.windowCalls} calls, longest pause ${r.longestPause} ms` : ''}` +
            `${r.note ? `; ${r.note}` : ''}`,
        );
        if (mode === 'page, suggested narrowing' && r.note === 'no narrowing in this build') break;
      }
  }
}

mkdirSync(join(JSON_OUT, '..'), { recursive: true });
writeFileSync(
  JSON_OUT,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      cpus: cpus().length,
      memory: totalmem(),
      chromium: execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
      results,
    },
    null,
    1,
  ),
);
console.log('| run | how | first chart painted | converted | download complete | browser memory (peak) | notes |');
console.log('|---|---|---:|---:|---:|---:|---|');
for (const r of results) {
  if (r.note === 'no narrowing in this build') continue;
  const first = r.mode.startsWith('speedscope alone')
    ? r.viewer === 'painted'
      ? s(r.painted)
      : r.viewer
    : s(r.timeline);
  const notes = [
    r.mode.startsWith('speedscope alone') ? `JSON ${r.json}` : null,
    r.windowOf ? `the window ${r.windowOf} (--time-window) of the run before` : null,
    r.waiting != null ? 'download waits for a click (over the budget)' : null,
    r.frames
      ? `${r.frames} frames: median ${r.medianFrame.toFixed(1)} ms, p99 ${r.p99Frame.toFixed(1)} ms, worst ${r.worstFrame.toFixed(0)} ms`
      : null,
    r.windowCalls
      ? `window of ${r.windowCalls.toLocaleString('en-US')} calls: speedscope painted ${s(r.painted)} after the click, longest pause of the page ${r.longestPause} ms`
      : null,
    !r.mode.startsWith('speedscope alone') && !r.pageAlive ? 'PAGE LOST' : null,
    r.note || null,
  ]
    .filter(Boolean)
    .join('; ');
  const run = r.calls
    ? `${(r.calls / 1e6).toFixed(0)} M calls` +
      (COMPRESSIONS.length > 1 || r.compression !== 'gzip'
        ? `, ${r.compression} (${(r.fileBytes / 2 ** 20).toFixed(1)} MiB)`
        : '')
    : 'the example';
  console.log(
    `| ${run} | ${r.mode} | ${first} | ` + `${s(r.converted)} | ${s(r.download)} | ${gb(r.memory)} | ${notes} |`,
  );
}
