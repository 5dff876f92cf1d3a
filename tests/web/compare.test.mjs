// Two runs compared on the page (issue 26): run B (pair_b_s3.h5) shown with
// All ranks, "Compare with…" run A (pair_a_s3.h5, the baseline): the table of
// both runs' regions in view is each run's regions() of that window joined
// by name, as the package gives them in Node (and the whole run's numbers
// are make_pair.py's, worked out by hand); B's bars are coloured by their
// ratio to A's (solve ×1.25 in the "slower" colour, halo, new in B, hatched
// grey), A's lanes follow B's; pointing at a call of B names both durations;
// the table sorts by keyboard; End comparison goes back to B alone; two files
// dropped at once are compared (the first is A); 390 px, dark mode, axe-core.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import { palette, ratioLevel, rgbOf } from '../../web/timeline/colors.js';
import { rowTexts, sortedRows } from '../../web/timeline/compare.js';
import { AXIS_H, HEADER_H, ROW_H } from '../../web/timeline/draw.js';
import {
  allRanks,
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  drop,
  errorText,
  fixtures,
  h5,
  nativeCli,
  openOptions,
  pick,
  screenshot,
  settle,
} from './harness.mjs';
import { startBrowser } from './harness.mjs';

const A = 'pair_a_s3.h5';
const B = 'pair_b_s3.h5';
const input = (name) => ({ name, bytes: new Uint8Array(readFileSync(join(fixtures, 'h5', name))) });

const tableRows = (page) =>
  page
    .locator('#tl-compare-rows tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));

// Waits until the comparison is painted and its table shows a window.
async function comparisonShown(page) {
  await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
  assert.equal(await chartPainted(page), 'painted');
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid=compare-table]');
    return t.dataset.windowEnd && t.tBodies[0].rows.length > 0;
  });
  return page.getByTestId('compare-table').evaluate((t) => ({
    start: Number(t.dataset.windowStart),
    end: Number(t.dataset.windowEnd),
  }));
}

// The canvas's pixels in [x, x + w) × [y, y + h) CSS px of the chart: [[r, g, b]].
const pixels = (page, x, y, w = 1, h = 1) =>
  page.evaluate(
    ([x0, y0, w0, h0]) => {
      const canvas = document.getElementById('tl-canvas');
      const k = canvas.width / canvas.clientWidth;
      const d = canvas
        .getContext('2d')
        .getImageData(
          Math.round(x0 * k),
          Math.round(y0 * k),
          Math.max(1, Math.round(w0 * k)),
          Math.max(1, Math.round(h0 * k)),
        ).data;
      const out = [];
      for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]);
      return out;
    },
    [x, y, w, h],
  );

// The y of the middle of row `depth` of the first lane (B's rank 0), in chart px.
const rowY = (depth) => AXIS_H + HEADER_H + depth * ROW_H + (ROW_H - 2) / 2;

