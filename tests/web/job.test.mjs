// A job written one file per process (tests/fixtures/job/2, make_job.py: the
// C API's job_rank00000.h5 and job_rank00001.h5) dropped on the page: one
// job of 2 ranks on the timeline (lanes by rank), its Ranks panel the same
// table as the job written as one file (job.h5) shows, and its download
// that file's document; compared with another run as run B; a process's file without rank 0 opens its rank;
// files of two jobs are refused, naming both; a link to the job's view names
// its first file and how many files it is, restores on the same files
// (dropped in any order) and says so when only some of them are chosen.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import { rowTexts } from '../../web/timeline/ranks.js';
import { fragmentToView } from '../../web/view-link.js';
import {
  allRanks,
  assertSameOrigin,
  chartPainted,
  downloads,
  drop,
  errorText,
  fixtures,
  h5,
  startBrowser,
} from './harness.mjs';

const DIR = 'job/2';
const PARTS = ['job_rank00000.h5', 'job_rank00001.h5'];
const input = (name) => ({ name, bytes: new Uint8Array(readFileSync(join(fixtures, DIR, name))) });

// The address's view once it passes `check` (the fragment follows the view).
async function fragmentSettles(page, check) {
  let view = null;
  for (let i = 0; i < 100 && !(view && check(view)); i++) {
    await page.waitForTimeout(100);
    view = fragmentToView(await page.evaluate(() => window.location.hash)).view ?? null;
  }
  assert.ok(view && check(view), `the fragment: ${await page.evaluate(() => window.location.hash)}`);
  return view;
}

