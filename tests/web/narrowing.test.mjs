// Narrowing in the page: the minimum duration and the time window of the
// options panel give exactly the outputs the core's independent Python model
// expects (the generated cases with min_duration / time_window); a window
// dragged across the overview and the suggestion for a run over the viewer's
// budget give what the native CLI writes with the same settings.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertAccessible,
  assertCoreError,
  assertOutputs,
  convertWith,
  downloads,
  fixtures,
  generated,
  openOptions,
  pick,
  repo,
  settle,
  startBrowser,
  version,
  viewerSettled,
} from './harness.mjs';

const cli = join(repo, 'build', 'native', 'scope-speedscope');
const narrowCases = JSON.parse(readFileSync(join(generated, 'cases.json'), 'utf8')).filter(
  (c) => c.min_duration != null || c.time_window != null,
);
const ascending = (r) => !r || JSON.stringify([...new Set(r)].sort((a, b) => a - b)) === JSON.stringify(r);

// What the native CLI writes for `file` with `args`, with the page's exporter value.
function nativeOutput(file, args) {
  const dir = mkdtempSync(join(tmpdir(), 'scope-speedscope-narrow-'));
  try {
    execFileSync(cli, [file, '--filepath', join(dir, 'out.json'), '--quiet', ...args]);
    return readFileSync(join(dir, 'out.json'), 'utf8').replace(
      /"exporter": "[^"]*"/,
      `"exporter": "scope-speedscope@${version}"`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Records the requests the page sends its engine worker and their answers
// (window.engineWatch), and the worker itself.
async function watchEngine(page) {
  await page.evaluate(() => {
    const watch = { asked: [], answers: new Map(), worker: null };
    window.engineWatch = watch;
    const send = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (!watch.worker) {
        watch.worker = this;
        this.addEventListener('message', ({ data }) => {
          if (data?.type !== 'progress') watch.answers.set(data?.id, data);
        });
      }
      if (message?.type) watch.asked.push({ ...message });
      return send.call(this, message, ...rest);
    };
  });
}

describe('narrowing in the page', { timeout: 900_000 }, () => {
  let browser;
  let page;
  before(async () => {
    assert.ok(narrowCases.length >= 10, `narrowing cases in ${generated}`);
    assert.ok(existsSync(cli), `${cli}: run npm run build first`);
    browser = await startBrowser();
    page = await browser.openPage();
  });
  after(async () => {
    await browser?.close();
  });

  // The page offers the ranks that recorded calls, in ascending order: cases
  // with other ranks are the library's and the CLIs' to run.
  for (const c of narrowCases.filter((x) => ascending(x.ranks) && x.error?.code !== 'invalid_rank')) {
    test(`${c.name}: --min-duration ${c.min_duration ?? '-'} --time-window ${c.time_window ?? '-'}`, async () => {
      await pick(page, c.inputs, { dir: join(generated, 'h5') });
      assert.ok(await convertWith(page, c), c.name);
      if (c.error) {
        await assertCoreError(page, c, generated);
      } else {
        assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
        await assertOutputs(page, c, generated);
      }
    });
  }

  test('a time window dragged across the overview converts that window', async () => {
    const file = join(fixtures, 'h5', 'real_run_s1.h5');
    await pick(page, ['real_run_s1.h5']);
    await openOptions(page);
    const canvas = page.getByTestId('overview-canvas');
    await canvas.waitFor({ state: 'visible', timeout: 60_000 });
    await assertAccessible(page, 'options with the overview');
    const box = await canvas.boundingBox();
    await settle(page, 'attempts', async () => {
      await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    });
    const start = await page.getByTestId('window-start').inputValue();
    const end = await page.getByTestId('window-end').inputValue();
    assert.ok(Number(start) > 0 && Number(end) > Number(start), `window ${start}:${end}`);
    const got = await downloads(page);
    assert.equal(
      got.get('profile.speedscope.json').toString('utf8'),
      nativeOutput(file, ['--time-window', `${start}:${end}`]),
    );
  });

  test('over the budget, the suggested narrowing fits and shows the chart', async () => {
    // The timeline's overview in slices of 1,000 calls (the page's own are 4 M).
    const budgeted = await browser.openPage('?viewer-budget-mb=0.01&overview-calls=1000');
    await watchEngine(budgeted);
    const file = join(fixtures, 'h5', 'large_s3.h5');
    assert.equal(await pick(budgeted, ['large_s3.h5']), 'waiting');
    const suggestion = budgeted.getByTestId('budget-suggestion');
    await suggestion.waitFor({ state: 'visible', timeout: 60_000 });
    // It went in slices, and its answer is the engine's overview at once.
    const { sent, sliced, whole } = await budgeted.evaluate(async () => {
      const { asked, answers, worker } = window.engineWatch;
      const first = asked.findLast((m) => m.type === 'timeline-overview');
      const last = asked.findLast((m) => m.type === 'timeline-overview-more');
      const atOnce = {
        id: 1e9,
        type: 'timeline-overview',
        timeline: first.timeline,
        options: { maxEvents: first.options.maxEvents },
      };
      const reply = new Promise((resolve) =>
        worker.addEventListener('message', ({ data }) => data.id === atOnce.id && resolve(data)),
      );
      worker.postMessage(atOnce);
      return {
        sent: asked.filter((m) => m.type === 'timeline-overview-more').length,
        sliced: answers.get(last.id).overview,
        whole: (await reply).overview,
      };
    });
    assert.ok(sent >= 5, `${sent} slices`);
    assert.ok(sliced.suggestion, 'a suggestion');
    assert.deepEqual(sliced, whole);
    assert.match(
      await suggestion.innerText(),
      /^Suggested: (leave out calls shorter than \S+|show \S+ s to \S+ s of the run), which keeps [\d,]+ calls\.$/,
    );
    assert.equal(await budgeted.getByTestId('viewer').count(), 0);
    await settle(budgeted, 'attempts', () => budgeted.getByTestId('budget-apply').click());
    assert.equal(await viewerSettled(budgeted), 'painted');
    const min = await budgeted.getByTestId('min-duration').inputValue();
    const args = min
      ? ['--min-duration', min]
      : [
          '--time-window',
          `${await budgeted.getByTestId('window-start').inputValue()}:${await budgeted.getByTestId('window-end').inputValue()}`,
        ];
    const got = await downloads(budgeted);
    assert.equal(got.get('profile.speedscope.json').toString('utf8'), nativeOutput(file, args));
    await budgeted.close();
  });
});
