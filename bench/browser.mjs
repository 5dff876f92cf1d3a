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
//                 (and, in the notes and the JSON's memoryPss, of their summed PSS)
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
// Mode 'page, all ranks' (the default with --job): once the page has settled
// on the file (rank 0 drawn and converted), it picks All ranks in the options
// and measures the time from that pick until the timeline is painted again
// with every rank (the page's own marks: the click to its
// scope-speedscope:timeline-painted), the browser's peak memory until then,
// when the page settled after it (the estimate, the suggestion); then the
// scripted zoom and pan of 'page, zoom' (the ranks collapsed, the default
// above 8), then Open in speedscope of a window of about 1 M calls as in
// 'page, open window' (written from the timeline's columns: the title's
// data-written-from says so) until speedscope painted. 'page, all ranks,
// unthrottled': the same with the frame-rate limit and vsync off.
// Mode 'page, link to all ranks': the page loaded with a link to every
// rank of the file (as Copy link writes it), then the file chosen, until
// every rank is painted (a fresh open of every rank, in groups).
// Mode 'page, cold': a fresh browser, the file chosen as soon as the page
// has loaded (its workers started by the page as usual, nothing read yet),
// until the timeline is painted; the page's performance marks, and when each
// worker answered its first message, say where the time went. 'page, cold,
// later visit': the same in a browser that opened the page once before (its
// HTTP cache, service worker and compiled-code caches warm), in a new tab.
//
// --job FILE: measure that file instead of the generated runs (e.g. the
// 64-rank job, /tmp/job.h5, from tests/fixtures/gen/make_ranks.py bench, in
// 'page, all ranks'; or a small fixture in 'page, cold').
//
// --compressions gzip,zstd: each run written in each compression (gzip is
// scope-profiler's default; lzf, zstd and none as bench/make_run.py writes
// them), measured side by side: run 1 of every compression, then run 2, ...
//
//   node bench/browser.mjs [--calls 0,1000001,4000001] [--runs 2] [--limit-s 420] [--json FILE]
//                          [--compressions gzip,zstd] [--job FILE] [--root DIR]
//                          [--modes 'speedscope alone,page,page, zoom,page, zoom, unthrottled,page, open window,page, suggested narrowing']
//
// Environment: BENCH_MEMLOG=1 prints the memory of each process as it is
// sampled; BENCH_REQUESTS=1, in 'page, all ranks', the requests the page
// sent its engine worker after the pick, each with when it was sent and how
// long its answer took; BENCH_WORKER_PROFILE=FILE, in the same mode, the
// engine worker's CPU profile from the pick until All ranks is painted.
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
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';
import { timeEngineRequests } from './engine-requests.mjs';
import { benchArgs } from './args.mjs';
import { ZOOM_SCRIPT } from './zoom-frames.mjs';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));
const { args, opt: arg } = benchArgs(null);
const SIZES = arg('--calls', '0,1000001,4000001,20000001').split(',').map(Number);
const RUNS = Number(arg('--runs', '2'));
const LIMIT_MS = Number(arg('--limit-s', '420')) * 1000;
const JSON_OUT = arg('--json', join(repo, 'build', 'bench', 'browser.json'));
// --modes 'speedscope alone,page,page, suggested narrowing' picks some (default: all that apply).
const MODES = arg('--modes', null)?.split(/,(?! )/);
const COMPRESSIONS = arg('--compressions', 'gzip').split(',');
const JOB = arg('--job', null) && resolve(arg('--job', null));
// --root DIR: another build of the site (node scripts/build-web.mjs --out DIR), e.g. to compare two.
const root = resolve(arg('--root', join(repo, 'dist', 'web')));
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

