// The page on `scope-speedscope serve RUN.h5` (issue 34): from the command's
// start until the page's first view (rank 0) is painted, then from ticking
// All ranks until every rank is painted; the server's peak memory (VmHWM of
// its process); then zoom steps by the keyboard timed as the page draws
// them (each step waited for: Playwright's round trips and two animation
// frames included), and the gaps between the page's frames while it zooms
// and pans a wheel step a frame (bench/zoom-frames.mjs, as bench/browser.mjs
// does in the wasm page; --unthrottled: Chromium's frame-rate limit and
// vsync off, so a gap is what the frame cost).
//
//   node bench/serve-page.mjs RUN.h5 [--cli native|node] [--steps 40] [--connect-when-open] [--unthrottled] [--web DIR]
//
// The native serve opens the run's first view and then every rank before
// any page asks (it prints "Every rank is open" then): --connect-when-open
// opens the page only after that line, as a person who started serve on a
// cluster and then opened the tunnel would; without it, at once.
//
// Prints one JSON object. Headless Chromium (/usr/bin/chromium), the page as
// `npm run build` left it in dist/web.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

import { benchArgs } from './args.mjs';
import { ZOOM_SCRIPT } from './zoom-frames.mjs';

const {
  file: run,
  opt,
  args,
} = benchArgs(
  'node bench/serve-page.mjs RUN.h5 [--cli native|node] [--steps 40] [--connect-when-open] [--unthrottled] [--web DIR]',
);
const cli = opt('--cli', 'native');
const steps = Number(opt('--steps', '40'));
const program = cli === 'native' ? ['build/native/scope-speedscope'] : ['node', 'dist/cli.js'];

const t0 = performance.now();
const since = () => Math.round(performance.now() - t0) / 1000;
const web = opt('--web', null); // another build of the page (node scripts/build-web.mjs --out DIR)
const server = spawn(program[0], [...program.slice(1), 'serve', run, '--port', '0', ...(web ? ['--web', web] : [])], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const vmHwm = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
};
let everyRankOpenS = null;
let everyRankOpen = null;
const opened = new Promise((resolve) => (everyRankOpen = resolve));
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /(http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]);
    if (everyRankOpenS === null && /Every rank is open/.test(out)) {
      everyRankOpenS = since();
      everyRankOpen();
    }
  });
  server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
});
const result = { run, cli, urlPrintedS: since() };
if (args.includes('--connect-when-open')) {
  await opened;
  result.connectedS = since();
}
const say = (what) => process.stderr.write(`serve-page: ${what} at ${since()} s\n`);
say('URL printed');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: args.includes('--unthrottled') ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : [],
});
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  const painted = () =>
    page.waitForFunction(() => ['painted', 'failed'].includes(document.body.dataset.chart), null, {
      timeout: Number(opt('--limit-s', '600')) * 1000,
    });
  let overviewRequests = 0;
  page.on('request', (r) => {
    if (/"timeline-overview(-more)?"/.test(r.postData() ?? '')) overviewRequests++;
  });
  await page.goto(url);
  await painted();
  result.firstViewPaintedS = since();
  say('first view painted');
  // All ranks: the chart leaves 'painted' while the engine opens them.
  await page.getByTestId('options-toggle').click();
  const tick = performance.now();
  await page.getByTestId('rank-all').check();
  await page.waitForFunction(() => document.body.dataset.chart !== 'painted', null, { timeout: 60_000 });
  await painted();
  result.allRanksPaintedS = Math.round(performance.now() - tick) / 1000;
  result.allRanksPaintedSinceStartS = since();
  result.everyRankOpenS = everyRankOpenS;
  say('all ranks painted');
  // The page settles: the bar's overview of every rank (asked in slices,
  // a round trip each) and, over the viewer's budget, its suggestion.
  await page.waitForFunction(
    () =>
      ['done', 'failed', 'waiting'].includes(document.body.dataset.phase) &&
      (!document.getElementById('budget-apply').hidden || document.body.dataset.phase !== 'waiting'),
    null,
    { timeout: 600_000 },
  );
  result.allRanksSettledS = Math.round(performance.now() - tick) / 1000;
  result.overviewRequests = overviewRequests;
  say('settled');
  result.serverPeakBytes = vmHwm();
  await page.getByTestId('options-toggle').click();
  // Zoom in and out by the keyboard, each step until the page drew it.
  const chart = page.getByTestId('timeline');
  await chart.focus();
  const gaps = [];
  for (let i = 0; i < steps; i++) {
    const key = i < steps / 2 ? '+' : '-';
    const before = await chart.getAttribute('data-view-end');
    const at = performance.now();
    await page.keyboard.press(key);
    await page.waitForFunction(
      ([b]) => document.querySelector('[data-testid=timeline]').dataset.viewEnd !== b,
      [before],
      { timeout: 60_000 },
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    gaps.push(performance.now() - at);
  }
  gaps.sort((a, b) => a - b);
  const q = (p) => Math.round(gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))] * 10) / 10;
  result.zoomStepMs = { median: q(0.5), p99: q(0.99), worst: q(1) };
  result.unthrottled = args.includes('--unthrottled');
  result.wheelFrames = await page.evaluate(ZOOM_SCRIPT);
} catch (error) {
  const page = browser.contexts()[0]?.pages()[0];
  if (page) {
    await page.screenshot({ path: '/tmp/serve-page-failed.png' });
    result.failedState = await page.evaluate(() => ({
      ...document.body.dataset,
      status: document.getElementById('status')?.textContent,
    }));
  }
  result.error = error.message.split('\n')[0];
} finally {
  await browser.close();
  server.kill('SIGINT');
}
process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
