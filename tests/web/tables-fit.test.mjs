// Tables that fit (issue 35): at 1400 × 900 and 1920 × 1080 (device pixel
// ratio 1, the side panel at its default width) every column of the
// Regions, Ranks and compare tables is visible without scrolling sideways:
// each cell's right edge is within its scroll box, and neither the box nor
// the side panel scrolls sideways. Measured on the widest texts the tables
// show: a 64-rank job whose times are seconds exact to the nanosecond
// (tests/fixtures/tables/wide_ranks_s3.h5), and a compare pair whose
// longest region name has 40 characters (wide_pair_*; make_wide_tables.py).
// The times show 4 digits; each is exact in its cell's title. At 390 px
// (light and dark) the page does not scroll sideways.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allRanks,
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  h5,
  pick,
  screenshot,
  startBrowser,
} from './harness.mjs';

const DIR = 'tables';
const JOB = 'wide_ranks_s3.h5';
const A = 'wide_pair_a_s3.h5';
const B = 'wide_pair_b_s3.h5';
const SIZES = [
  { width: 1400, height: 900 },
  { width: 1920, height: 1080 },
];

// For each table: its rows, how far its box scrolls sideways, the cells
// whose right edge is past the box's content, and the same of the side panel.
const measure = (page, ids) =>
  page.evaluate((tables) => {
    const rightOf = (box) => box.getBoundingClientRect().left + box.clientLeft + box.clientWidth;
    const side = document.querySelector('.tl-side');
    return tables.map((id) => {
      const table = document.getElementById(id);
      const box = table.closest('.table-box');
      const edge = Math.min(rightOf(box), rightOf(side));
      const cut = [...table.querySelectorAll('th, td')]
        .filter((cell) => cell.getBoundingClientRect().right > edge + 0.5)
        .map((cell) => cell.textContent);
      return {
        id,
        rows: table.tBodies[0].rows.length,
        boxScroll: box.scrollWidth - box.clientWidth,
        sideScroll: side.scrollWidth - side.clientWidth,
        cut,
      };
    });
  }, ids);

async function assertFits(page, ids, rows, label) {
  const got = await measure(page, ids);
  for (const [i, m] of got.entries()) {
    assert.equal(m.rows, rows[i], `${label}: rows of ${m.id}`);
    assert.deepEqual(m.cut, [], `${label}: cells of ${m.id} past its box`);
    assert.ok(m.boxScroll <= 0, `${label}: ${m.id}'s box scrolls ${m.boxScroll} px sideways`);
    assert.ok(m.sideScroll <= 0, `${label}: the side panel scrolls ${m.sideScroll} px sideways`);
  }
}

const noPageScroll = (page) =>
  page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);

async function tablesShown(page, ids, rows) {
  await page.waitForFunction(
    ([tables, n]) =>
      tables.every((id, i) => {
        const t = document.getElementById(id);
        return t.dataset.windowEnd && t.tBodies[0].rows.length === n[i];
      }),
    [ids, rows],
  );
}