// Summed RSS and PSS (bytes) of the processes whose command line names this
// browser's profile folder. RSS counts a page shared by several processes
// (Chromium's code, shared memory) once in each; PSS shares it out, so the
// summed PSS is what the processes hold together. `by` gets each process's
// RSS under its type (browser, renderer, gpu-process, utility: …).
function browserMemory(userDataDir, by = null) {
  let rss = 0;
  let pss = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes(userDataDir)) continue;
      const own = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
      if (!own) continue;
      rss += Number(own[1]) * 1024;
      pss += Number(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m)?.[1] ?? 0) * 1024;
      if (by) {
        const type = cmd.match(/--type=([\w-]+)/)?.[1] ?? 'browser';
        const sub = cmd.match(/--utility-sub-type=([\w.]+)/)?.[1];
        by.push(`${sub ? `${type}:${sub.split('.').at(-1)}` : type} ${(Number(own[1]) / 1e6).toFixed(2)} GB`);
      }
    } catch {
      // gone meanwhile
    }
  }
  return { rss, pss };
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
      ...(mode.endsWith(', unthrottled') ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : []),
    ],
  });
  let peak = 0;
  const mem = { since: 0 }; // the peak since a step of a mode reset it
  const load = { start: loadavg()[0], max: loadavg()[0] }; // the machine's 1-minute load average
  const sampler = setInterval(() => {
    const by = [];
    const { rss, pss } = browserMemory(userDataDir, by);
    if (rss > peak) result.peakBy = by.sort().join(', ');
    if (process.env.BENCH_MEMLOG) console.error(`bench: memory ${gb(rss)} (PSS ${gb(pss)}): ${by.sort().join(', ')}`);
    peak = Math.max(peak, rss);
    result.memoryPss = Math.max(result.memoryPss, pss);
    mem.since = Math.max(mem.since, rss);
    load.max = Math.max(load.max, loadavg()[0]);
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
    memoryPss: 0,
    note: '',
  };
  try {
    // The browser's own tab, as a person has one (a second would count a blank tab's renderer).
    const page = context.pages()[0] ?? (await context.newPage());
    if (process.env.BENCH_DEBUG) {
      for (const e of ['crash', 'close']) page.on(e, () => console.error(`bench: the page: ${e}`));
      page.on('framedetached', (f) => console.error(`bench: a frame detached: ${f.url().slice(0, 80)}`));
    }
    // BENCH_REQUESTS=1: every request the page sends its engine worker timed
    // (from its postMessage to the answer), those of All ranks printed.
    if (process.env.BENCH_REQUESTS) await page.addInitScript(timeEngineRequests);
    // A crashed viewer frame makes playwright call the page crashed; ask the page through the protocol.
    const cdp = await context.newCDPSession(page);
    if (process.env.BENCH_WORKER_PROFILE) await watchWorkers(cdp);
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
    if (mode === 'page, link to all ranks') {
      Object.assign(result, await linkToAllRanks(page, server.url, path, ask, until));
      result.memoryAtPainted = mem.since;
      result.pageAlive = (await ask('1 + 1')) === 2;
      return result;
    }
    if (mode.startsWith('page, cold')) await page.addInitScript(WORKER_TIMES_SCRIPT);
    if (mode === 'page, cold, later visit') await firstVisit(context, server.url);
    await page.goto(server.url);
    if (mode.startsWith('page, cold')) {
      Object.assign(result, await coldPick(page, path, ask, until));
      result.pageAlive = (await ask('1 + 1')) === 2;
      return result;
    }
    await until('/running in your browser/.test(document.getElementById("version-line").textContent)', 60_000);
    const narrowing = await ask('document.body.dataset.narrowing === "true"');
    const t0 = Date.now();
    await page.setInputFiles('[data-testid=file-input]', path);
    const chart = await until(
      `['painted', 'failed'].includes(document.body.dataset.chart) && document.body.dataset.chart`,
    );
    if (chart === 'painted') result.timeline = Date.now() - t0;
    if (mode.startsWith('page, all ranks')) {
      Object.assign(result, await allRanks(page, ask, until, mem, t0));
      result.pageAlive = (await ask('1 + 1')) === 2;
      return result;
    }
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
    if (process.env.BENCH_DEBUG) console.error(err);
    return result;
  } finally {
    clearInterval(sampler);
    result.memory = peak;
    result.load = { ...load, end: loadavg()[0] };
    await context.close().catch(() => {});
    await server.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

// BENCH_CPU_PROFILE=FILE: the page's main thread profiled (Chrome DevTools
// Protocol, 100 µs samples) while the zoom and pan run, written to FILE
// (a .cpuprofile for DevTools or any reader of that format).
async function startProfile(page) {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return { stop: async () => {} };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
    },
  };
}

