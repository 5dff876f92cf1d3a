// Lining two compared runs up at a call (issue 35): pair_b_s3.h5 (B) with
// All ranks compared with pair_a_s3.h5 (A) (tests/fixtures/gen/make_pair.py:
// A's steps are 1 µs, B's 1.2 µs). "Align at this call" on B's solve of
// step 3 (3.6 µs) draws A 600 ns later, so that A's solve of step 3 (3 µs in
// A) starts on the same pixel column; pointing at it names A's own times;
// "Align at origins" puts it back; by keyboard too; the alignment is in the
// link (restored when both runs are dropped) and a history entry. A's io,
// which B lacks, is hatched as "no partner"; A's merged blocks (a run
// compared with itself, 106,015 calls on 1,400 px) are never hatched.
// Lined up so that A starts before B's origin, the chart's time starts
// below 0. 1400 and 390 px, dark, axe-core.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hueIndex, palette, ratioLevel, rgbOf } from '../../web/timeline/colors.js';
import { AXIS_H, BAND_GAP, HEADER_H, ROW_H } from '../../web/timeline/draw.js';
import { fragmentToView } from '../../web/view-link.js';
import {
  allRanks,
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  drop,
  fixtures,
  h5,
  pick,
  screenshot,
  settle,
  startBrowser,
} from './harness.mjs';

const A = 'pair_a_s3.h5';
const B = 'pair_b_s3.h5';
const DEPTHS = 3; // every lane of the pair: step; solve, exchange; kernel, halo (io at 0)

// The middle of row `depth` of lane `lane` (lanes of 3 depths, none
// collapsed, no rank rows), in chart px.
const rowY = (lane, depth) =>
  AXIS_H + lane * (HEADER_H + DEPTHS * ROW_H + BAND_GAP) + HEADER_H + depth * ROW_H + (ROW_H - 2) / 2;

// The canvas's pixels of row y (CSS px, dpr 1) from x0 to x1: [[r, g, b]].
const rowPixels = (page, y, x0, x1) =>
  page.evaluate(
    ([y0, a, b]) => {
      const canvas = document.getElementById('tl-canvas');
      const d = canvas.getContext('2d').getImageData(a, Math.round(y0), b - a, 1).data;
      const out = [];
      for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]);
      return out;
    },
    [y, x0, x1],
  );

const near = (p, q, tolerance = 2) => p.every((v, i) => Math.abs(v - q[i]) <= tolerance);

// The first pixel column in (x0, x1) of row y where a bar of colour `rgb`
// starts (that colour, the column before it another: bars of one colour
// back to back keep a pixel's gap), or -1.
async function firstColumn(page, y, x0, x1, rgb) {
  const row = await rowPixels(page, y, x0, x1);
  const i = row.findIndex((p, k) => k > 0 && near(p, rgb) && !near(row[k - 1], rgb));
  return i < 0 ? -1 : x0 + i;
}

const view = (page) =>
  page
    .getByTestId('timeline')
    .evaluate((c) => ({ start: Number(c.dataset.viewStart), end: Number(c.dataset.viewEnd) }));
const field = (page, name) => page.locator(`[data-testid=call-details] [data-field=${name}]`).textContent();
const note = (page) => page.getByTestId('align-note').textContent();
const hashView = async (page) => fragmentToView(await page.evaluate(() => window.location.hash)).view;

async function comparisonPainted(page) {
  await page.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
  assert.equal(await chartPainted(page), 'painted');
}

// Waits until the chart drew its bars after a change (two frames, then
// until a pixel of `rgb` shows on row y between x0 and x1).
async function drawn(page, y, x0, x1, rgb) {
  for (let i = 0; i < 50; i++) {
    if ((await firstColumn(page, y, x0, x1, rgb)) >= 0) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`no ${rgb} on row ${y} from ${x0} to ${x1}`);
}