describe('comparing two runs', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let sp;
  before(async () => {
    browser = await startBrowser();
    sp = await createScopeSpeedscope();
    page = await browser.openPage();
    assert.equal(await pick(page, [B]), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await allRanks(page);
  });
  after(async () => {
    await browser?.close();
  });

  test("Compare with… run A: the table is both runs' regions of the window, joined; the hand numbers", async () => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('compare-with').click()]);
    await chooser.setFiles(h5(A));
    const w = await comparisonShown(page);
    assert.deepEqual(w, { start: 0, end: 6001 }, 'the whole of the longer run (B: 5 steps of 1200 ns)');
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['B · rank 0', 'B · rank 1', 'A · rank 0', 'A · rank 1']);
    assert.match(
      await page.getByTestId('compare-runs').textContent(),
      /^pair_b_s3\.h5 \(B\) against pair_a_s3\.h5 \(A\)$/,
    );
    assert.ok(await page.getByTestId('ratio-legend').isVisible());
    assert.ok(await page.getByTestId('regions-table').isHidden(), 'the single run table gives way');
    assert.ok(await page.getByTestId('open-in-speedscope').isHidden());

    const cmp = await sp.compareRuns(input(A), input(B), { ranks: 'all' });
    try {
      const expected = sortedRows(cmp.regionsIn(w.start, w.end)).map((r) => rowTexts(r));
      assert.deepEqual(await tableRows(page), expected);
      // The window is each whole run: its rows are compareRuns' (diff's).
      for (const r of cmp.regions) {
        const row = expected.find((e) => e[0] === r.name);
        assert.deepEqual(row.slice(1, 4), rowTexts({ ...r, deltaTotalPct: null }).slice(1, 4), r.name);
      }
    } finally {
      cmp.close();
    }
    // make_pair.py's numbers, by hand: largest Δ first.
    assert.deepEqual(await tableRows(page), [
      ['step', '8 µs', '12 µs', '+4 µs', '+50.0 %'],
      ['solve', '4.8 µs', '7.5 µs', '+2.7 µs', '+56.3 %'],
      ['kernel', '3.2 µs', '5 µs', '+1.8 µs', '+56.3 %'],
      ['exchange', '3.2 µs', '4.5 µs', '+1.3 µs', '+40.6 %'],
      ['halo', '0 ns', '500 ns', '+500 ns', 'new in B'],
      ['io', '200 ns', '0 ns', '-200 ns', '-100.0 %'],
    ]);
    // Self time: solve 1.6 µs in A, 2.5 µs in B.
    await page.getByTestId('compare-metric').selectOption('self');
    const solve = (await tableRows(page)).find((r) => r[0] === 'solve');
    assert.deepEqual(solve, ['solve', '1.6 µs', '2.5 µs', '+900 ns', '+56.3 %']);
    await page.getByTestId('compare-metric').selectOption('total');
  });

  test("B's bars coloured by their ratio: solve slower, halo (no partner) hatched grey", async () => {
    const box = await page.getByTestId('timeline').boundingBox();
    const xOf = (t) => (t * box.width) / 6001;
    // Step 0's solve: [0, 750) at depth 1, ×1.25; a pixel right of its label.
    const [solve] = await pixels(page, xOf(650), rowY(1) - 4);
    const want = rgbOf(palette(false).ratio[ratioLevel(1.25)]);
    assert.ok(
      solve.every((v, i) => Math.abs(v - want[i]) <= 3),
      `solve in the slower colour: ${solve} against ${want}`,
    );
    assert.ok(solve[0] > solve[2] + 60, `orange-red: ${solve}`);
    // Step 0's halo: [750, 800) at depth 2, no partner in A: grey stripes, light and dark.
    const halo = await pixels(page, xOf(750) + 1, rowY(2) - 6, Math.max(1, xOf(800) - xOf(750) - 3), 12);
    assert.ok(
      halo.every(([r, g, b]) => Math.abs(r - g) <= 4 && Math.abs(g - b) <= 4),
      `halo grey: ${JSON.stringify(halo.slice(0, 8))}`,
    );
    assert.ok(halo.some(([r]) => r <= 0xa0) && halo.some(([r]) => r >= 0xe0), 'hatched: light and dark stripes');
  });

  test('pointing at a call of B names its duration and its partner in A', async () => {
    const box = await page.getByTestId('timeline').boundingBox();
    const xOf = (t) => box.x + (t * box.width) / 6001;
    await page.mouse.move(xOf(650), box.y + rowY(1));
    const details = page.getByTestId('call-details');
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details] [data-field=baseline]'));
    assert.equal(await details.locator('[data-field=name]').textContent(), 'solve');
    assert.equal(await details.locator('[data-field=duration]').textContent(), '750 ns');
    assert.equal(await details.locator('[data-field=baseline]').textContent(), '600 ns, B ×1.25 (slower)');
    await page.mouse.move(xOf(775), box.y + rowY(2));
    await page.waitForFunction(
      () => document.querySelector('[data-testid=call-details] [data-field=name]')?.textContent === 'halo',
    );
    assert.equal(await details.locator('[data-field=baseline]').textContent(), 'no partner in A');
    assert.match(await details.innerText(), /Duration in B\s*50 ns/);
    // By keyboard: Enter steps into the calls at B's first, step 0 (1.2 µs against 1 µs).
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=call-details] [data-field=name]')?.textContent === 'step',
    );
    assert.equal(await details.locator('[data-field=baseline]').textContent(), '1 µs, B ×1.2 (slower)');
    await page.keyboard.press('Escape');
    await assertAccessible(page, 'comparison at 1400 px');
    await page.mouse.move(xOf(650), box.y + rowY(1));
    await screenshot(page, 'compare-1400.png');
  });

  test('the table sorts by keyboard: Δ ascending puts what got faster first', async () => {
    await page.locator('#tl-compare-table th[data-sort=delta] button').focus();
    await page.keyboard.press('Enter');
    const th = page.locator('#tl-compare-table th[data-sort=delta]');
    assert.equal(await th.getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(
      (await tableRows(page)).map((r) => r[0]),
      ['io', 'halo', 'exchange', 'kernel', 'solve', 'step'],
    );
    await page.keyboard.press('Enter');
    assert.equal(await th.getAttribute('aria-sort'), 'descending');
    assert.equal((await tableRows(page))[0][0], 'step');
  });

  test('a region picked in the table is marked there; other ranks compare again with them', async () => {
    const solve = page.locator('#tl-compare-rows tr[data-name=solve] button');
    await solve.click();
    assert.equal(await solve.getAttribute('aria-pressed'), 'true');
    await solve.click();
    assert.equal(await solve.getAttribute('aria-pressed'), 'false');
    await openOptions(page);
    assert.equal(await settle(page, 'attempts', () => page.getByTestId('rank-all').uncheck()), 'done');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=timeline-lanes] .tl-lane-name').length === 2,
    );
    await comparisonShown(page);
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['B · rank 0', 'A · rank 0'], 'rank 0 of each run');
    const cmp = await sp.compareRuns(input(A), input(B), { ranks: [0] });
    try {
      const w = await page.getByTestId('compare-table').evaluate((t) => [t.dataset.windowStart, t.dataset.windowEnd]);
      const [start, end] = w.map(Number);
      const expected = sortedRows(cmp.regionsIn(start, end)).map((r) => rowTexts(r));
      await page.waitForFunction(
        (n) => document.querySelector('#tl-compare-rows tr [data-field=a]')?.textContent === n,
        expected[0][1],
      );
      assert.deepEqual(await tableRows(page), expected);
      assert.equal(expected[1][1], '2.4 µs', 'solve on rank 0 of A: 4 calls of 600 ns');
    } finally {
      cmp.close();
    }
    assert.equal(await settle(page, 'attempts', () => page.getByTestId('rank-all').check()), 'done');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=timeline-lanes] .tl-lane-name').length === 4,
    );
    await comparisonShown(page);
    await page.getByTestId('options-toggle').click();
  });

  test('End comparison: back to run B alone', async () => {
    await page.getByTestId('compare-end').click();
    await page.waitForFunction(() => !document.body.dataset.compare);
    assert.equal(await chartPainted(page), 'painted');
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['rank 0', 'rank 1']);
    assert.ok(await page.getByTestId('compare-table').isHidden());
    assert.ok(await page.getByTestId('ratio-legend').isHidden());
    assert.ok(await page.getByTestId('regions-table').isVisible());
    assert.ok(await page.getByTestId('open-in-speedscope').isVisible());
  });

  test('a damaged run A: its message, naming it once, and run B alone again', async () => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('compare-with').click()]);
    await chooser.setFiles(h5('index_offset_wraps.h5', 'bad'));
    const text = await errorText(page);
    assert.match(text, /The comparison could not be opened: The file is damaged/);
    assert.equal(text.split('index_offset_wraps.h5').length - 1, 1, text);
    await page.waitForFunction(() => !document.body.dataset.compare);
    assert.equal(await chartPainted(page), 'painted');
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['rank 0', 'rank 1']);
  });

  test("over the whole run the table is diff --json's rows, also where kernel nests in itself", async () => {
    const [nA, nB] = ['nested_pair_a_s3.h5', 'nested_pair_b_s3.h5'];
    assert.equal(await drop(page, [nA, nB]), 'done');
    await comparisonShown(page); // the whole of the longer run, at first
    const run = (side) => join(fixtures, 'h5', side);
    const diff = spawnSync(nativeCli, ['diff', run(nA), run(nB), '--json'], { encoding: 'utf8' });
    assert.equal(diff.status, 0, diff.stderr);
    const rows = JSON.parse(diff.stdout).regions.map((r) => ({ ...r, deltaTotalPct: null }));
    await page.getByTestId('compare-metric').selectOption('self');
    assert.deepEqual(
      await tableRows(page),
      rows.map((r) => rowTexts(r, 'self')),
    );
    assert.equal((await tableRows(page))[0][1], '6.376 µs', "kernel's self time in A on rank 0");
    await page.getByTestId('compare-metric').selectOption('total');
    const byName = new Map((await tableRows(page)).map((r) => [r[0], r]));
    for (const r of rows) {
      assert.deepEqual(byName.get(r.name).slice(1, 4), rowTexts(r, 'total').slice(1, 4), r.name);
    }
    assert.equal(byName.get('kernel')[1], '6.717 µs', "diff's total of kernel in A, inner calls counted");
  });

  test('two files dropped at once are compared (the first is A); 390 px and dark mode', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await drop(page, [A, B]), 'done');
    await comparisonShown(page);
    assert.match(
      await page.getByTestId('compare-runs').textContent(),
      /^pair_b_s3\.h5 \(B\) against pair_a_s3\.h5 \(A\)$/,
    );
    const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
    assert.deepEqual(lanes, ['B · rank 0', 'A · rank 0'], 'the default rank of each');
    assert.equal(await page.getByTestId('output-select').inputValue(), '1', "the download is B's");
    await page.getByTestId('ratio-legend').scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px too wide)`);
    for (const id of ['ratio-legend', 'compare-end', 'compare-table']) {
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 390, `${id} fits: ${JSON.stringify(b)}`);
    }
    await assertAccessible(page, 'comparison at 390 px, dark');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'compare-390-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'compare-390.png');
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