// The page's own times (ms from its navigation start): its marks, the load
// event, and when each worker it started answered its first message.
const PAGE_TIMES_SCRIPT = `(() => {
  const marks = {};
  for (const m of performance.getEntriesByType('mark')) marks[m.name.replace('scope-speedscope:', '')] = Math.round(m.startTime);
  const nav = performance.getEntriesByType('navigation')[0];
  const wasm = performance.getEntriesByType('resource').filter((r) => /\\.wasm$/.test(r.name))
    .map((r) => [Math.round(r.startTime), Math.round(r.responseEnd)]);
  return { marks, loaded: Math.round(nav.loadEventEnd), workers: window.benchWorkers ?? [], wasmFetches: wasm };
})()`;

// Before the page's scripts: each Worker it starts records when it was
// made and when it first answered (its 'init' reply: the module loaded).
const WORKER_TIMES_SCRIPT = `(() => {
  if (window !== window.top) return;
  const Base = window.Worker;
  window.benchWorkers = [];
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      const w = { made: Math.round(performance.now()), answered: null };
      window.benchWorkers.push(w);
      this.addEventListener('message', () => { w.answered ??= Math.round(performance.now()); });
    }
  };
})()`;

// A visit before the measured one ('page, cold, later visit'): the page
// loaded, its service worker in control (it caches the site), then closed.
async function firstVisit(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent));
  await page
    .waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 })
    .catch(() => {});
  await page.waitForTimeout(2000);
  await page.close();
}

// Mode 'page, link to all ranks': the page loaded with a link to every
// rank of the file (its address's fragment, as Copy link writes it, made
// by a visit in a browser of its own), then the file chosen: timeline is
// until every rank is painted.
async function linkToAllRanks(page, url, path, ask, until) {
  const hash = await allRanksFragment(url, path);
  await page.goto(`${url}${hash}`);
  await until('/running in your browser/.test(document.getElementById("version-line").textContent)', 60_000);
  const t0 = Date.now();
  await page.setInputFiles('[data-testid=file-input]', path);
  const chart = await until(
    `['painted', 'failed'].includes(document.body.dataset.chart) && document.body.dataset.chart`,
  );
  const out = { link: hash };
  if (chart === 'painted') out.timeline = Date.now() - t0;
  out.rankBands = await ask('document.querySelectorAll("[data-testid=rank-band]").length');
  out.note = `a link to all ranks: ${out.rankBands} rank bands painted`;
  if (process.env.BENCH_REQUESTS) {
    const asked = await ask(
      'JSON.stringify(window.benchRequests.map((r) => [r.type, Math.round(r.at), Math.round(r.ms)]))',
    );
    console.error(`bench: the engine's requests [type, sent at ms, answered in ms]: ${asked}`);
  }
  return out;
}