describe('lining two compared runs up at a call', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let box;
  const light = palette(false);
  const solveA = rgbOf(hslHex(light.fill[hueIndex('solve')]));
  const stepA = rgbOf(hslHex(light.fill[hueIndex('step')]));
  // x of time t (ns) in the view [start, end) on the chart's width.
  let xOf = () => 0;

  before(async () => {
    browser = await startBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.server.url });
    page = await browser.openPage();
    assert.equal(await pick(page, [B]), 'done');
    assert.equal(await chartPainted(page), 'painted');
    await allRanks(page);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('compare-with').click()]);
    await chooser.setFiles(h5(A));
    await comparisonPainted(page);
    box = await page.getByTestId('timeline').boundingBox();
    const v = await view(page);
    assert.deepEqual(v, { start: 0, end: 6001 });
    xOf = (t) => ((t - v.start) * box.width) / (v.end - v.start);
  });
  after(async () => {
    await browser?.close();
  });
  // The chart's box and x of time t on it, as the chart is now.
  async function measure(p = page) {
    box = await p.getByTestId('timeline').boundingBox();
    const v = await view(p);
    xOf = (t) => ((t - v.start) * box.width) / (v.end - v.start);
  }

  test("A's io, which B lacks, is hatched as no partner; its steps in their own colour", async () => {
    await measure();
    assert.equal(await note(page), 'Both runs from their origins.');
    assert.ok(await page.getByTestId('align-at-origin').isHidden());
    await drawn(page, rowY(2, 0), 0, 20, stepA);
    // io: [4000, 4100) of A's rank 0, depth 0: grey stripes, light and dark.
    const io = await rowPixels(page, rowY(2, 0) - 3, Math.ceil(xOf(4000)) + 1, Math.floor(xOf(4100)) - 2);
    assert.ok(io.length >= 8, `io is ${io.length} px wide`);
    assert.ok(
      io.every(([r, g, b]) => Math.abs(r - g) <= 4 && Math.abs(g - b) <= 4),
      `io grey: ${JSON.stringify(io.slice(0, 8))}`,
    );
    assert.ok(io.some(([r]) => r <= 0xa0) && io.some(([r]) => r >= 0xe0), 'hatched: light and dark stripes');
    // The legend says what the hatching means on either side.
    assert.match(await page.getByTestId('ratio-legend').innerText(), /no partner in the other run/);
    // Pointed at: A's own numbers and no partner in B.
    await page.mouse.move(box.x + xOf(4050), box.y + rowY(2, 0));
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details] [data-field=partner]'));
    assert.equal(await field(page, 'name'), 'io');
    assert.equal(await field(page, 'partner'), 'no partner in B');
    assert.equal(await field(page, 'start'), '4 µs');
  });

  test("Align at this call: A's partner of B's solve starts on the same pixel column", async () => {
    await measure();
    // Before: A's solve of step 3 starts at 3 µs, B's at 3.6 µs.
    const y = rowY(2, 1);
    await drawn(page, y, 0, box.width, solveA);
    assert.equal(
      await firstColumn(page, y, Math.round(xOf(2900)), Math.round(xOf(3500)), solveA),
      Math.round(xOf(3000)),
    );
    const entries = await page.evaluate(() => window.history.length);
    // A click selects B's solve of step 3 on rank 0; the details offer the action.
    await page.mouse.click(box.x + xOf(3700), box.y + rowY(0, 1));
    await page.mouse.move(box.x + box.width / 2, box.y - 40); // off the chart: the details show the selection
    const align = page.getByTestId('align-at-call');
    await align.waitFor();
    assert.equal(await field(page, 'name'), 'solve');
    assert.equal(await field(page, 'start'), '3.6 µs');
    await align.click();
    await page.waitForFunction(() => /^Lined up/.test(document.querySelector('[data-testid=align-note]').textContent));
    assert.equal(await note(page), 'Lined up at solve (B · rank 0, 3.6 µs): A drawn later by 600 ns.');
    assert.ok(await page.getByTestId('align-at-origin').isVisible());
    // The view is B's whole run still (A's end, 4.1 µs + 600 ns, is within it).
    assert.deepEqual(await view(page), { start: 0, end: 6001 });
    // B's solve starts at column round(x(3600)), in its ratio colour; A's solve, its partner, on the same column.
    // (B's solve on rank 1: the selected one on rank 0 has the selection's outline on its edge.)
    // Drawn anew once aligned (its ratio colour comes with the bars asked again): waited for.
    const bRatio = rgbOf(light.ratio[ratioLevel(1.25)]);
    await drawn(page, rowY(1, 1), Math.round(xOf(3500)), Math.round(xOf(3700)), bRatio);
    const bSolve = await firstColumn(page, rowY(1, 1), Math.round(xOf(3500)), Math.round(xOf(3700)), bRatio);
    assert.equal(bSolve, Math.round(xOf(3600)));
    await drawn(page, y, Math.round(xOf(3500)), Math.round(xOf(3700)), solveA);
    assert.equal(await firstColumn(page, y, Math.round(xOf(3400)), Math.round(xOf(3800)), solveA), bSolve);
    // Every step of A moved 600 ns: step 1 from 1.6 µs, on both ranks of A.
    for (const lane of [2, 3]) {
      assert.equal(
        await firstColumn(page, rowY(lane, 0), Math.round(xOf(1500)), Math.round(xOf(1700)), stepA),
        Math.round(xOf(1600)),
        `A's lane ${lane}`,
      );
    }
    // Pointing at A's moved solve: A's own start, where it is drawn, B's duration.
    await page.mouse.move(box.x + xOf(3700), box.y + y);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=call-details] [data-field=drawn-at]')?.textContent === '3.6 µs',
    );
    assert.equal(await field(page, 'name'), 'solve');
    assert.equal(await field(page, 'start'), '3 µs');
    assert.equal(await field(page, 'duration'), '600 ns');
    assert.equal(await field(page, 'partner'), '750 ns, B ×1.25 (slower)');
    // A history entry, and the alignment in the fragment.
    await page.waitForFunction((n) => window.history.length > n, entries);
    const v = await hashView(page);
    assert.equal(v.partner, A);
    assert.equal(v.align.shift, 600);
    assert.deepEqual(
      { lane: v.align.lane, depth: v.align.depth, start: v.align.start },
      { lane: 0, depth: 1, start: 3600 },
    );
    await page.mouse.move(box.x + xOf(3700), box.y + rowY(0, 1));
    await screenshot(page, 'align-1400.png');
    await assertAccessible(page, 'aligned at a call, 1400 px');
  });

  test('the link restores the alignment; Back goes to the origins again', async () => {
    // The fragment's align field: a call of B and a signed shift, or said to be wrong.
    const base = 'v=1&file=b.h5&size=1&origin=5&ranks=all&t=-600-5401&lanes=&rows=&vs=a.h5';
    assert.deepEqual(fragmentToView(`#${base}&align=0.1.3600.2.-600`).view.align, {
      lane: 0,
      depth: 1,
      start: 3600,
      frame: 2,
      shift: -600,
    });
    assert.deepEqual(fragmentToView(`#${base}&align=0.1.3600.2.-600`).view.window, { start: -600, end: 5401 });
    assert.deepEqual(fragmentToView(`#${base}&align=0.1.x.2.5`), { error: 'align "0.1.x.2.5"' });
    assert.deepEqual(fragmentToView(`#${base}&align=0.1.3600.2`), { error: 'align "0.1.3600.2"' });
    await page.getByTestId('copy-link').click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(fragmentToView(new URL(link).hash).view.align.shift, 600);
    const other = await browser.openPage(new URL(link).hash);
    assert.equal(await drop(other, [A, B]), 'done');
    await comparisonPainted(other);
    await other.waitForFunction(() => /^Lined up/.test(document.querySelector('[data-testid=align-note]').textContent));
    assert.equal(await note(other), 'Lined up at solve (B · rank 0, 3.6 µs): A drawn later by 600 ns.');
    await drawn(other, rowY(2, 1), Math.round(xOf(3500)), Math.round(xOf(3700)), solveA);
    assert.equal(
      await firstColumn(other, rowY(2, 1), Math.round(xOf(3400)), Math.round(xOf(3800)), solveA),
      Math.round(xOf(3600)),
    );
    assert.equal(await other.evaluate(() => window.location.hash), new URL(link).hash);
    await other.close();
    // Back: the view before the alignment (the selection, the origins).
    await page.goBack();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=align-note]').textContent === 'Both runs from their origins.',
    );
    await drawn(page, rowY(2, 1), Math.round(xOf(2900)), Math.round(xOf(3100)), solveA);
    await page.goForward();
    await page.waitForFunction(() => /^Lined up/.test(document.querySelector('[data-testid=align-note]').textContent));
  });

  test('Align at origins, and by keyboard: A step of B selected with Space, the action with Enter', async () => {
    await measure();
    await page.getByTestId('align-at-origin').click();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=align-note]').textContent === 'Both runs from their origins.',
    );
    assert.ok(await page.getByTestId('align-at-origin').isHidden());
    await drawn(page, rowY(2, 1), Math.round(xOf(2900)), Math.round(xOf(3100)), solveA);
    assert.equal(
      await firstColumn(page, rowY(2, 1), Math.round(xOf(2800)), Math.round(xOf(3500)), solveA),
      Math.round(xOf(3000)),
    );
    assert.equal((await hashView(page)).align, null);
    // Keyboard: into the calls (B's first step), two steps on, select it, Tab to the action.
    await page.mouse.move(box.x + box.width / 2, box.y - 40);
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('Escape'); // out of the call the click focused
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('[data-testid=align-at-call]'));
    assert.equal(await field(page, 'start'), '2.4 µs');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'align-at-call');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /^Lined up/.test(document.querySelector('[data-testid=align-note]').textContent));
    assert.equal(await note(page), 'Lined up at step (B · rank 0, 2.4 µs): A drawn later by 400 ns.');
    // The focus stays on the action, drawn anew.
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'align-at-call');
    await drawn(page, rowY(2, 0), Math.round(xOf(2300)), Math.round(xOf(2500)), stepA);
    assert.equal(
      await firstColumn(page, rowY(2, 0), Math.round(xOf(2300)), Math.round(xOf(2500)), stepA),
      Math.round(xOf(2400)),
    );
    // Align at origins (in the comparison bar, above the chart) by keyboard: the focus goes to the chart.
    await page.getByTestId('align-at-origin').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=align-note]').textContent === 'Both runs from their origins.',
    );
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'timeline');
  });

  test('lined up so that A starts before B: the chart starts below 0; 390 px, dark', async () => {
    // The other way round: B is the faster run, so its partner in A starts later.
    assert.equal(await drop(page, [B, A]), 'done');
    await comparisonPainted(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const b = await page.getByTestId('timeline').boundingBox();
    let v = await view(page);
    assert.deepEqual(v, { start: 0, end: 6001 });
    // B (pair_a) rank 0's solve of step 3: [3000, 3600); its partner in A (pair_b) starts at 3.6 µs.
    await page.mouse.click(b.x + ((3300 - v.start) * b.width) / (v.end - v.start), b.y + rowY(0, 1));
    await page.getByTestId('align-at-call').click();
    await page.waitForFunction(() => /^Lined up/.test(document.querySelector('[data-testid=align-note]').textContent));
    assert.equal(await note(page), 'Lined up at solve (B · rank 0, 3 µs): A drawn earlier by 600 ns.');
    // The chart's time now runs from A's first call, 600 ns before B's origin, to A's last end.
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('0');
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.viewStart === '-600');
    v = await view(page);
    assert.deepEqual(v, { start: -600, end: 5401 });
    await page.waitForFunction(() => window.location.hash.includes('t=-600-5401'));
    assert.equal((await hashView(page)).window.start, -600);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `${wide} px sideways at 390 px`);
    await assertAccessible(page, 'aligned, 390 px, dark');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'align-390-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'align-390.png');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  test("A's merged blocks are never hatched (a run compared with itself: every call has a partner)", async () => {
    const bytes = [...readFileSync(join(fixtures, 'h5', 'large_s3.h5'))];
    await settle(page, 'selection', () =>
      page.evaluate((data) => {
        const list = new DataTransfer();
        for (const name of ['large_a.h5', 'large_b.h5']) list.items.add(new File([new Uint8Array(data)], name));
        const target = document.getElementById('dropzone');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { dataTransfer: list, bubbles: true, cancelable: true }));
        }
      }, bytes),
    );
    await comparisonPainted(page);
    const lanes = page.locator('[data-testid=timeline-lanes] button');
    assert.deepEqual(await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents(), [
      'B · rank 0',
      'A · rank 0',
    ]);
    // B's band collapsed to its header: A's band follows it.
    await lanes.first().click();
    const b = await page.getByTestId('timeline').boundingBox();
    const top = AXIS_H + HEADER_H + BAND_GAP + HEADER_H;
    await page.waitForTimeout(300);
    let merged = 0;
    for (let d = 0; d < 16; d++) {
      const y = top + d * ROW_H + (ROW_H - 2) / 2;
      if (y > b.height - 4) break;
      const row = await rowPixels(page, y, 0, Math.floor(b.width));
      // Hatching's pixels (every depth; zero-length calls with zero-length partners too): greys between its stripes' colours (a plain merged
      // block is one grey, #aab2bd; regions' colours are saturated).
      const hatched = row.filter(([r, g, bl]) => {
        const spread = Math.max(r, g, bl) - Math.min(r, g, bl);
        return spread <= 24 && r >= 120 && r <= 230 && !near([r, g, bl], rgbOf(light.merged));
      });
      assert.deepEqual(hatched.slice(0, 4), [], `depth ${d}: ${hatched.length} hatched pixels`);
      if (row.some((p) => near(p, rgbOf(light.merged), 0))) merged++;
    }
    // Pointing at a block of A says how many calls it stands for.
    let said = '';
    for (let x = 0; x < b.width && !/too short to draw apart/.test(said); x += 7) {
      await page.mouse.move(b.x + x, b.y + top + ROW_H + 8);
      said = await page.getByTestId('call-details').innerText();
    }
    assert.match(said, /calls too short to draw apart/);
    assert.ok(merged > 0 || /Region/.test(said), 'merged blocks drawn');
    await screenshot(page, 'align-merged-1400.png');
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});

// 'hsl(h s% l%)' -> '#rrggbb' (the canvas's fill of a region's colour).
function hslHex(hsl) {
  const [h, s, l] = hsl.match(/[\d.]+/g).map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
