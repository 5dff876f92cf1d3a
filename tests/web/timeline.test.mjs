// The timeline, the page's first view: what it shows is checked against the
// core (the package in Node over the same fixture): its lanes are the
// speedscope document's profiles, the details of focused and hovered calls
// are calls of that document (name, start, duration, self time, depth,
// lane), the regions table of a zoomed window is the core's regions() of that
// window, search counts are the core's, keyboard zoom gives the windows it
// promises; Open in speedscope paints the visible window in the sandboxed
// frame; 390 px, dark mode and axe-core at zero violations.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import { exactTime, tableTime } from '../../web/timeline/format.js';
import {
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  downloads,
  drop,
  fixtures,
  openInSpeedscope,
  openOptions,
  pick,
  screenshot,
  settle,
  startBrowser,
} from './harness.mjs';

const input = (name) => ({ name, bytes: new Uint8Array(readFileSync(join(fixtures, 'h5', name))) });

// "1.234567891 s" -> 1234567891 (exactly: the page writes ns as decimals).
function parseTime(text) {
  const m = /^(-?)(\d+)(?:\.(\d+))? (s|ms|µs|ns)$/.exec(text.trim());
  assert.ok(m, `a time: ${text}`);
  const digits = { s: 9, ms: 6, µs: 3, ns: 0 }[m[4]];
  const frac = (m[3] ?? '').padEnd(digits, '0');
  assert.ok(frac.length === digits, `no more digits than nanoseconds: ${text}`);
  return Number(BigInt(m[2] + frac)) * (m[1] ? -1 : 1);
}

// Every call of every profile of the exported document: { lane, depth, start, end, name, self } (ns).
function documentCalls(doc) {
  const calls = [];
  doc.profiles.forEach((profile, lane) => {
    const stack = [];
    for (const e of profile.events) {
      const at = Math.round(e.at * 1e9);
      if (e.type === 'O') {
        stack.push({
          lane,
          depth: stack.length,
          start: at,
          end: null,
          name: doc.shared.frames[e.frame].name,
          children: 0,
        });
      } else {
        const call = stack.pop();
        call.end = at;
        call.self = call.end - call.start - call.children;
        if (stack.length) stack.at(-1).children += call.end - call.start;
        delete call.children;
        calls.push(call);
      }
    }
  });
  return calls;
}

// '+' three times and a step right on the chart, then the window the regions
// table settled on: { start, end } (ns from the origin).
async function zoomThreeAndPan(page) {
  const table = page.getByTestId('regions-table');
  await page.getByTestId('timeline').focus();
  const before = await table.getAttribute('data-window-end');
  for (let i = 0; i < 3; i++) await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => {
    const t = document.querySelector('[data-testid=regions-table]');
    return t.dataset.windowEnd && t.dataset.windowEnd !== b;
  }, before);
  await page.waitForTimeout(400); // the last change's regions
  return {
    start: Number(await table.getAttribute('data-window-start')),
    end: Number(await table.getAttribute('data-window-end')),
  };
}

async function details(page) {
  await page.waitForFunction(() =>
    ['call', 'merged'].includes(document.querySelector('[data-testid=call-details]').dataset.state),
  );
  return page.evaluate(() => {
    const box = document.querySelector('[data-testid=call-details]');
    const fields = Object.fromEntries(
      [...box.querySelectorAll('dd[data-field]')].map((d) => [d.dataset.field, d.textContent]),
    );
    return { state: box.dataset.state, ...fields };
  });
}

const viewOf = (page) =>
  page.evaluate(() => {
    const c = document.querySelector('[data-testid=timeline]');
    return { start: Number(c.dataset.viewStart), end: Number(c.dataset.viewEnd) };
  });