describe('tables that fit', { timeout: 600_000 }, () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage();
  });
  after(async () => {
    await browser?.close();
  });

  test('the 64-rank job: Regions and Ranks fit at 1400 and 1920 px; times exact in titles', async () => {
    assert.equal(await pick(page, [JOB], { dir: DIR }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await allRanks(page);
    const ids = ['tl-regions-table', 'tl-imbalance-table'];
    await tablesShown(page, ids, [3, 3]);
    // The exact time a hover away: the cell's title.
    const cell = page.locator('#tl-imbalance tr').first().locator('td[data-field=max]');
    assert.match(await cell.getAttribute('title'), /^\d+\.\d{9} s$/);
    assert.match(await cell.textContent(), /^\d+\.\d{2,3} s$/);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(100);
      await assertFits(page, ids, [3, 3], `${size.width} px`);
      await screenshot(page, `tables-fit-ranks-${size.width}.png`);
    }
    await assertAccessible(page, 'the 64-rank job at 1920 px');
  });

  test('a job of nanosecond times and seven columns (tests/fixtures/job/64/job.h5): the Ranks table fits at 1400 px', async () => {
    // Its Ranks table was 19 px wider than its box (Slowest rank cut off).
    await page.setViewportSize(SIZES[0]);
    assert.equal(await pick(page, ['job.h5'], { dir: 'job/64' }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await allRanks(page);
    const ids = ['tl-regions-table', 'tl-imbalance-table'];
    await tablesShown(page, ids, [5, 5]);
    await assertFits(page, ids, [5, 5], 'job/64 at 1400 px');
    assert.equal(await noPageScroll(page), 0);
  });

  test('a compare pair with a 40-character region: the compare table fits at 1400 and 1920 px', async () => {
    await page.setViewportSize(SIZES[0]);
    assert.equal(await pick(page, [B], { dir: DIR }), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await page.setInputFiles('[data-testid=compare-input]', [h5(A, DIR)]);
    await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
    assert.equal(await chartPainted(page), 'painted');
    await tablesShown(page, ['tl-compare-table'], [5]);
    const names = await page.locator('#tl-compare-rows .tl-region').allTextContents();
    assert.equal(Math.max(...names.map((n) => n.length)), 40);
    const titles = await page
      .locator('#tl-compare-rows td[data-field=a][title]')
      .evaluateAll((tds) => tds.map((td) => td.title));
    assert.ok(titles.length === 5 && titles.some((t) => /^\d+\.\d{9} s$/.test(t)), titles.join(', '));
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.waitForTimeout(100);
      await assertFits(page, ['tl-compare-table'], [5], `compare at ${size.width} px`);
      await screenshot(page, `tables-fit-compare-${size.width}.png`);
    }
    await assertAccessible(page, 'the comparison at 1920 px');
  });

  test("the side panel's separator: keys and a drag set its width, kept for the next visit; hidden at 390 px", async () => {
    await page.setViewportSize(SIZES[0]);
    await page.waitForTimeout(100);
    const handle = page.getByTestId('side-resize');
    assert.equal(await handle.isVisible(), true);
    const sideWidth = () => page.locator('.tl-side').evaluate((s) => Math.round(s.getBoundingClientRect().width));
    const now = async () => Number(await handle.getAttribute('aria-valuenow'));
    const start = await sideWidth();
    assert.equal(await now(), start);
    assert.equal(await handle.getAttribute('aria-valuemin'), '260');
    assert.equal(await handle.getAttribute('aria-valuemax'), String(Math.floor(1400 * 0.6)));
    await handle.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    assert.equal(await sideWidth(), start + 48, 'three steps of 16 px wider');
    assert.equal(await now(), start + 48);
    await page.keyboard.press('Shift+ArrowRight');
    assert.equal(await sideWidth(), start + 48 - 64);
    await page.keyboard.press('End');
    assert.equal(await sideWidth(), 260, 'End: the narrowest');
    await page.keyboard.press('Home');
    assert.equal(await sideWidth(), 840, 'Home: the widest, 60 % of the timeline');
    // A drag: the side's left edge follows the pointer.
    const box = await handle.boundingBox();
    const y = box.y + 200;
    await page.mouse.move(box.x + 3, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 3 + 200, y, { steps: 5 });
    await page.mouse.up();
    assert.equal(await sideWidth(), 640, 'dragged 200 px to the right');
    const edge = await page.locator('.tl-side').evaluate((s) => s.getBoundingClientRect().left);
    assert.ok(Math.abs(edge - (box.x + 3 + 200 - 3)) <= 4, `the edge at the pointer: ${edge}`);
    // The tables still fit the narrower side (their box scrolls, the side does not).
    const side = await page.locator('.tl-side').evaluate((s) => s.scrollWidth - s.clientWidth);
    assert.ok(side <= 0, `the side panel scrolls ${side} px sideways`);
    // Kept for the next visit.
    const again = await browser.openPage();
    assert.equal(await pick(again, [B], { dir: DIR }), 'done');
    assert.equal(await chartPainted(again), 'painted');
    const kept = await again.locator('.tl-side').evaluate((s) => Math.round(s.getBoundingClientRect().width));
    assert.equal(kept, 640, 'kept for the next visit');
    await again.evaluate(() => localStorage.removeItem('scope-speedscope.side-width'));
    await again.close();
    await assertAccessible(page, 'the side panel resized');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    assert.equal(await handle.isVisible(), false, 'no separator where the side is under the chart');
  });

  test('390 px, light and dark: nothing scrolls the page sideways', async () => {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(100);
      assert.ok((await noPageScroll(page)) <= 0, `${scheme}: the page scrolls sideways`);
      await page.locator('#tl-compare-table').scrollIntoViewIfNeeded();
      await screenshot(page, `tables-fit-compare-390-${scheme}.png`);
    }
    await assertAccessible(page, '390 px, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    assertSameOrigin(browser.log, browser.server.url.replace(/\/$/, ''));
  });
});
