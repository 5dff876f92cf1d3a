// The Ranks panel: "All ranks" in the options opens every rank of the file
// (openTimeline's ranks: 'all'), and the panel beside the regions table
// gives the visible window's imbalance per region, checked against the
// known answers of the fixture (tests/fixtures/gen/make_ranks.py: 4 ranks,
// 5 steps of 1000 ns; solve 600 ns except rank 2 at step 3, 900 ns), and
// against the core over the same window; sorting; choosing a region by
// keyboard shows its rank × step heatmap, whose cells name themselves and
// zoom the timeline to their step; a single rank gets a note; 390 px, dark
// mode and axe-core at zero violations. Then the ranks as bands: collapsed,
// one row a rank, whose hover says the core's busy share (tl.busy) at that
// pixel; ordered latest first by the mean lateness of the core's
// alignedCalls in the window, following it (never during a drag); a rank
// expanded from its label shows its lanes; light and dark, 1400 and 390 px.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import { HEADER_H, ROW_H } from '../../web/timeline/draw.js';
import { hueIndex, palette } from '../../web/timeline/colors.js';
import { exactTime } from '../../web/timeline/format.js';
import { rowTexts } from '../../web/timeline/ranks.js';
import {
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  drop,
  fixtures,
  openInSpeedscope,
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

// The rank bands top to bottom: [rank, collapsed].
const bandList = (page) =>
  page.getByTestId('rank-band').evaluateAll((rows) => rows.map((r) => [Number(r.dataset.rank), r.dataset.collapsed]));
const bandRanks = async (page) => (await bandList(page)).map(([rank]) => rank);

// The ranks latest first as the definition says: each rank's mean lateness
// over the region's aligned calls in the window (a rank without one last),
// ties by rank number; worked out here from the core's numbers.
function latenessOrder(tl, frame, start, end) {
  const a = tl.alignedCalls(frame, start, end);
  const values = new Map(a.ranks.map((r) => [r, []]));
  a.rank.forEach((r, i) => values.get(r).push(a.lateness[i]));
  const mean = (r) => {
    const v = values.get(r);
    return v.length ? v.reduce((x, y) => x + y, 0) / v.length : -Infinity;
  };
  return [...a.ranks].sort((p, q) => mean(q) - mean(p) || p - q);
}

// Waits until the order control says it ordered the ranks latest first for
// a window other than `after`'s: { frame, start, end, order }.
async function latenessSettled(page, after = null) {
  await page.waitForFunction(
    (a) => {
      const d = document.querySelector('[data-testid=rank-order]').dataset;
      return (
        d.applied === 'lateness' && (!a || d.windowStart !== a.start || d.windowEnd !== a.end || d.frame !== a.frame)
      );
    },
    after && { start: String(after.start), end: String(after.end), frame: String(after.frame) },
  );
  return page.getByTestId('rank-order').evaluate((s) => ({
    frame: Number(s.dataset.frame),
    start: Number(s.dataset.windowStart),
    end: Number(s.dataset.windowEnd),
    order: s.dataset.order.split(',').map(Number),
  }));
}

// The view zoomed to a heatmap cell's step (from the whole run). Returns the
// whole run's order, once applied: the cell's order is the next one (waiting
// for a change from an earlier state could catch the whole run's instead).
async function zoomToCell(page, r, c) {
  await page.getByTestId('timeline').focus();
  await page.keyboard.press('0');
  await page.waitForFunction(() => document.querySelector('[data-testid=rank-heatmap]').dataset.cols === '5');
  await page.waitForFunction(() => {
    const d = document.querySelector('[data-testid=rank-order]').dataset;
    return d.applied === 'lateness' && d.windowStart === '0';
  });
  const whole = await latenessSettled(page);
  const p = await cellPoint(page, r, c);
  await page.mouse.click(p.x, p.y);
  return whole;
}

describe('the ranks as bands', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let tl;
  before(async () => {
    browser = await startBrowser();
    const sp = await createScopeSpeedscope();
    tl = await sp.openTimeline(input(FIXTURE), { ranks: 'all' });
    page = await browser.openPage();
    assert.equal(await drop(page, [FIXTURE]), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await chooseRanks(page, () => page.getByTestId('rank-all').check());
    await imbalanceSettled(page, 3);
  });
  after(async () => {
    tl?.close();
    await browser?.close();
  });

  test('four ranks open expanded; collapsed, each rank is one thin band, in rank order', async () => {
    assert.deepEqual(await bandList(page), [
      [0, 'false'],
      [1, 'false'],
      [2, 'false'],
      [3, 'false'],
    ]);
    const collapse = page.getByTestId('bands-collapse');
    assert.equal(await collapse.textContent(), 'Collapse all ranks');
    await collapse.click();
    assert.equal(await collapse.textContent(), 'Expand all ranks');
    assert.deepEqual(await bandList(page), [
      [0, 'true'],
      [1, 'true'],
      [2, 'true'],
      [3, 'true'],
    ]);
    // One under the other right below the axis, nothing in between.
    const chart = await page.getByTestId('timeline').boundingBox();
    const boxes = await page.getByTestId('rank-band').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect()));
    assert.ok(Math.abs(boxes[0].y - (chart.y + 26)) < 0.5, `the first band below the axis: ${boxes[0].y}`);
    boxes.forEach((b, i) => {
      assert.ok(b.height >= 12 && b.height <= 16, `a thin band: ${b.height} px`);
      if (i) assert.ok(Math.abs(b.y - (boxes[i - 1].y + boxes[i - 1].height)) < 0.5, `band ${i} follows`);
    });
    // The lanes list: a button a rank, collapsed, no lane.
    const buttons = page.locator('#tl-lanes .tl-rank');
    assert.deepEqual(await buttons.locator('.tl-rank-name').allTextContents(), [
      'rank 0',
      'rank 1',
      'rank 2',
      'rank 3',
    ]);
    assert.deepEqual(await buttons.evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded'))), [
      'false',
      'false',
      'false',
      'false',
    ]);
    assert.equal(await page.locator('#tl-lanes .tl-lane-name').count(), 0);
    // The bands show regions: step spans each rank, so the depth below it.
    assert.equal(await page.getByTestId('band-mode').inputValue(), 'auto');
    assert.deepEqual(
      await page
        .getByTestId('band-mode')
        .locator('option')
        .evaluateAll((os) => os.map((o) => [o.value, o.textContent])),
      [
        ['auto', "regions (each rank's depth)"],
        ['0', 'regions at depth 0'],
        ['1', 'regions at depth 1'],
        ['busy', 'how busy each rank is'],
      ],
    );
    await page.waitForFunction(() => document.querySelector('[data-testid=band-legend]').dataset.frames === '1,2');
    const bandLegend = (await page.getByTestId('band-legend').textContent()).replace(/\s+/g, ' ').trim();
    assert.equal(bandLegend, 'At depth 1:solveexchange');
    assert.equal(await page.getByTestId('busy-legend').isVisible(), false);
    await page.getByTestId('band-mode').selectOption('busy');
    const legend = (await page.getByTestId('busy-legend').textContent()).replace(/\s+/g, ' ').trim();
    assert.match(legend, /^Busy 0 % 100 %: /);
    assert.equal(await page.getByTestId('band-legend').isVisible(), false);
    assert.equal(await page.getByTestId('rank-order').inputValue(), 'rank');
  });

  test("pointing at a band names its rank and the core's busy share at that pixel", async () => {
    const chart = await page.getByTestId('timeline').boundingBox();
    const view = await viewOf(page);
    const shares = [];
    // The middle of rank 2's band, and the last pixel of rank 1's (the run
    // ends 1 ns after the last call: not busy all the time).
    for (const [rank, x] of [
      [2, Math.floor(chart.width / 2) + 0.5],
      [1, chart.width - 0.5],
    ]) {
      const band = await page.locator(`[data-testid=rank-band][data-rank="${rank}"]`).boundingBox();
      await page.mouse.move(chart.x + x, band.y + band.height / 2);
      await page.waitForFunction((r) => {
        const box = document.querySelector('[data-testid=call-details]');
        return box.dataset.state === 'busy' && box.querySelector('[data-field=busy]').dataset.rank === String(r);
      }, rank);
      const field = page.locator('[data-testid=call-details] [data-field=busy]');
      const { pixel, width } = await field.evaluate((f) => ({
        pixel: Number(f.dataset.pixel),
        width: Number(f.dataset.width),
      }));
      assert.equal(width, Math.round(chart.width));
      assert.equal(pixel, Math.floor((x * width) / chart.width), 'the pixel under the pointer');
      const lanes = tl.lanes.flatMap((l, i) => (l.rank === rank ? [i] : []));
      const share = tl.busy(lanes, view.start, view.end, width)[pixel];
      const time = Math.round(view.start + ((pixel + 0.5) * (view.end - view.start)) / width);
      assert.equal(await field.textContent(), `rank ${rank}: busy ${Math.round(share * 100)} % at ${exactTime(time)}`);
      shares.push(share);
    }
    assert.equal(shares[0], 1, 'busy all the time in the middle of the run');
    assert.ok(shares[1] > 0 && shares[1] < 1, `the last pixel is partly busy: ${shares[1]}`);
    await page.mouse.move(chart.x + 10, chart.y + chart.height - 10);
    await page.getByTestId('band-mode').selectOption('auto');
  });

  test("a band shows the core's region at each pixel, and names it where pointed at", async () => {
    const chart = await page.getByTestId('timeline').boundingBox();
    const view = await viewOf(page);
    const width = Math.round(chart.width);
    const fill = palette(false).fillRgb;
    const colourOf = (frame) => fill[hueIndex(tl.frames[frame])].match(/\d+/g).map(Number);
    for (const [mode, depth] of [
      ['auto', 1],
      ['0', 0],
    ]) {
      await page.getByTestId('band-mode').selectOption(mode);
      await page.waitForFunction(
        (d) => document.querySelector('[data-testid=band-legend]').textContent.startsWith(`At depth ${d}:`),
        depth,
      );
      for (const rank of [0, 2]) {
        const lanes = tl.lanes.flatMap((l, i) => (l.rank === rank ? [i] : []));
        assert.equal(tl.bandDepth(lanes), 1);
        const want = tl.bandFrames(lanes, depth, view.start, view.end, width);
        const band = await page.locator(`[data-testid=rank-band][data-rank="${rank}"]`).boundingBox();
        // Pixels whose neighbours show the same region (a pixel at a change
        // may take either side's column from the cached level).
        const xs = [];
        for (let x = 80; x < width - 1 && xs.length < 12; x += 37) {
          if (want[x] >= 0 && want[x - 1] === want[x] && want[x + 1] === want[x]) xs.push(x);
        }
        assert.ok(xs.length >= 8, `pixels to check: ${xs}`);
        const y = band.y - chart.y + band.height / 2 + 2;
        const read = () =>
          page.evaluate(
            ([points, yy]) => {
              const canvas = document.getElementById('tl-canvas');
              const k = canvas.width / canvas.clientWidth;
              const ctx = canvas.getContext('2d');
              return points.map((x) =>
                [...ctx.getImageData(Math.round((x + 0.5) * k), Math.round(yy * k), 1, 1).data].slice(0, 3),
              );
            },
            [xs, y],
          );
        const matches = (got) => xs.every((x, i) => got[i].every((v, c) => Math.abs(v - colourOf(want[x])[c]) <= 1));
        // The legend follows the first rows drawn at the new depth; a band
        // whose answer is still on its way is drawn when it comes.
        let got = await read();
        for (const until = Date.now() + 10_000; !matches(got) && Date.now() < until;) {
          await page.waitForTimeout(50);
          got = await read();
        }
        xs.forEach((x, i) => {
          const expected = colourOf(want[x]);
          assert.ok(
            got[i].every((v, c) => Math.abs(v - expected[c]) <= 1),
            `rank ${rank} depth ${depth} pixel ${x}: ${got[i]} is ${tl.frames[want[x]]}'s ${expected}`,
          );
        });
      }
    }
    // Depth 1 (auto) again; pointing at rank 2's band names the core's region.
    await page.getByTestId('band-mode').selectOption('auto');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=band-legend]').textContent.startsWith('At depth 1:'),
    );
    const band = await page.locator('[data-testid=rank-band][data-rank="2"]').boundingBox();
    const x = Math.floor(chart.width * 0.7) + 0.5;
    await page.mouse.move(chart.x + x, band.y + band.height / 2);
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'band');
    const field = page.locator('[data-testid=call-details] [data-field=band]');
    const pixel = Number(await field.getAttribute('data-pixel'));
    const lanes = tl.lanes.flatMap((l, i) => (l.rank === 2 ? [i] : []));
    const frame = tl.bandFrames(lanes, 1, view.start, view.end, width)[pixel];
    const time = Math.round(view.start + ((pixel + 0.5) * (view.end - view.start)) / width);
    assert.equal(
      await field.textContent(),
      `rank 2: ${tl.frames[frame]} at ${exactTime(time)} (its band shows depth 1)`,
    );
    assert.equal(await field.getAttribute('data-frame'), String(frame));
    await page.mouse.move(chart.x + 10, chart.y + chart.height - 10);
    await assertAccessible(page, 'bands by region');
  });

  test('latest first: the mean lateness in the chosen region (else the widest spread), following the window', async () => {
    await page.getByTestId('rank-order').selectOption('lateness');
    // No region chosen: the imbalance table's first row, solve (every step
    // starts together on every rank: no rank is late, so by rank).
    const first = await latenessSettled(page);
    assert.equal(tl.frames[first.frame], 'solve');
    assert.equal(first.frame, tl.imbalance(first.start, first.end)[0].frame);
    const expected = latenessOrder(tl, first.frame, first.start, first.end);
    assert.deepEqual(first.order, expected);
    assert.deepEqual(await bandRanks(page), expected);
    // exchange chosen: rank 2 starts it 300 ns late at step 3.
    await page.locator('#tl-imbalance button', { hasText: 'exchange' }).click();
    const second = await latenessSettled(page, first);
    assert.equal(tl.frames[second.frame], 'exchange');
    const late = latenessOrder(tl, second.frame, second.start, second.end);
    assert.equal(late[0], 2, 'rank 2 is the late one');
    assert.deepEqual(second.order, late);
    assert.deepEqual(await bandRanks(page), late);
    assert.match(await page.getByTestId('rank-order-note').textContent(), /^in exchange, /);
    // The order follows the window: step 1 alone (no rank late), then step 3.
    const step1 = await latenessSettled(page, await zoomToCell(page, 0, 1));
    assert.deepEqual(step1.order, latenessOrder(tl, step1.frame, step1.start, step1.end));
    assert.deepEqual(step1.order, [0, 1, 2, 3]);
    assert.deepEqual(await bandRanks(page), [0, 1, 2, 3]);
    const step3 = await latenessSettled(page, await zoomToCell(page, 2, 3));
    assert.deepEqual(step3.order, latenessOrder(tl, step3.frame, step3.start, step3.end));
    assert.deepEqual(await bandRanks(page), step3.order);
    assert.equal(step3.order[0], 2);
  });

  test('never reordered during a drag: the new order comes when the pointer lets go', async () => {
    const before = await latenessSettled(page);
    const chart = await page.getByTestId('timeline').boundingBox();
    const y = chart.y + chart.height - 40; // below the bands
    await page.mouse.move(chart.x + 20, y);
    await page.mouse.down();
    // Dragged right nearly the chart's width: the window moves back before
    // step 3's exchange, where no call of it starts (no rank late).
    await page.mouse.move(chart.x + chart.width - 20, y, { steps: 12 });
    await page.waitForTimeout(800); // well past the Ranks panel's delay
    const held = await page.getByTestId('rank-order').evaluate((s) => ({ ...s.dataset }));
    assert.equal(held.windowStart, String(before.start), 'no new order while the pointer drags');
    assert.deepEqual(await bandRanks(page), before.order);
    await page.mouse.up();
    const after = await latenessSettled(page, before);
    assert.ok(after.end < before.end, JSON.stringify([before, after]));
    assert.deepEqual(after.order, latenessOrder(tl, after.frame, after.start, after.end));
    assert.deepEqual(after.order, [0, 1, 2, 3]);
    assert.deepEqual(await bandRanks(page), [0, 1, 2, 3]);
  });

  test("a rank expanded from its band's label shows its lanes; the lanes list collapses it again", async () => {
    await page.getByTestId('rank-order').selectOption('rank');
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('0');
    const band = page.locator('[data-testid=rank-band][data-rank="2"]');
    const b = await band.boundingBox();
    const below = await page.locator('[data-testid=rank-band][data-rank="3"]').boundingBox();
    await page.mouse.click(b.x + 8, b.y + b.height / 2);
    assert.deepEqual(await bandList(page), [
      [0, 'true'],
      [1, 'true'],
      [2, 'false'],
      [3, 'true'],
    ]);
    assert.equal(await page.getByTestId('bands-collapse').textContent(), 'Collapse all ranks');
    // Its lane, in the lanes list under it and on the chart below its band.
    const item = page.locator('.tl-rank-item', { has: page.locator('.tl-rank[data-rank="2"]') });
    assert.deepEqual(await item.locator('.tl-lane-name').allTextContents(), ['rank 2']);
    assert.equal(await page.locator('#tl-lanes .tl-lane-name').count(), 1);
    const lane = tl.lanes.findIndex((l) => l.rank === 2);
    const laneHeight = HEADER_H + (tl.lanes[lane].maxDepth + 1) * ROW_H + 6;
    const moved = await page.locator('[data-testid=rank-band][data-rank="3"]').boundingBox();
    assert.ok(Math.abs(moved.y - below.y - laneHeight) < 0.5, `rank 3 moved down by the lane: ${moved.y - below.y}`);
    await page.mouse.move(b.x + 120, b.y + b.height + HEADER_H + ROW_H / 2);
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'call');
    const fields = await page
      .locator('[data-testid=call-details] dd[data-field]')
      .evaluateAll((dds) => Object.fromEntries(dds.map((d) => [d.dataset.field, d.textContent])));
    assert.equal(fields.lane, 'rank 2');
    assert.equal(fields.name, 'step');
    assert.equal(fields.depth, '0');
    // The keyboard: the rank's button in the lanes list collapses it.
    await page.locator('.tl-rank[data-rank="2"]').focus();
    await page.keyboard.press('Enter');
    assert.equal(await band.getAttribute('data-collapsed'), 'true');
    assert.equal(await page.locator('.tl-rank[data-rank="2"]').getAttribute('aria-expanded'), 'false');
  });

  test('light and dark, 1400 and 390 px: the bands fit, no sideways scrolling, no axe violations', async () => {
    for (const [width, height] of [
      [1400, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.evaluate(() => document.getElementById('work').scrollIntoView());
        await page.waitForTimeout(300);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `no horizontal scrolling at ${width} px (${overflow} px too wide)`);
        for (const id of ['bands-collapse', 'rank-order', 'band-mode', 'band-legend']) {
          const box = await page.getByTestId(id).boundingBox();
          assert.ok(box.x >= 0 && box.x + box.width <= width, `${id} fits at ${width} px: ${JSON.stringify(box)}`);
        }
        const chart = await page.getByTestId('timeline').boundingBox();
        assert.ok(chart.height >= 0.5 * height, `the chart keeps most of the height (${chart.height})`);
        await screenshot(page, `rank-bands-${width}-${scheme}.png`);
        await assertAccessible(page, `rank bands, ${width} px, ${scheme}`);
      }
    }
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test("All ranks over speedscope's budget: rank 0's download goes; Open in speedscope writes every rank's window", async () => {
    // 0.05 MB: rank 0 (15 calls, 21 KB in speedscope) fits, the four ranks (84 KB) do not.
    const budgeted = await browser.openPage('?viewer-budget-mb=0.05');
    try {
      assert.equal(await drop(budgeted, [FIXTURE]), 'done');
      assert.equal(await chartPainted(budgeted), 'painted');
      assert.ok(await budgeted.getByTestId('download').isVisible());
      await openOptions(budgeted);
      assert.equal(await settle(budgeted, 'attempts', () => budgeted.getByTestId('rank-all').check()), 'waiting');
      assert.equal(await chartPainted(budgeted), 'painted');
      assert.ok(await budgeted.getByTestId('download').isHidden(), "rank 0's download is not this selection's");
      assert.equal(await budgeted.getByTestId('download').getAttribute('href'), null);
      await budgeted.getByTestId('options-toggle').click();
      // The whole run does not fit: a window of every rank, written for speedscope, not rank 0's document.
      assert.equal(await openInSpeedscope(budgeted), 'painted');
      const title = budgeted.getByTestId('viewer-title');
      assert.notEqual(await title.getAttribute('data-time-window'), null);
      assert.match(await title.textContent(), /^speedscope: ranks_imbalance_s3\.h5, .* \((\d+) calls\)$/);
      const calls = Number((await title.textContent()).match(/\((\d+) calls\)$/)[1]);
      assert.ok(calls > 15 && calls <= 35, `every rank's calls in a window that fits: ${calls}`);
    } finally {
      await budgeted.close();
    }
  });

  test('no request left the origin, and nothing was blocked (bands)', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