// The fragment of a link to every rank of the file at `path`: its name,
// size and run origin, as the page writes them once it showed the file.
const fragments = new Map();
async function allRanksFragment(url, path) {
  if (fragments.has(path)) return fragments.get(path);
  const userDataDir = mkdtempSync(join(tmpdir(), 'scope-speedscope-bench-link-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.setInputFiles('[data-testid=file-input]', path);
    await page.waitForFunction(() => /[#&]origin=/.test(window.location.hash), null, { timeout: LIMIT_MS });
    const fields = new URLSearchParams((await page.evaluate(() => window.location.hash)).slice(1));
    const link = new URLSearchParams();
    for (const key of ['v', 'file', 'size', 'origin', 'files', 't'])
      if (fields.has(key)) link.set(key, fields.get(key));
    link.set('ranks', 'all');
    fragments.set(path, `#${link}`);
    return fragments.get(path);
  } finally {
    await context.close();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

// Mode 'page, cold': the file chosen as soon as the page has loaded.
async function coldPick(page, path, ask, until) {
  await page.setInputFiles('[data-testid=file-input]', path);
  const chart = await until(
    `['painted', 'failed'].includes(document.body.dataset.chart) && document.body.dataset.chart`,
  );
  const times = await ask(PAGE_TIMES_SCRIPT);
  const { chosen, 'timeline-painted': painted } = times.marks;
  return { timeline: chart === 'painted' ? painted - chosen : null, ...times };
}

// BENCH_WORKER_PROFILE=FILE: the engine worker profiled (Chrome DevTools
// .cpuprofile) from the All ranks pick until the timeline is painted. The
// page's workers are attached as they start (the engine worker is the
// first); their protocol goes through the page's session.
let engineWorker = null;
let workerCdp = null;
const workerReplies = new Map();
let workerAsked = 0;
async function watchWorkers(cdp) {
  workerCdp = cdp;
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
    if (targetInfo.type === 'worker' && engineWorker === null) engineWorker = sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', ({ message }) => {
    const m = JSON.parse(message);
    workerReplies.get(m.id)?.(m.result ?? {});
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
}
async function workerProfiler(method) {
  const call = async (name, params = {}) => {
    const id = ++workerAsked;
    const reply = new Promise((resolve) => workerReplies.set(id, resolve));
    await workerCdp.send('Target.sendMessageToTarget', {
      sessionId: engineWorker,
      message: JSON.stringify({ id, method: name, params }),
    });
    return reply;
  };
  if (method === 'Profiler.start') {
    await call('Profiler.enable');
    await call('Profiler.setSamplingInterval', { interval: 1000 });
  }
  return call(method);
}

// Mode 'page, all ranks': once the page settled on the file, All ranks.
// t0: when the file was chosen (Date.now()).
async function allRanks(page, ask, until, mem, t0) {
  const out = { trace: [] };
  const settled = `['done', 'failed', 'waiting'].includes(document.body.dataset.phase) && document.body.dataset.phase`;
  // What the status line said when, while the page works (seconds from the file's choice).
  let said = null;
  const tracer = setInterval(async () => {
    const now = await ask('document.getElementById("status").textContent').catch(() => null);
    if (now === said || now === null) return;
    said = now;
    out.trace.push([Math.round((Date.now() - t0) / 100) / 10, now.replace(/: \d+%$/, ': …%'), loadavg()[0]]);
  }, 1000);
  try {
    Object.assign(out, await allRanksSteps(page, ask, until, mem, settled));
  } finally {
    clearInterval(tracer);
  }
  out.trace = out.trace.filter((e, i, all) => i === 0 || e[1] !== all[i - 1][1]);
  return out;
}

async function allRanksSteps(page, ask, until, mem, settled) {
  const out = {};
  out.firstPhase = await until(settled);
  out.firstSettled = await ask(
    'performance.now() - performance.getEntriesByName("scope-speedscope:chosen")[0].startTime',
  );
  const ranks = await ask('document.querySelectorAll("#ranks input[name=rank]").length');
  await page.getByTestId('options-toggle').click();
  await page.waitForTimeout(500);
  mem.since = 0;
  if (process.env.BENCH_WORKER_PROFILE) await workerProfiler('Profiler.start');
  await ask(`(() => {
    window.benchPick = performance.now();
    document.querySelector('[data-testid=rank-all]').click();
    return true;
  })()`);
  const mark = (name) =>
    `(performance.getEntriesByName('scope-speedscope:${name}').at(-1)?.startTime ?? 0) > window.benchPick`;
  const chart = await until(
    `(${mark('timeline-painted')} && 'painted') || (document.body.dataset.chart === 'failed' && 'failed')`,
  );
  if (process.env.BENCH_WORKER_PROFILE) {
    const { profile } = await workerProfiler('Profiler.stop');
    writeFileSync(process.env.BENCH_WORKER_PROFILE, JSON.stringify(profile));
    console.error(`bench: the engine worker's profile from the pick to the paint: ${process.env.BENCH_WORKER_PROFILE}`);
  }
  out.allRanksPainted =
    chart === 'painted'
      ? await ask(
          `performance.getEntriesByName('scope-speedscope:timeline-painted').at(-1).startTime - window.benchPick`,
        )
      : null;
  out.memoryAtPainted = mem.since;
  if (process.env.BENCH_REQUESTS) {
    const asked = await ask(
      'JSON.stringify(window.benchRequests.filter((r) => r.at > window.benchPick).map((r) => [r.type, Math.round(r.at - window.benchPick), Math.round(r.ms)]))',
    );
    console.error(`bench: the engine's requests after the pick [type, sent at ms, answered in ms]: ${asked}`);
  }
  // Of which the options' wait for more ticks (a debounce) before the timeline starts opening.
  out.allRanksStarted = await ask(
    `performance.getEntriesByName('scope-speedscope:timeline-start').at(-1).startTime - window.benchPick`,
  );
  out.rankBands = await ask('document.querySelectorAll("[data-testid=rank-band]").length');
  out.ranks = ranks;
  // The page settles: the estimate (over the budget), and the core's suggestion.
  out.phase = await until(
    `document.body.dataset.phase !== 'drawing' && document.body.dataset.phase !== 'preparing' && (${settled})`,
  );
  await until('!document.getElementById("budget-apply").hidden || document.body.dataset.phase !== "waiting"', 120_000);
  out.settledAfterPick = await ask('performance.now() - window.benchPick');
  await page.getByTestId('options-toggle').click();
  await page.waitForTimeout(500);
  const profile = await startProfile(page);
  Object.assign(out, await ask(ZOOM_SCRIPT));
  await profile.stop();
  // The whole run again ('0'), then zoomed in to about 1 M calls and opened in speedscope.
  await ask(
    `document.querySelector('[data-testid=timeline]').dispatchEvent(new KeyboardEvent('keydown', { key: '0', bubbles: true, cancelable: true }))`,
  );
  await page.waitForTimeout(1000);
  Object.assign(out, await ask(HEATMAP_SCRIPT));
  Object.assign(out, await ask(OPEN_WINDOW_SCRIPT));
  const opened = Date.now();
  // The window's document handed to speedscope (the title gets its window then), then painted.
  // (The whole run, when it fits, opens the download's document: no window.)
  const handed = await until(
    `(!!document.getElementById('viewer-title').dataset.timeWindow && 'window') || ['painted', 'failed'].includes(document.body.dataset.viewer)`,
  );
  if (handed === 'window') out.handedOver = Date.now() - opened;
  out.viewer =
    (await until(`['painted', 'failed'].includes(document.body.dataset.viewer) && document.body.dataset.viewer`)) ??
    'timeout';
  if (out.viewer === 'painted') out.painted = Date.now() - opened;
  out.timeWindow = await ask('document.getElementById("viewer-title").dataset.timeWindow ?? null');
  out.writtenFrom = await ask('document.getElementById("viewer-title").dataset.writtenFrom ?? null');
  out.longestPause = await ask(
    '(() => { clearInterval(window.benchTimer); const t = window.benchTicks; let m = 0; for (let i = 1; i < t.length; i++) m = Math.max(m, t[i] - t[i - 1]); return Math.round(m); })()',
  );
  return out;
}

// In the page, the whole run in view: the Ranks panel's row of the region
// with the most steps (`step`: the job's fewest calls) chosen, until its
// heatmap is painted (the worker's alignedCalls over the whole run, its
// grid, the canvas, a frame); three times, the row pressed off between
// (the first into fresh memory, then into the last answer's).
const HEATMAP_SCRIPT = `(async () => {
  const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const row = [...document.querySelectorAll('#tl-imbalance tr')].find((tr) => tr.cells[0]?.textContent.trim() === 'step');
  if (!row) return { heatmap: null };
  const box = document.getElementById('tl-heatmap-box');
  const canvas = document.querySelector('[data-testid=rank-heatmap]');
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    row.click();
    while (box.hidden || !canvas.dataset.rows) await new Promise((ok) => setTimeout(ok, 5));
    await frame();
    times.push(Math.round(performance.now() - t0));
    row.click(); // off again
    await new Promise((ok) => setTimeout(ok, 300));
  }
  return { heatmap: times, heatmapColumns: Number(canvas.dataset.cols) };
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
  const open = document.querySelector('[data-testid=open-in-speedscope]');
  open.focus(); // as a click by a person: the focus leaves whatever had it (the options' button)
  open.click();
  return { windowCalls: callsInView() };
})()`;

if (!existsSync(join(root, 'index.html'))) {
  console.error('bench: dist/web is missing: run npm run build first');
  process.exit(1);
}
const runLabel = (r) => r.file ?? (r.calls > 0 ? `${(r.calls / 1e6).toFixed(0)} M calls` : 'the example');
const allRanksNote = (r) =>
  r.allRanksPainted === undefined
    ? null
    : `All ranks (${r.ranks} ranks, ${r.rankBands} bands): painted ${s(r.allRanksPainted)} after the pick ` +
      `(opening started at ${s(r.allRanksStarted)}), ` +
      `browser memory ${gb(r.memoryAtPainted)} by then; settled (${r.phase}) ${s(r.settledAfterPick)} after it; ` +
      `the Ranks panel's heatmap of step over the whole run painted ${JSON.stringify(r.heatmap)} ms after the row's click`;
const coldNote = (r) =>
  `painted ${r.timeline} ms after the choice; page loaded at ${r.loaded} ms; marks ${JSON.stringify(r.marks)}; ` +
  `workers (made, answered) ${JSON.stringify(r.workers)}; wasm fetched ${JSON.stringify(r.wasmFetches)}`;

const results = [];
for (const calls of JOB ? [-1] : SIZES) {
  const compressions = calls <= 0 ? ['gzip'] : COMPRESSIONS;
  const paths = Object.fromEntries(compressions.map((c) => [c, JOB ?? runFile(calls, c)]));
  const modes = [
    'speedscope alone',
    'page',
    'page, zoom',
    'page, zoom, unthrottled',
    'page, open window',
    'page, suggested narrowing',
    'page, all ranks',
    'page, all ranks, unthrottled',
    'page, link to all ranks',
    'page, cold',
    'page, cold, later visit',
  ].filter((m) =>
    MODES
      ? MODES.includes(m)
      : JOB
        ? m === 'page, all ranks'
        : m === 'page' ||
          (m === 'speedscope alone' && calls < 10_000_000) ||
          (m.startsWith('page, zoom') && calls >= 20_000_000),
  );
  for (const mode of modes) {
    for (let i = 0; i < RUNS; i++)
      for (const compression of compressions) {
        const path = paths[compression];
        const r = await measure(calls, path, mode);
        r.compression = calls <= 0 ? null : compression;
        if (JOB) r.file = basename(JOB);
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
          `bench: ${runLabel(r)}` +
            `${r.compression ? ` (${r.compression}, ${(r.fileBytes / 2 ** 20).toFixed(1)} MiB)` : ''}, ${mode}, run ${i + 1}: timeline ${s(r.timeline)}, ` +
            `converted ${s(r.converted)}, download ${s(r.download)}, speedscope painted ${s(r.painted)} (${r.viewer}), ` +
            `memory ${gb(r.memory)}, page alive ${r.pageAlive}` +
            `${r.frames ? `; ${r.frames} frames, median ${r.medianFrame.toFixed(1)} ms, p99 ${r.p99Frame.toFixed(1)} ms, worst ${r.worstFrame.toFixed(1)} ms, deepest ${r.deepestSpanNs.toFixed(0)} ns` : ''}` +
            `${r.windowCalls ? `; window ${r.windowCalls} calls, longest pause ${r.longestPause} ms` : ''}` +
            `${r.handedOver != null ? `, handed to speedscope ${s(r.handedOver)} after the click` : ''}` +
            `${r.writtenFrom ? ` (written from the ${r.writtenFrom})` : ''}` +
            `${allRanksNote(r) ? `; ${allRanksNote(r)}` : ''}` +
            `${r.marks ? `; cold: ${coldNote(r)}` : ''}` +
            `${r.note ? `; ${r.note}` : ''}`,
        );
        console.error(
          `bench: the machine's load average (1 min): ${r.load.start.toFixed(2)} at the start, ` +
            `${r.load.max.toFixed(2)} at most, ${r.load.end.toFixed(2)} at the end`,
        );
        if (r.trace)
          console.error(`bench: the status line (s from the choice, text, load): ${JSON.stringify(r.trace)}`);
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
console.log(
  '| run | how | first chart painted | converted | download complete | browser memory (peak: RSS summed, PSS summed) | notes |',
);
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
    allRanksNote(r),
    r.windowCalls
      ? `window of ${r.windowCalls.toLocaleString('en-US')} calls${r.writtenFrom ? ` (written from the ${r.writtenFrom})` : ''}: ` +
        `${r.handedOver != null ? `handed to speedscope ${s(r.handedOver)} and ` : ''}speedscope painted ${s(r.painted)} after the click, longest pause of the page ${r.longestPause} ms`
      : null,
    r.marks ? coldNote(r) : null,
    !r.mode.startsWith('speedscope alone') && !r.pageAlive ? 'PAGE LOST' : null,
    r.note || null,
  ]
    .filter(Boolean)
    .join('; ');
  const run =
    r.calls > 0
      ? `${(r.calls / 1e6).toFixed(0)} M calls` +
        (COMPRESSIONS.length > 1 || r.compression !== 'gzip'
          ? `, ${r.compression} (${(r.fileBytes / 2 ** 20).toFixed(1)} MiB)`
          : '')
      : runLabel(r);
  console.log(
    `| ${run} | ${r.mode} | ${first} | ` +
      `${s(r.converted)} | ${s(r.download)} | ${gb(r.memory)} (PSS ${gb(r.memoryPss)}) | ${notes} |`,
  );
}
