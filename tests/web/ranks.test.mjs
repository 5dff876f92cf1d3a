// The Ranks panel: "All ranks" in the options opens every rank of the file
// (openTimeline's ranks: 'all'), and the panel beside the regions table
// gives the visible window's imbalance per region, checked against the
// known answers of the fixture (tests/fixtures/gen/make_ranks.py: 4 ranks,
// 5 steps of 1000 ns; solve 600 ns except rank 2 at step 3, 900 ns), and
// against the core over the same window; sorting; choosing a region by
// keyboard shows its rank × step heatmap, whose cells name themselves and
// zoom the timeline to their step; a single rank gets a note; 390 px, dark
// mode and axe-core at zero violations.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import { rowTexts } from '../../web/timeline/ranks.js';
import {
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  drop,
  fixtures,
  openOptions,
  screenshot,
  settle,
  startBrowser,
} from './harness.mjs';

const FIXTURE = 'ranks_imbalance_s3.h5';
const input = (name) => ({ name, bytes: new Uint8Array(readFileSync(join(fixtures, 'h5', name))) });

// The whole run over the four ranks (make_ranks.py's answers).
const WHOLE_RUN = [
  ['solve', '3 µs', '3 µs', '3.075 µs', '3.3 µs', '6.8 %', '2'],
  ['exchange', '1.7 µs', '2 µs', '1.925 µs', '2 µs', '3.8 %', '0'],
  ['step', '5 µs', '5 µs', '5 µs', '5 µs', '0.0 %', '0'],
];

