// The page `scope-speedscope serve FILE... [vs FILE...]` serves, by each CLI
// (the native one, its native engine; the Node one, the wasm engine in Node):
// opened from the printed URL it takes the token out of the address bar,
// opens the run in the server's engine (no worker, no wasm in the page),
// paints the timeline, offers the CLI's bytes to download and opens a
// window in speedscope; with two runs it compares them as `diff` does; a
// job written one file per process opens as one job (All ranks of the
// job, the job's download), and `A... vs B...` compares run A with the job
// B. A page without the token gets 401, and nothing leaves the origin.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { nodeCli, startCli } from '../js/serve-helpers.mjs';
import { createScopeSpeedscope, decodeAnswer } from '../../dist/node.js';
import { rowTexts } from '../../web/timeline/ranks.js';
import {
  allRanks,
  assertAccessible,
  assertOutputs,
  caseNamed,
  chartPainted,
  downloads,
  fixtures,
  nativeCli,
  openInSpeedscope,
  screenshot,
  startBrowser,
} from './harness.mjs';

const TERMINAL = ['done', 'failed', 'waiting'];
const JOB = join(fixtures, 'job', '2');
const PARTS = ['job_rank00000.h5', 'job_rank00001.h5'].map((f) => join(JOB, f));
const lanesShown = (page) => page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
const tableRows = (page) =>
  page.locator('#tl-imbalance tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
const CLIS = [
  { kind: 'native', program: nativeCli, argv: [], engine: 'native' },
  { kind: 'Node', program: process.execPath, argv: [nodeCli], engine: 'wasm' },
];

for (const cli of CLIS) {
  const serve = (files) => startCli([...cli.argv, 'serve', ...files, '--port', '0'], { program: cli.program });

  describe(`the page served with the ${cli.kind} CLI's engine`, { timeout: 300_000 }, () => {
    let browser;
    const servers = [];
    before(async () => {
      browser = await startBrowser();
    });
    after(async () => {
      for (const s of servers) await s.stop();
      await browser?.close();
    });

    // compared: the page opens a comparison (two runs, or vs).
    async function open(files, viewport, { compared = files.length === 2 } = {}) {
      const server = await serve(files);
      servers.push(server);
      const page = await browser.context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      const requests = [];
      const errors = [];
      const posts = []; // the requests' JSON sent to the engine
      const answers = []; // and, of each timeline-open, its request and decoded answer
      page.on('request', (r) => {
        requests.push(r.url());
        if (r.method() === 'POST' && r.url().endsWith('/engine')) posts.push(JSON.parse(r.postData()));
      });
      page.on('response', async (r) => {
        const request = r.request();
        if (request.method() !== 'POST' || !r.url().endsWith('/engine')) return;
        const sent = JSON.parse(request.postData());
        if (sent.type === 'timeline-open') answers.push({ sent, answer: decodeAnswer(new Uint8Array(await r.body())) });
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server.url);
      // Two runs: run B is painted alone first, then the comparison opens.
      if (compared) {
        await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
      }
      assert.equal(await chartPainted(page), 'painted');
      await page.waitForFunction((t) => t.includes(document.body.dataset.phase), TERMINAL, { timeout: 60_000 });
      return { server, page, requests, errors, posts, answers };
    }

    test('one run: the token leaves the address bar, the timeline is painted, the download is the CLI’s', async () => {
      const { server, page, requests, errors } = await open([join(fixtures, 'h5', 'real_run_s1.h5')]);
      const origin = new URL(server.url).origin;
      assert.equal(page.url().split('#')[0], `${origin}/?served=1`); // the view's fragment may follow
      assert.equal(await page.evaluate(() => document.body.dataset.engine), 'served');
      assert.match(
        await page.locator('#version-line').innerText(),
        new RegExp(`^scope-speedscope \\S+, its ${cli.engine} engine on the server \\(real_run_s1\\.h5\\)\\.$`),
      );
      assert.equal(await page.getByTestId('bar-files').innerText(), 'real_run_s1.h5');
      assert.ok(await page.getByTestId('file-input').isHidden());
      assert.ok(await page.getByTestId('compare-with').isHidden());
      await assertOutputs(page, caseNamed('real_run_s1'));
      assert.equal(await openInSpeedscope(page), 'painted');
      // No worker, no wasm: the server answers; every request stayed in its origin.
      assert.ok(!requests.some((u) => /worker\.js|\.wasm$/.test(u)), requests.join('\n'));
      assert.deepEqual(
        requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:')),
        [],
      );
      assert.ok(requests.some((u) => u === `${origin}/engine`));
      assert.deepEqual(errors, []);
      await screenshot(page, `served-one-run-${cli.engine}.png`);
      // Reloaded, the cookie keeps it open.
      await page.reload();
      assert.equal(await chartPainted(page), 'painted');
    });

    test('two runs: B compared against A, the table of the whole run is diff’s', async () => {
      const a = join(fixtures, 'h5', 'nested_pair_a_s3.h5');
      const b = join(fixtures, 'h5', 'nested_pair_b_s3.h5');
      const { page, errors } = await open([a, b]);
      await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
      await page.getByTestId('compare-metric').selectOption('total');
      const diff = JSON.parse(
        spawnSync(nativeCli, ['diff', a, b, '--json', '--metric', 'total'], { encoding: 'utf8' }).stdout,
      );
      const kernel = diff.regions.find((r) => r.name === 'kernel');
      const row = page.locator('#tl-compare-table tr', { hasText: 'kernel' });
      await row.waitFor(); // the table follows the window a moment after it is shown
      const cells = await row.locator('td').allInnerTexts();
      // The totals as diff --json gives them (ns), as the table prints them (µs, three decimals).
      const us = (ns) => `${(ns / 1000).toFixed(3).replace(/\.?0+$/, '')} µs`;
      assert.equal(cells[1], us(kernel.a.total), JSON.stringify(cells));
      assert.equal(cells[2], us(kernel.b.total), JSON.stringify(cells));
      assert.deepEqual(errors, []);
    });

    test('a job written one file per process: one job, All ranks of the job, the download the CLI’s for the job', async () => {
      const { page, errors, answers } = await open(PARTS, undefined, { compared: false });
      assert.match(
        await page.locator('#version-line').innerText(),
        new RegExp(`, its ${cli.engine} engine on the server \\(job_rank00000\\.h5 \\+ 1 more file\\)\\.$`),
      );
      assert.equal(await page.getByTestId('bar-files').innerText(), 'job_rank00000.h5, job_rank00001.h5');
      assert.deepEqual(await lanesShown(page), ['rank 0']); // rank 0 by default, as for the one file
      await allRanks(page);
      assert.deepEqual(await lanesShown(page), ['rank 0', 'rank 1']);
      // All ranks as the page asks it (naming its first view's timeline as
      // the same files') is the open the native server made ahead: its
      // timeline is that second engine's (ids from 2^24).
      for (let i = 0; i < 100 && !answers.some((a) => a.sent.options.ranks === 'all'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const every = answers.filter((a) => a.sent.options.ranks === 'all');
      assert.equal(every.length, 1);
      assert.equal(typeof every[0].sent.options.sameFileAs, 'number');
      assert.equal(every[0].answer.type, 'result');
      assert.equal(every[0].answer.timeline >= 1 << 24, cli.engine === 'native');
      await page.waitForFunction(() => {
        const t = document.querySelector('[data-testid=imbalance-table]');
        return t?.dataset.windowEnd && t.tBodies[0].rows.length === 5;
      });
      // The Ranks panel's rows: the core's over the job written as one file.
      const w = await page
        .getByTestId('imbalance-table')
        .evaluate((t) => ({ start: Number(t.dataset.windowStart), end: Number(t.dataset.windowEnd) }));
      const sp = await createScopeSpeedscope();
      const single = join(JOB, 'job.h5');
      const tl = await sp.openTimeline({ name: 'job.h5', path: single }, { ranks: 'all' });
      try {
        assert.deepEqual(await tableRows(page), tl.imbalance(w.start, w.end).map(rowTexts));
      } finally {
        tl.close();
      }
      // One download, the job's: the CLI's document of the job written as one file.
      const dir = mkdtempSync(join(tmpdir(), 'served-job-'));
      try {
        const out = join(dir, 'expected.json');
        const made = spawnSync(nativeCli, [single, '--ranks', 'all', '--filepath', out, '--quiet']);
        assert.equal(made.status, 0, made.stderr.toString());
        const written = await downloads(page);
        assert.deepEqual([...written.keys()], ['profile.speedscope.json']);
        assert.ok(written.get('profile.speedscope.json').equals(readFileSync(out)), 'the CLI’s bytes');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      assert.deepEqual(errors, []);
    });

    test('A vs a job: the job is run B, opened alone from its own files, then compared', async () => {
      const rerun = join(JOB, 'rerun_rank00000.h5');
      const { page, errors, posts } = await open([rerun, 'vs', ...PARTS], undefined, { compared: true });
      // Run B alone first, from its own files (served 1 and 2), then the two compared.
      const opens = posts
        .filter((p) => p.type.endsWith('-open'))
        .map(({ type, count, countA, countB, served }) => ({ type, count, countA, countB, served }));
      assert.deepEqual(opens, [
        { type: 'timeline-open', count: 2, countA: undefined, countB: undefined, served: { file0: 1, file1: 2 } },
        {
          type: 'timeline-compare-open',
          count: undefined,
          countA: undefined,
          countB: 2,
          served: { fileA: 0, fileB0: 1, fileB1: 2 },
        },
      ]);
      assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
      assert.match(
        await page.locator('#version-line').innerText(),
        /\(job_rank00000\.h5 \+ 1 more file against rerun_rank00000\.h5\)\.$/,
      );
      assert.equal(
        await page.getByTestId('status').textContent(),
        'Comparing job_rank00000.h5 + 1 more file (B) with rerun_rank00000.h5 (A).',
      );
      assert.deepEqual(await lanesShown(page), ['B · rank 0', 'A · rank 0']);
      await allRanks(page);
      await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
      assert.deepEqual(await lanesShown(page), ['B · rank 0', 'B · rank 1', 'A · rank 0']);
      // The download is run B's: the job's document.
      const written = await downloads(page);
      assert.deepEqual([...written.keys()], ['profile.speedscope.json']);
      assert.deepEqual(
        JSON.parse(written.get('profile.speedscope.json').toString('utf8')).profiles.map((p) => p.name),
        ['rank 0', 'rank 1'],
      );
      assert.deepEqual(errors, []);
    });

    test('a link copied from the page reopens its view while the server runs when typed; followed from another site it is 401', async () => {
      const { server, page, errors } = await open([join(fixtures, 'h5', 'ranks_imbalance_s3.h5')]);
      const origin = new URL(server.url).origin;
      // Every rank, the solve region chosen, a wheel zoom, a call selected: then Copy link.
      await page.getByTestId('options-toggle').click();
      await page.getByTestId('rank-all').check();
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=timeline-lanes] .tl-lane-name').length === 4,
        null,
        { timeout: 60_000 },
      );
      assert.equal(await chartPainted(page), 'painted');
      await page.getByTestId('options-toggle').click();
      await page.locator('#tl-imbalance button', { hasText: 'solve' }).click();
      const box = await page.getByTestId('timeline').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 5; i++) {
        await page.mouse.wheel(0, -200);
        await page.waitForTimeout(30);
      }
      await page.getByTestId('timeline').focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
      await page.waitForFunction(() => /&call=/.test(window.location.hash) && /&t=[1-9]/.test(window.location.hash));
      await page.waitForTimeout(400); // the zoom's entry replaced once the view rests
      await page.getByTestId('copy-link').click();
      await page.waitForFunction(() => document.getElementById('copy-link').dataset.link);
      const link = await page.getByTestId('copy-link').getAttribute('data-link');
      assert.equal(link, page.url());
      assert.doesNotMatch(link, /token/);
      assert.equal(new URL(link).origin, origin);
      const view = new URL(link).hash;
      assert.match(view, /&ranks=all&t=\d+-\d+&.*&region=solve&call=/);

      // Followed from another site's page: the SameSite=Strict cookie stays
      // behind (issue 28's decision), so the server answers 401.
      const elsewhere = await browser.context.newPage();
      await elsewhere.goto(`data:text/html,${encodeURIComponent(`<a id="go" href="${link}">the view</a>`)}`);
      const [refused] = await Promise.all([
        elsewhere.waitForResponse((r) => r.url().startsWith(origin)),
        elsewhere.click('#go'),
      ]);
      assert.equal(refused.status(), 401);
      assert.match(await refused.text(), /this server needs the token of the URL it printed/);
      await elsewhere.close();
      // Opened again (typed into the address bar): the same view.
      {
        const how = 'typed';
        const again = await browser.context.newPage();
        const failed = [];
        again.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
        await again.goto(link);
        assert.equal(await chartPainted(again), 'painted', how);
        await again.waitForFunction(
          () => document.querySelector('[data-testid=call-details]').dataset.state === 'call',
        );
        assert.equal(new URL(again.url()).hash, view, `${how}: the same view, field by field`);
        const shown = await again
          .getByTestId('timeline')
          .evaluate((c) => `${Math.round(Number(c.dataset.viewStart))}-${Math.round(Number(c.dataset.viewEnd))}`);
        assert.equal(`t=${shown}`, view.match(/t=\d+-\d+/)[0], how);
        assert.deepEqual(await again.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents(), [
          'rank 0',
          'rank 1',
          'rank 2',
          'rank 3',
        ]);
        assert.equal(await again.locator('#tl-imbalance tr.highlighted .tl-region').textContent(), 'solve');
        assert.ok(await again.getByTestId('link-notice').isHidden());
        assert.deepEqual(failed, [], how);
        await again.close();
      }
      assert.deepEqual(errors, []);
    });

    test("two runs lined up at a call in the server's engine; the link keeps it", async () => {
      const a = join(fixtures, 'h5', 'pair_a_s3.h5');
      const b = join(fixtures, 'h5', 'pair_b_s3.h5');
      const { page, errors } = await open([a, b]);
      await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
      assert.equal(await chartPainted(page), 'painted');
      // B's solve of step 3 (rank 0, [3600, 4350) of 6001 ns): its partner in A starts at 3 µs.
      const box = await page.getByTestId('timeline').boundingBox();
      const y = 26 + 22 + 18 + 8; // the axis, B · rank 0's header, depth 1's middle
      await page.mouse.click(box.x + (3700 * box.width) / 6001, box.y + y);
      await page.getByTestId('align-at-call').click();
      const lined = 'Lined up at solve (B · rank 0, 3.6 µs): A drawn later by 600 ns.';
      await page.waitForFunction((t) => document.querySelector('[data-testid=align-note]').textContent === t, lined);
      await page.waitForFunction(() => /&align=0\.1\.3600\.\d+\.600/.test(window.location.hash));
      const again = await browser.context.newPage();
      await again.goto(page.url());
      await again.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
      await again.waitForFunction((t) => document.querySelector('[data-testid=align-note]').textContent === t, lined);
      assert.equal(new URL(again.url()).hash, new URL(page.url()).hash);
      await again.close();
      assert.deepEqual(errors, []);
    });

    test('at 390 px it fits and passes axe', async () => {
      const { page } = await open([join(fixtures, 'h5', 'ranks_imbalance_s3.h5')], { width: 390, height: 800 });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(wide <= 0, `${wide} px sideways`);
      await assertAccessible(page, 'served, 390 px');
      await screenshot(page, `served-390-${cli.engine}.png`);
    });

    test('when the server stops, the page says so once and offers to reconnect', async () => {
      const { server, page, errors } = await open([join(fixtures, 'h5', 'ranks_imbalance_s3.h5')]);
      await server.stop();
      // The next question to the engine finds nobody.
      await page.getByTestId('timeline').focus();
      await page.keyboard.press('+');
      await page.getByTestId('reconnect').waitFor({ timeout: 30_000 });
      assert.equal(
        await page.locator('[data-origin=served] .message').innerText(),
        'The server does not answer: scope-speedscope serve stopped, or the SSH tunnel to it dropped. ' +
          'Start it (or the tunnel) again, then reconnect.',
      );
      await page.keyboard.press('-');
      await page.waitForTimeout(500);
      assert.equal(await page.locator('[data-origin=served]').count(), 1);
      assert.equal(await page.getByTestId('status').innerText(), 'The server does not answer.');
      assert.deepEqual(errors, []);
      await screenshot(page, `served-stopped-${cli.engine}.png`);
    });

    test('without the token the page is refused (401)', async () => {
      const server = await serve([join(fixtures, 'h5', 'real_run_s1.h5')]);
      servers.push(server);
      const page = await browser.context.newPage();
      const response = await page.goto(new URL(server.url).origin + '/');
      assert.equal(response.status(), 401);
      assert.match(await page.locator('body').innerText(), /this server needs the token of the URL it printed/);
    });
  });
}
