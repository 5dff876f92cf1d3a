#!/usr/bin/env node
// How long the engine's answers wait while the page prepares its first
// download (issue 33: answered between slices of long work). The page picks
// FILE (rank 0 of a job: its download first reads the other ranks to check
// them), and once rank 0 is painted, while the download is being prepared,
// zooms in and out of the timeline (the + and - keys, every 250 ms); every
// request the page sends its engine worker is timed from its postMessage
// to the worker's reply, and the timeline-bars requests sent while the
// download was being prepared are reported. With --slice N the page checks
// N calls a slice (?check-calls=N; 1,000,000 is the page's own, and 1e12
// reads every unchecked rank in one request, as the export did before
// timeline-check). Prints one JSON object.
//   node bench/query-while-checking.mjs FILE [--slice 1000000]
import { performance } from 'node:perf_hooks';

import { converterReady, startBrowser } from '../tests/web/harness.mjs';
import { benchArgs } from './args.mjs';
import { timeEngineRequests } from './engine-requests.mjs';

const { file, opt } = benchArgs('node bench/query-while-checking.mjs FILE [--slice 1000000]');
const slice = opt('--slice', '1000000');

const browser = await startBrowser();
try {
  const page = await browser.context.newPage();
  await page.addInitScript(timeEngineRequests);
  await page.goto(`${browser.server.url}?check-calls=${slice}`);
  await converterReady(page);
  const picked = performance.now();
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.waitForFunction(() => document.body.dataset.chart === 'painted', null, { timeout: 300_000 });
  const painted = (performance.now() - picked) / 1000;
  await page.getByTestId('timeline').focus();
  for (let i = 0; i < 400; ++i) {
    if (!(await page.evaluate(() => document.body.dataset.phase === 'converting'))) break;
    await page.keyboard.press(i % 8 < 4 ? '+' : '-');
    await page.waitForTimeout(250);
  }
  await page.waitForFunction(() => ['done', 'waiting'].includes(document.body.dataset.phase), null, {
    timeout: 600_000,
  });
  const settled = (performance.now() - picked) / 1000;
  const timed = await page.evaluate(() => window.benchRequests);
  const bars = timed.filter((t) => t.type === 'timeline-bars' && t.phase === 'converting').map((t) => t.ms);
  const sorted = [...bars].sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN);
  console.log(
    JSON.stringify({
      file,
      slice: Number(slice),
      paintedS: Number(painted.toFixed(1)),
      settledS: Number(settled.toFixed(1)),
      barsWhilePreparing: bars.length,
      medianMs: at(0.5),
      p90Ms: at(0.9),
      worstMs: Math.round(sorted.at(-1) ?? NaN),
      checks: timed.filter((t) => t.type === 'timeline-check').length,
    }),
  );
} finally {
  await browser.close();
}