const tableRows = (page) =>
  page.locator('#tl-imbalance tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));

// Waits until the imbalance table shows a window other than `after` (its
// data-window-end) with `rows` rows.
async function imbalanceSettled(page, rows, after = null) {
  await page.waitForFunction(
    ([n, a]) => {
      const t = document.querySelector('[data-testid=imbalance-table]');
      return t.dataset.windowEnd && t.dataset.windowEnd !== a && t.tBodies[0].rows.length === n;
    },
    [rows, after],
  );
  return page.getByTestId('imbalance-table').evaluate((t) => ({
    start: Number(t.dataset.windowStart),
    end: Number(t.dataset.windowEnd),
  }));
}

const viewOf = (page) =>
  page.evaluate(() => {
    const c = document.querySelector('[data-testid=timeline]');
    return { start: Number(c.dataset.viewStart), end: Number(c.dataset.viewEnd) };
  });

// Changes the rank choice in the options, then closes them (beside the
// chart on wide screens they take the place of the side panel).
async function chooseRanks(page, change) {
  await openOptions(page);
  assert.equal(await settle(page, 'attempts', change), 'done');
  assert.equal(await chartPainted(page), 'painted');
  await page.getByTestId('options-toggle').click();
}

// The middle of heatmap cell (row r, column c) in page coordinates.
async function cellPoint(page, r, c) {
  const canvas = page.getByTestId('rank-heatmap');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const d = await canvas.evaluate((el) => ({ ...el.dataset }));
  return {
    x: box.x + Number(d.left) + (c + 0.5) * Number(d.cellWidth),
    y: box.y + (r + 0.5) * Number(d.rowHeight),
  };
}

describe('the Ranks panel', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let sp;
  before(async () => {
    browser = await startBrowser();
    sp = await createScopeSpeedscope();
    page = await browser.openPage();
    assert.equal(await drop(page, [FIXTURE]), 'done');
    assert.equal(await chartPainted(page), 'painted');
  });
  after(async () => {
    await browser?.close();
  });

  test('one rank: a note instead of the table; All ranks says how many ranks and calls', async () => {
    assert.match(await page.getByTestId('ranks-note').textContent(), /^One rank on this timeline: choose All ranks/);
    assert.ok(await page.getByTestId('imbalance-table').isHidden());
    await openOptions(page);
    assert.equal(await page.getByTestId('ranks-all-calls').textContent(), '(4 ranks, 60 calls: 15 each)');
    assert.equal(await page.getByTestId('rank-all').isChecked(), false);
    await page.getByTestId('options-toggle').click();
  });

  test('All ranks: every rank on the timeline; the table is the known imbalance of the whole run', async () => {
    await chooseRanks(page, () => page.getByTestId('rank-all').check());
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['rank 0', 'rank 1', 'rank 2', 'rank 3']);
    const w = await imbalanceSettled(page, 3);
    assert.deepEqual(w, { start: 0, end: 5001 });
    assert.ok(await page.getByTestId('ranks-note').evaluate((n) => n.textContent === ''));
    assert.deepEqual(await tableRows(page), WHOLE_RUN);
    const box = page.locator('.tl-imbalance-box');
    const widths = await box.evaluate((b) => [b.scrollWidth, b.clientWidth]);
    assert.ok(widths[0] <= widths[1], `the seven columns fit beside the chart at 1400 px: ${widths}`);
    // The same as the core's over that window.
    const tl = await sp.openTimeline(input(FIXTURE), { ranks: 'all' });
    try {
      assert.deepEqual(tl.imbalance(w.start, w.end).map(rowTexts), WHOLE_RUN);
    } finally {
      tl.close();
    }
    // Every rank box is checked with it.
    await openOptions(page);
    for (const r of [0, 1, 2, 3]) assert.ok(await page.getByTestId(`rank-${r}`).isChecked(), `rank ${r}`);
    await page.getByTestId('options-toggle').click();
  });

  test('sorted by a click on a column header, both ways', async () => {
    const header = page.locator('#tl-imbalance-table th[data-sort=mean]');
    await header.locator('button').click();
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(await page.locator('#tl-imbalance td[data-field=mean]').allTextContents(), [
      '5 µs',
      '3.075 µs',
      '1.925 µs',
    ]);
    await header.locator('button').click();
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(await page.locator('#tl-imbalance td.region').allTextContents(), ['exchange', 'solve', 'step']);
    // Back to the widest spread first (descending imbalance gives the same order here).
    await page.locator('#tl-imbalance-table th[data-sort=imbalance] button').click();
    assert.deepEqual(await tableRows(page), WHOLE_RUN);
  });

  test('a region chosen by keyboard: its heatmap names each cell; a click zooms to that step', async () => {
    // Tab order reaches the rows' buttons; the arrows move between them.
    await page.locator('#tl-imbalance button').last().focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'solve');
    await page.keyboard.press('Enter');
    const solve = page.locator('#tl-imbalance tr', { hasText: 'solve' }).locator('button');
    assert.equal(await solve.getAttribute('aria-pressed'), 'true');
    const heatmap = page.getByTestId('rank-heatmap');
    await heatmap.waitFor({ state: 'visible' });
    assert.equal(await heatmap.getAttribute('data-rows'), '4');
    assert.equal(await heatmap.getAttribute('data-cols'), '5');
    assert.equal(await page.locator('#tl-heatmap-title').textContent(), 'solve on each rank, step by step');

    const p = await cellPoint(page, 2, 3);
    await page.mouse.move(p.x, p.y);
    const hover = page.getByTestId('heatmap-hover');
    assert.equal(await hover.textContent(), 'step 3 of solve, rank 2: +50 % (900 ns against a median of 600 ns)');
    const q = await cellPoint(page, 1, 0);
    await page.mouse.move(q.x, q.y);
    assert.equal(await hover.textContent(), 'step 0 of solve, rank 1: 0 % (600 ns against a median of 600 ns)');

    const before = await viewOf(page);
    assert.deepEqual(before, { start: 0, end: 5001 });
    const table = await page.getByTestId('imbalance-table').getAttribute('data-window-end');
    await page.mouse.click(p.x, p.y);
    // Step 3 of solve on every rank is [3000, 3900): shown with 5 % on each side.
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.viewStart !== '0');
    const v = await viewOf(page);
    assert.ok(Math.abs(v.start - 2955) < 1e-6 && Math.abs(v.end - 3945) < 1e-6, JSON.stringify(v));
    // The table and the heatmap follow the window: that step alone.
    const w = await imbalanceSettled(page, 3, table);
    assert.deepEqual(w, { start: 2955, end: 3945 });
    await page.waitForFunction(() => document.querySelector('[data-testid=rank-heatmap]').dataset.cols === '1');
    assert.equal(await solve.getAttribute('aria-pressed'), 'true', 'the region stays chosen');
    await assertAccessible(page, 'ranks panel with a heatmap');
  });

  test('the heatmap by keyboard: arrows name the cells, Enter zooms', async () => {
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('0');
    await page.waitForFunction(() => document.querySelector('[data-testid=rank-heatmap]').dataset.cols === '5');
    await page.getByTestId('rank-heatmap').focus();
    // Home: the first step; up to the first rank; then three steps right and two ranks down.
    for (const key of ['Home', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'ArrowRight', 'ArrowRight', 'ArrowRight']) {
      await page.keyboard.press(key);
    }
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(
      await page.getByTestId('heatmap-hover').textContent(),
      'step 3 of solve, rank 2: +50 % (900 ns against a median of 600 ns)',
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.viewStart !== '0');
    const v = await viewOf(page);
    assert.ok(Math.abs(v.start - 2955) < 1e-6 && Math.abs(v.end - 3945) < 1e-6, JSON.stringify(v));
  });

  test('an explicit list of ranks keeps its ranks: two ranks compared', async () => {
    await chooseRanks(page, async () => {
      await page.getByTestId('rank-all').uncheck(); // back to rank 0 alone
      await page.getByTestId('rank-2').check();
    });
    await openOptions(page);
    assert.equal(await page.getByTestId('rank-all').evaluate((b) => b.indeterminate && !b.checked), true);
    await page.getByTestId('options-toggle').click();
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['rank 0', 'rank 2']);
    await imbalanceSettled(page, 3);
    // Still sorted by imbalance, as chosen above.
    assert.deepEqual(await tableRows(page), [
      ['exchange', '1.7 µs', '1.85 µs', '1.85 µs', '2 µs', '7.5 %', '0'],
      ['solve', '3 µs', '3.15 µs', '3.15 µs', '3.3 µs', '4.5 %', '2'],
      ['step', '5 µs', '5 µs', '5 µs', '5 µs', '0.0 %', '0'],
    ]);
  });

  test('390 px and dark mode: the panel fits, no sideways scrolling, no axe violations', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await chooseRanks(page, () => page.getByTestId('rank-all').check());
    await imbalanceSettled(page, 3);
    await page.locator('#tl-imbalance button', { hasText: 'solve' }).click();
    const heatmap = page.getByTestId('rank-heatmap');
    await heatmap.waitFor({ state: 'visible' });
    await page.getByTestId('ranks-panel').scrollIntoViewIfNeeded();
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px too wide)`);
    for (const id of ['ranks-panel', 'rank-heatmap']) {
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `${id} fits: ${JSON.stringify(b)}`);
    }
    const widths = await page.locator('.tl-imbalance-box').evaluate((b) => [b.scrollWidth, b.clientWidth]);
    assert.ok(widths[0] <= widths[1], `the seven columns fit at 390 px: ${widths}`);
    const p = await cellPoint(page, 2, 3);
    await page.mouse.move(p.x, p.y);
    assert.match(await page.getByTestId('heatmap-hover').textContent(), /^step 3 of solve, rank 2: \+50 %/);
    const panelBg = await page
      .getByTestId('ranks-panel')
      .evaluate((n) => getComputedStyle(n.closest('.timeline-box')).backgroundColor);
    assert.equal(panelBg, 'rgb(30, 35, 42)', 'the dark theme');
    await screenshot(page, 'ranks-390-dark.png');
    await assertAccessible(page, 'ranks panel, 390 px, dark');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'ranks-1400.png');
  });

  test('no request left the origin, and nothing was blocked', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