describe('the timeline', { timeout: 900_000 }, () => {
  let browser;
  let sp;
  before(async () => {
    browser = await startBrowser();
    sp = await createScopeSpeedscope();
  });
  after(async () => {
    await browser?.close();
  });

  test("a dropped file: the timeline fills the window, no other click; its lanes are the document's profiles", async () => {
    const page = await browser.openPage();
    assert.equal(await drop(page, ['threads_s3.h5']), 'done');
    assert.equal(await chartPainted(page), 'painted');
    const box = await page.getByTestId('timeline-box').boundingBox();
    const chart = await page.getByTestId('timeline').boundingBox();
    const { height } = page.viewportSize();
    assert.ok(box.y >= 0 && box.y < 0.2 * height, `the timeline starts at the top (${box.y})`);
    assert.ok(
      box.y + box.height >= height - 2 && box.y + box.height <= height + 1,
      `and ends at the window's bottom (${box.y + box.height})`,
    );
    assert.ok(chart.height >= 0.6 * height, `the chart takes most of the window (${chart.height} of ${height})`);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline', 'focus on the chart');
    assert.equal(await page.getByTestId('viewer').count(), 0, 'speedscope waits for a click');
    // One row of chrome at 1400 x 900: the file, the status, the timeline's
    // controls and the actions; the timeline right below it.
    const bar = await page.locator('#bar').boundingBox();
    assert.ok(bar.height <= 56, `one row of chrome (${bar.height} px)`);
    assert.ok(box.y <= bar.y + bar.height + 1, `the timeline right below it (${box.y})`);
    for (const id of ['bar-files', 'status', 'timeline-search', 'zoom-in', 'timeline-reset', 'timeline-range']) {
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b && b.y >= bar.y && b.y + b.height <= bar.y + bar.height, `${id} is in the row: ${JSON.stringify(b)}`);
    }
    for (const id of ['open-in-speedscope', 'download', 'open-tab', 'fullscreen', 'options-toggle']) {
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b && b.y >= bar.y && b.x + b.width <= 1400, `${id} is in the row: ${JSON.stringify(b)}`);
    }

    const doc = sp.buildSpeedscopeDocument(input('threads_s3.h5'));
    const tl = await sp.openTimeline(input('threads_s3.h5'));
    try {
      const lanes = await page.locator('[data-testid=timeline-lanes] .tl-lane-name').allTextContents();
      assert.deepEqual(
        lanes,
        doc.profiles.map((p) => p.name),
      );
      assert.deepEqual(
        lanes,
        tl.lanes.map((l) => l.name),
      );
      const calls = await page.locator('[data-testid=timeline-lanes] .tl-lane-calls').allTextContents();
      assert.deepEqual(
        calls.map((t) => Number(t.replace(/[^\d]/g, ''))),
        tl.lanes.map((l) => l.calls),
      );
      assert.deepEqual(
        calls.map((t) => Number(t.replace(/[^\d]/g, ''))),
        doc.profiles.map((p) => p.events.length / 2),
      );
    } finally {
      tl.close();
    }
    // The chart has pixels: bars of several colours, not one flat colour.
    const shot = await page.getByTestId('timeline').screenshot();
    assert.ok(shot.length > 8_000, `the timeline has detail (${shot.length} bytes of PNG)`);
    // A band collapses from its button, and opens again.
    const first = page.locator('[data-testid=timeline-lanes] button').first();
    await first.click();
    assert.equal(await first.getAttribute('aria-expanded'), 'false');
    await first.click();
    assert.equal(await first.getAttribute('aria-expanded'), 'true');
    await assertAccessible(page, 'timeline');
    await page.close();
  });

  test('focused and hovered calls: their details are calls of the document', async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await chartPainted(page);
    const doc = sp.buildSpeedscopeDocument(input('real_run_s1.h5'));
    const calls = documentCalls(doc);
    const check = (d) => {
      assert.equal(d.state, 'call', JSON.stringify(d));
      const lane = doc.profiles.findIndex((p) => p.name === d.lane);
      assert.ok(lane >= 0, `lane ${d.lane}`);
      const start = parseTime(d.start);
      const call = calls.find((c) => c.lane === lane && c.depth === Number(d.depth) && c.start === start);
      assert.ok(call, `a call of the document at depth ${d.depth}, ${d.start}`);
      assert.equal(d.name, call.name);
      assert.equal(parseTime(d.duration), call.end - call.start);
      assert.equal(parseTime(d.self), call.self);
      assert.equal(d.start, exactTime(call.start));
      return call;
    };
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('Enter');
    let d = await details(page);
    for (let i = 0; d.state === 'merged' && i < 40; i++) {
      await page.keyboard.press('Enter'); // zooms to the merged calls; the focus goes to the first
      await page.waitForTimeout(100);
      d = await details(page);
    }
    const root = check(d);
    assert.equal(root.depth, 0);
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(
      (s) =>
        document.querySelector('[data-testid=call-details] [data-field=depth]')?.textContent === '1' &&
        document.querySelector('[data-testid=call-details]').dataset.state !== 'loading',
      null,
    );
    d = await details(page);
    if (d.state === 'call') {
      const child = check(d);
      assert.ok(child.start >= root.start && child.end <= root.end, 'the child is inside its parent');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (s) =>
          document.querySelector('[data-testid=call-details] [data-field=start]')?.textContent !== s &&
          document.querySelector('[data-testid=call-details]').dataset.state !== 'loading',
        d.start,
      );
      const next = await details(page);
      if (next.state === 'call') assert.ok(check(next).start >= child.end, 'the next call starts after');
    }
    // Hover: the bar under the pointer.
    const box = await page.getByTestId('timeline').boundingBox();
    await page.keyboard.press('0');
    await page.mouse.move(box.x + box.width / 2, box.y + 26 + 22 + 9);
    d = await details(page);
    if (d.state === 'call') check(d);
    else assert.match(d.merged, /^[\d,]+ calls too short to draw apart/);
    await page.close();
  });

  test("a region's source location: the call details and the regions table show the core's file:line", async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['hdf5-schema-3.h5']), 'done');
    await chartPainted(page);
    const tl = await sp.openTimeline(input('hdf5-schema-3.h5'), { sourceLocations: true });
    try {
      assert.deepEqual(tl.frameSources, [{ file: 'solver.py', line: 7, text: null }]);
    } finally {
      tl.close();
    }
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('Enter');
    const d = await details(page);
    assert.equal(d.name, 'solve');
    assert.equal(d.source, 'solver.py:7');
    const title = await page.locator('[data-testid=call-details] dd[data-field=source]').getAttribute('title');
    assert.equal(title, 'solver.py:7');
    await page.waitForFunction(() => document.querySelector('#tl-regions tr [data-field=source]'));
    const row = await page
      .locator('#tl-regions tr')
      .first()
      .evaluate((tr) => ({
        name: tr.querySelector('button').textContent,
        source: tr.querySelector('[data-field=source]').textContent,
        font: getComputedStyle(tr.querySelector('[data-field=source]')).whiteSpace,
      }));
    assert.deepEqual(row, { name: 'solve', source: 'solver.py:7', font: 'nowrap' });
    await assertAccessible(page, 'source locations');
    await page.close();
  });

  test('Options: source locations in the document, written from the timeline as the package writes them', async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['sources_s2.h5'], { dir: 'source' }), 'done');
    await chartPainted(page);
    await openOptions(page);
    const box = page.getByTestId('source-locations');
    assert.equal(await box.isChecked(), false);
    await page.getByTestId('rank-1').check();
    await settle(page, 'attempts', () => page.getByTestId('convert').click());
    const file = {
      name: 'sources_s2.h5',
      bytes: new Uint8Array(readFileSync(join(fixtures, 'source', 'sources_s2.h5'))),
    };
    const want = (options) => {
      const [out] = sp.exportSpeedscope([file], { ranks: [0, 1], ...options });
      return Buffer.concat(out.chunks.map((c) => Buffer.from(c)));
    };
    let got = await downloads(page);
    assert.deepEqual(got.get('profile.speedscope.json'), want({}));
    await box.check();
    await settle(page, 'attempts', () => page.getByTestId('convert').click());
    got = await downloads(page);
    const withSources = want({ sourceLocations: true });
    assert.deepEqual(got.get('profile.speedscope.json'), withSources);
    assert.match(withSources.toString(), /\{"name": "main", "file": "run\.py", "line": 12\}/);
    assert.equal(await page.locator('#bar').getAttribute('data-download-from'), 'timeline');
    // A preference: the next file keeps it.
    assert.equal(await pick(page, ['hdf5-schema-3.h5']), 'done');
    assert.equal(await box.isChecked(), true);
    const [schema3] = await downloads(page).then((m) => [...m.values()]);
    assert.match(schema3.toString(), /"frames": \[\{"name": "solve", "file": "solver\.py", "line": 7\}\]/);
    await assertAccessible(page, 'options with source locations');
    await page.close();
  });

  test("the regions table of a zoomed window is the core's; search counts as the core", async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['large_s3.h5']), 'done');
    await chartPainted(page);
    const tl = await sp.openTimeline(input('large_s3.h5'));
    try {
      const { start, end } = await zoomThreeAndPan(page);
      const view = await viewOf(page);
      assert.equal(start, Math.floor(view.start));
      assert.equal(end, Math.ceil(view.end));
      const sorted = tl
        .regions(start, end)
        .sort((a, b) => b.total - a.total || a.frame - b.frame)
        .slice(0, 200);
      const expected = sorted.map((r) => [
        r.name,
        r.calls.toLocaleString('en-US'),
        tableTime(r.total),
        tableTime(r.self),
      ]);
      const rows = await page
        .locator('#tl-regions tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
      assert.ok(expected.length > 1, 'several regions in the window');
      assert.deepEqual(rows, expected);
      // Each time is exact in its cell's title, a hover away.
      const titles = await page
        .locator('#tl-regions tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td.num[title]')].map((td) => td.title)));
      assert.deepEqual(
        titles,
        sorted.map((r) => [exactTime(r.total), exactTime(r.self)]),
      );
      // Sorted by calls on a click; a click on a region highlights it.
      await page.locator('th[data-sort=calls] button').click();
      assert.equal(await page.locator('th[data-sort=calls]').getAttribute('aria-sort'), 'descending');
      const byCalls = await page.locator('#tl-regions td[data-field=calls]').allTextContents();
      const numbers = byCalls.map((t) => Number(t.replaceAll(',', '')));
      assert.deepEqual(
        numbers,
        [...numbers].sort((a, b) => b - a),
      );
      const button = page.locator('#tl-regions button').first();
      await button.click();
      assert.equal(await button.getAttribute('aria-pressed'), 'true');

      // Search: '/' focuses it; counts the matching regions' calls over the run.
      await page.getByTestId('timeline').focus();
      await page.keyboard.press('/');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline-search');
      for (const q of ['a', 'ZZZ-nothing', tl.frames[0].slice(0, 3)]) {
        await page.getByTestId('timeline-search').fill(q);
        await page.getByTestId('timeline-search').press('Enter');
        const runEnd = Math.max(...tl.lanes.map((l) => l.end)) + 1;
        const matching = tl.regions(0, runEnd).filter((r) => r.name.toLowerCase().includes(q.toLowerCase()));
        const n = matching.length;
        const callCount = matching.reduce((s, r) => s + r.calls, 0);
        const text = n
          ? `${n.toLocaleString('en-US')} ${n === 1 ? 'region' : 'regions'}, ${callCount.toLocaleString('en-US')} ${callCount === 1 ? 'call' : 'calls'}`
          : 'no region matches';
        assert.equal(await page.getByTestId('search-count').textContent(), text, q);
      }
      await page.keyboard.press('Control+f');
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline-search');
      await assertAccessible(page, 'zoomed, searched');
    } finally {
      tl.close();
    }
    await page.close();
  });

  test('keyboard zoom and pan give the windows they promise, down to nanoseconds', async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await chartPainted(page);
    const tl = await sp.openTimeline(input('real_run_s1.h5'));
    const runEnd = Math.max(...tl.lanes.map((l) => l.end)) + 1;
    tl.close();
    const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * runEnd, `${what}: ${a} against ${b}`);
    await page.getByTestId('timeline').focus();
    let v = await viewOf(page);
    close(v.start, 0, 'start');
    close(v.end, runEnd, 'end');
    await page.keyboard.press('+');
    await page.waitForFunction(
      (e) => Number(document.querySelector('[data-testid=timeline]').dataset.viewEnd) !== e,
      v.end,
    );
    v = await viewOf(page);
    const span = runEnd / 1.6;
    close(v.start, runEnd / 2 - span / 2, '+ start');
    close(v.end, runEnd / 2 + span / 2, '+ end');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(
      (s) => Number(document.querySelector('[data-testid=timeline]').dataset.viewStart) !== s,
      v.start,
    );
    const w = await viewOf(page);
    close(w.start, v.start - 0.1 * span, '← start');
    close(w.end - w.start, span, '← keeps the span');
    for (let i = 0; i < 80; i++) await page.keyboard.press('+');
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid=timeline]').dataset;
      return Number(c.viewEnd) - Number(c.viewStart) <= 8.0001;
    });
    const axis = await page.getByTestId('timeline-range').textContent();
    assert.match(axis, /^8 ns from \d/, `8 ns across the chart: ${axis}`);
    await page.keyboard.press('0');
    await page.waitForFunction(
      (e) => Number(document.querySelector('[data-testid=timeline]').dataset.viewEnd) === e,
      runEnd,
    );
    await page.keyboard.press('-');
    await page.waitForTimeout(100);
    v = await viewOf(page);
    close(v.start, 0, 'whole run: start');
    close(v.end, runEnd, 'whole run: end');
    await page.close();
  });

  test('Open in speedscope: the visible window painted in the sandboxed frame; the whole run as the download', async () => {
    const page = await browser.openPage();
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await chartPainted(page);
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    assert.equal(await openInSpeedscope(page), 'painted');
    const frame = page.getByTestId('viewer');
    assert.equal(await frame.getAttribute('sandbox'), 'allow-scripts');
    assert.match(
      await page.getByTestId('viewer-title').textContent(),
      /^speedscope: real_run_s1\.h5, \S+ \S+ to \S+ \S+ \([\d,]+ calls\)$/,
    );
    // The timeline stays usable meanwhile and after.
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('0');
    assert.equal(await openInSpeedscope(page), 'painted');
    assert.match(await page.getByTestId('viewer-title').textContent(), /whole run/);
    await assertAccessible(page, 'speedscope below the timeline');
    await page.close();
  });

  test('Open in speedscope on a filtered run: the window converted is the one the regions table counts', async () => {
    // With --include 'io$' the timeline's origin is 981 ns after the file's
    // first call, the zero of a time window: the window must be shifted by it.
    const page = await browser.openPage();
    assert.equal(await pick(page, ['large_s3.h5']), 'done');
    await chartPainted(page);
    await openOptions(page);
    await page.getByTestId('include').fill('io$');
    await settle(page, 'attempts', () => page.getByTestId('convert').click());
    assert.equal(await chartPainted(page), 'painted');
    const tl = await sp.openTimeline(input('large_s3.h5'), { include: ['io$'] });
    try {
      assert.equal(tl.originInRun, 981);
      const { start, end } = await zoomThreeAndPan(page);
      const caption = await page.getByTestId('regions-caption').textContent();
      const inView = Number(caption.match(/: ([\d,]+) calls?$/)[1].replaceAll(',', ''));
      const windowDoc = sp.buildSpeedscopeDocument(input('large_s3.h5'), {
        include: ['io$'],
        timeWindow: [`${tl.originInRun + start}ns`, `${tl.originInRun + end}ns`],
      });
      const opened = windowDoc.profiles.reduce((n, p) => n + p.events.filter((e) => e.type === 'O').length, 0);
      assert.ok(inView > 1 && inView < tl.lanes[0].calls, `a window of some calls: ${inView}`);
      assert.equal(opened, inView);
      assert.equal(await openInSpeedscope(page), 'painted');
      const title = await page.getByTestId('viewer-title').textContent();
      assert.equal(Number(title.match(/\(([\d,]+) calls?\)$/)[1].replaceAll(',', '')), inView, title);
      assert.equal(
        await page.getByTestId('viewer-title').getAttribute('data-time-window'),
        `${981 + start}ns:${981 + end}ns`,
      );
    } finally {
      tl.close();
    }
    await page.close();
  });

  test('390 px and dark mode: no sideways scrolling, the controls fit, no axe violations', async () => {
    const page = await browser.openPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await chartPainted(page);
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px too wide)`);
    const chart = await page.getByTestId('timeline').boundingBox();
    assert.ok(chart.height >= 0.5 * 844, `the chart keeps most of the phone's height (${chart.height})`);
    for (const id of ['open-in-speedscope', 'timeline-reset', 'zoom-in', 'zoom-out', 'timeline-search']) {
      const b = await page.getByTestId(id).boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 390 && b.height >= 24, `${id} fits: ${JSON.stringify(b)}`);
    }
    await screenshot(page, 'timeline-390-dark.png');
    await assertAccessible(page, '390 px, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.close();
  });

  test('390 px: the actions fold into one menu, by pointer and keyboard; 1400 px keeps the row', async () => {
    const page = await browser.openPage();
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await chartPainted(page);
    const menu = page.getByTestId('actions-menu');
    const active = () => page.evaluate(() => document.activeElement?.dataset.testid);
    const expanded = () => menu.getAttribute('aria-expanded');
    assert.ok(await menu.isVisible());
    assert.equal(await menu.getAttribute('aria-haspopup'), 'menu');
    assert.equal(await expanded(), 'false');
    const items = ['download', 'open-tab', 'copy-link', 'fullscreen'];
    for (const id of items) assert.ok(await page.getByTestId(id).isHidden(), `${id} folded`);
    const b = await menu.boundingBox();
    const bar = await page.locator('#bar').boundingBox();
    assert.ok(b.y < bar.y + 44, `the menu button on the bar's first row (${b.y})`);

    // Enter opens it on its first item; the arrows move round, Home and End; Escape closes it.
    await menu.focus();
    await page.keyboard.press('Enter');
    assert.equal(await expanded(), 'true');
    assert.equal(await page.locator('#actions-list').getAttribute('role'), 'menu');
    assert.deepEqual(
      await page.locator('#actions-list > *').evaluateAll((els) => els.map((e) => e.getAttribute('role'))),
      ['menuitem', 'menuitem', 'menuitem', 'menuitemcheckbox'],
    );
    assert.equal(await page.getByTestId('fullscreen').getAttribute('aria-checked'), 'false');
    assert.equal(await active(), 'download');
    for (const id of items) {
      const box = await page.getByTestId(id).boundingBox();
      assert.ok(box.width >= 30 && box.x >= 0 && box.x + box.width <= 390, `${id} fits: ${JSON.stringify(box)}`);
    }
    for (const [key, id] of [
      ['ArrowDown', 'open-tab'],
      ['ArrowDown', 'copy-link'],
      ['ArrowDown', 'fullscreen'],
      ['ArrowDown', 'download'],
      ['ArrowUp', 'fullscreen'],
      ['Home', 'download'],
      ['End', 'fullscreen'],
    ]) {
      await page.keyboard.press(key);
      assert.equal(await active(), id, key);
    }
    await assertAccessible(page, 'actions menu open, 390 px');
    await page.keyboard.press('Escape');
    assert.equal(await expanded(), 'false');
    assert.equal(await active(), 'actions-menu', 'Escape returns the focus to the button');
    for (const id of items) assert.ok(await page.getByTestId(id).isHidden(), `${id} folded again`);
    // Space opens it too; ↑ on the button opens it on its last item.
    await page.keyboard.press(' ');
    assert.equal(await active(), 'download');
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowUp');
    assert.equal(await active(), 'fullscreen');
    await page.keyboard.press('Escape');

    // Its items work: Download downloads the output, and the menu closes.
    await menu.click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
    assert.equal(download.suggestedFilename(), 'profile.speedscope.json');
    await page.waitForFunction(() => document.querySelector('[data-testid=actions-menu]').ariaExpanded === 'false');
    // Open in a new tab: speedscope's page on the output.
    await menu.click();
    assert.match(await page.getByTestId('open-tab').getAttribute('href'), /^speedscope\/index\.html#profileURL=blob/);
    // A click elsewhere closes it.
    await page.mouse.click(10, 800);
    assert.equal(await expanded(), 'false');
    // Full screen by keyboard (Enter on the item), checked once on.
    await menu.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.fullscreenElement?.id === 'work');
    // fullscreenchange comes after the element is set (in a later frame on a busy machine).
    await page.waitForFunction(() => document.getElementById('fullscreen').getAttribute('aria-checked') === 'true');
    await page.evaluate(() => document.exitFullscreen());
    await page.waitForFunction(() => !document.fullscreenElement);
    await page.emulateMedia({ colorScheme: 'dark' });
    await menu.click();
    await assertAccessible(page, 'actions menu open, 390 px, dark');
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });

    // 1400 px: no menu; the actions are buttons in the bar's one row again.
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.waitForFunction(() => document.querySelector('[data-testid=actions-menu]').hidden);
    for (const id of items) assert.ok(await page.getByTestId(id).isVisible(), `${id} in the row`);
    assert.equal(await page.getByTestId('fullscreen').getAttribute('role'), null);
    assert.equal(await page.getByTestId('fullscreen').getAttribute('aria-pressed'), 'false');
    assert.equal(await page.locator('#actions-list').getAttribute('role'), null);
    assert.ok((await page.locator('#bar').boundingBox()).height <= 56, 'one row of chrome');
    await assertAccessible(page, 'actions in the row, 1400 px');
    await page.close();
  });

  test('no request left the origin, and nothing was blocked', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