const lanesShown = (page) => page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
const tableRows = (page) =>
  page.locator('#tl-imbalance tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));

// Every rank ticked (All ranks), the chart painted, the imbalance table's rows.
async function allRanksTable(page, rows) {
  await allRanks(page);
  await page.waitForFunction((n) => {
    const t = document.querySelector('[data-testid=imbalance-table]');
    return t?.dataset.windowEnd && t.tBodies[0].rows.length === n;
  }, rows);
  return tableRows(page);
}

describe('a job written one file per process, dropped on the page', () => {
  let browser, page, sp, single;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage();
    sp = await createScopeSpeedscope();
    // The job as one file, on the page: its table with every rank.
    assert.equal(await drop(page, ['job.h5'], { dir: DIR }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    single = await allRanksTable(page, 5);
  });
  after(async () => {
    await browser?.close();
  });

  test("the two files are one job of 2 ranks: lanes by rank, the one file's imbalance table", async () => {
    assert.equal(await drop(page, PARTS, { dir: DIR }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    assert.deepEqual(await lanesShown(page), ['rank 0']); // rank 0 by default, as for the one file
    // One document, the job's.
    assert.match(
      await page.getByTestId('status').textContent(),
      /^Converted in [\d.]+ s: profile\.speedscope\.json \(/,
    );
    const rows = await allRanksTable(page, 5);
    assert.deepEqual(await lanesShown(page), ['rank 0', 'rank 1']);
    assert.deepEqual(rows, single);
    // The core's rows over the job's files, opened as one run.
    const w = await page
      .getByTestId('imbalance-table')
      .evaluate((t) => ({ start: Number(t.dataset.windowStart), end: Number(t.dataset.windowEnd) }));
    const tl = await sp.openTimeline(PARTS.map(input), { ranks: 'all' });
    try {
      assert.deepEqual(tl.imbalance(w.start, w.end).map(rowTexts), rows);
    } finally {
      tl.close();
    }
    // Its download is the job's document, written from the timeline's columns.
    assert.equal(await page.locator('#bar').getAttribute('data-download-from'), 'timeline');
    const written = await downloads(page);
    assert.deepEqual([...written.keys()], ['profile.speedscope.json']);
    const fromFile = await sp.openTimeline(input('job.h5'), { ranks: 'all' });
    try {
      const [doc] = fromFile.exportSpeedscope({ filepath: 'profile.speedscope.json' });
      assert.equal(written.get('profile.speedscope.json').toString('utf8'), Buffer.concat(doc.chunks).toString('utf8'));
    } finally {
      fromFile.close();
    }
  });

  test('Compare with… another run of rank 0: the job is run B, its lanes by rank first', async () => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('compare-with').click()]);
    await chooser.setFiles(h5('rerun_rank00000.h5', DIR));
    await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
    assert.equal(await chartPainted(page), 'painted');
    assert.deepEqual(await lanesShown(page), ['B · rank 0', 'B · rank 1', 'A · rank 0']);
    assert.equal(
      await page.getByTestId('status').textContent(),
      'Comparing job_rank00000.h5 + 1 more file (B) with rerun_rank00000.h5 (A).',
    );
    // The engine's answer for the same two runs.
    const job = PARTS.map(input);
    const cmp = await sp.compareRuns(input('rerun_rank00000.h5'), job, { ranks: 'all' });
    try {
      assert.deepEqual(
        [...cmp.b.lanes.map((l) => `B · ${l.name}`), ...cmp.a.lanes.map((l) => `A · ${l.name}`)],
        await lanesShown(page),
      );
    } finally {
      cmp.close();
    }
    await page.getByTestId('compare-end').click();
    await page.waitForFunction(() => document.body.dataset.compare === undefined);
    assert.equal(await chartPainted(page), 'painted');
    assert.deepEqual(await lanesShown(page), ['rank 0', 'rank 1']);
  });

  test('a process file without rank 0 opens its rank', async () => {
    assert.equal(await drop(page, ['job_rank00001.h5'], { dir: DIR }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    assert.deepEqual(await lanesShown(page), ['rank 1']);
  });

  test("a link to the job's view: the same files restore it, in any order; one of them says so", async () => {
    const one = await browser.openPage();
    assert.equal(await drop(one, PARTS, { dir: DIR }), 'done');
    assert.equal(await chartPainted(one), 'painted');
    await allRanksTable(one, 5);
    await one.locator('#tl-imbalance button', { hasText: 'solve' }).click();
    const sent = await fragmentSettles(one, (v) => v.ranks === 'all' && v.region === 'solve');
    const size = statSync(join(fixtures, DIR, PARTS[0])).size;
    assert.deepEqual(sent.file.name, PARTS[0]);
    assert.equal(sent.file.size, size);
    assert.equal(sent.files, 2);
    const hash = await one.evaluate(() => window.location.hash);
    assert.match(hash, /&files=2&/);
    await one.close();

    const two = await browser.openPage(hash);
    assert.equal(
      await two.getByTestId('link-notice').textContent(),
      `This link shows a view of a job of 2 files, the first ${PARTS[0]} (${size.toLocaleString('en-US')} bytes): ` +
        'choose all 2 of them to see it.',
    );
    assert.equal(await drop(two, [...PARTS].reverse(), { dir: DIR }), 'done');
    assert.equal(await chartPainted(two), 'painted');
    await fragmentSettles(two, (v) => v.region === 'solve');
    assert.equal(await two.evaluate(() => window.location.hash), hash, 'the same view, field by field');
    assert.deepEqual(await lanesShown(two), ['rank 0', 'rank 1']);
    assert.equal(await two.locator('#tl-imbalance tr.highlighted .tl-region').textContent(), 'solve');
    assert.ok(await two.getByTestId('link-notice').isHidden());
    await two.close();

    const three = await browser.openPage(hash);
    assert.equal(await drop(three, [PARTS[0]], { dir: DIR }), 'done');
    assert.equal(await chartPainted(three), 'painted');
    assert.equal(
      await three.getByTestId('link-notice').textContent(),
      `The link shows a view of a job of 2 files (the first ${PARTS[0]}); only ${PARTS[0]} was chosen: ` +
        'choose all 2 of them to see it. The default view is shown.',
    );
    assert.deepEqual(await lanesShown(three), ['rank 0']);
    const own = await fragmentSettles(three, (v) => v.region === null);
    assert.equal(own.files, 1);
    assert.deepEqual(own.ranks, [0]);
    await three.close();
  });

  test('files of ranks 1 and 0 of two jobs: the timeline says they are not one job, naming both', async () => {
    // job_rank00001.h5 (a process's file) and a file of rank 0 recording mpi_size 1.
    const phase = await drop(page, [
      { dir: DIR, name: 'job_rank00001.h5' },
      { dir: 'h5', name: 'hdf5-schema-2.h5' },
    ]);
    assert.equal(phase, 'failed');
    assert.equal(
      await errorText(page),
      'The timeline could not be drawn: job_rank00001.h5 and hdf5-schema-2.h5 cannot be ' +
        "opened as one job: job_rank00001.h5 is one process's file (no mpi_size), hdf5-schema-2.h5 records " +
        'mpi_size 1.',
    );
    assert.equal(await page.getByTestId('status').textContent(), 'These files cannot be opened as one job.');
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
