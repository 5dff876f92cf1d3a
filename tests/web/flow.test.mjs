// The page's flow in headless Chromium: a chosen or dropped file becomes a
// full-window timeline without another click, and speedscope one click away
// (Open in speedscope); new selections clear old
// results; errors are said once; options convert again; the phone layout has
// no sideways scrolling; axe-core finds nothing in each state.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertAccessible,
  assertCoreError,
  assertOutputs,
  assertPainted,
  assertSameOrigin,
  caseNamed,
  chartPainted,
  convertWith,
  drop,
  fixtures,
  occurrences,
  openInSpeedscope,
  openOptions,
  pick,
  screenshot,
  settle,
  startBrowser,
  viewerSettled,
} from './harness.mjs';

describe('the page flow', { timeout: 900_000 }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('choosing a file shows its timeline filling the window, without another click; speedscope one click away', async () => {
    const page = await browser.openPage();
    await assertAccessible(page, 'start');
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    assert.equal(await chartPainted(page), 'painted');
    // The timeline takes the window: its top inside the viewport, at least 85% of its height.
    const box = await page.getByTestId('timeline-box').boundingBox();
    const { height } = page.viewportSize();
    assert.ok(box.y >= 0 && box.y < height, `timeline top ${box.y} inside the viewport`);
    assert.ok(box.height >= 0.85 * height, `timeline height ${box.height} of ${height}`);
    assert.ok(box.y + box.height <= height + 1, 'the timeline ends inside the viewport');
    // Focus went to the chart.
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline');
    await screenshot(page, 'page.png');
    // speedscope: on a click, below the timeline, filling the window.
    assert.equal(await openInSpeedscope(page), 'painted');
    await assertPainted(page, 'real_run_s1');
    const viewerBox = await page.getByTestId('viewer-box').boundingBox();
    assert.ok(viewerBox.y >= -1 && viewerBox.y < 1, `speedscope scrolled to the top (${viewerBox.y})`);
    assert.ok(
      viewerBox.y + viewerBox.height <= height + 1,
      `speedscope ends inside the viewport (${viewerBox.height})`,
    );
    assert.ok(viewerBox.height >= 0.85 * height, `speedscope height ${viewerBox.height} of ${height}`);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'viewer');
    // The frame is sandboxed: scripts only, an opaque origin.
    assert.equal(await page.getByTestId('viewer').getAttribute('sandbox'), 'allow-scripts');
    const frame = await (await page.getByTestId('viewer').elementHandle()).contentFrame();
    assert.equal(await frame.evaluate(() => window.origin), 'null');
    assert.equal(await frame.evaluate(() => document.documentElement.lang), 'en');
    // The chart is on screen: the frame's pixels are not one flat colour.
    const shot = await page.getByTestId('viewer').screenshot();
    assert.ok(shot.length > 20_000, `a flame chart has detail (${shot.length} bytes of PNG)`);
    await assertOutputs(page, caseNamed('real_run_s1'));
    await assertAccessible(page, 'chart shown');
    await page.close();
  });

  test('dropping a file anywhere shows its timeline', async () => {
    const page = await browser.openPage();
    assert.equal(await drop(page, ['real_run_s1.h5']), 'done');
    assert.equal(await chartPainted(page), 'painted');
    assert.match(await page.getByTestId('bar-files').innerText(), /real_run_s1\.h5/);
    await assertOutputs(page, caseNamed('real_run_s1'));
    await page.close();
  });

  test('Try the example, with the keyboard only', async () => {
    const page = await browser.openPage();
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')]
        .filter((e) => !(e.labels?.length || e.getAttribute('aria-label') || e.textContent.trim()))
        .map((e) => e.id || e.outerHTML),
    );
    assert.deepEqual(unnamed, []);
    let focused = null;
    for (let i = 0; i < 12 && focused !== 'example'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.id);
      if (focused === 'file-input') {
        const outline = await page.$eval('#file-label', (e) => getComputedStyle(e).outlineStyle);
        assert.notEqual(outline, 'none', 'the file button shows keyboard focus');
      }
    }
    assert.equal(focused, 'example', 'Tab reaches "Try the example"');
    await settle(page, 'selection', () => page.keyboard.press('Enter'));
    assert.equal(await chartPainted(page), 'painted');
    assert.match(await page.getByTestId('bar-files').innerText(), /real_run_s1\.h5/);
    await page.close();
  });

  test('a new selection clears the old results at once', async () => {
    const page = await browser.openPage();
    await pick(page, ['real_run_s1.h5']);
    assert.equal(await openInSpeedscope(page), 'painted');
    // Checked in the same task as the change event: nothing of the old result is left.
    const left = await page.evaluate(async () => {
      const blob = await (await fetch('example/real_run_s1.h5')).blob();
      const input = document.querySelector('[data-testid=file-input]');
      const data = new DataTransfer();
      data.items.add(new File([blob], 'second.h5'));
      input.files = data.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
      return {
        download: !document.querySelector('[data-testid=download]').hidden,
        frame: !!document.querySelector('[data-testid=viewer]'),
        timeline: !document.querySelector('[data-testid=timeline-box]').hidden,
        chart: document.body.dataset.chart,
        error: !document.querySelector('[data-testid=error]').hidden,
        bar: document.querySelector('[data-testid=bar-files]').textContent,
      };
    });
    assert.deepEqual(left, {
      download: false,
      frame: false,
      timeline: false,
      chart: 'none',
      error: false,
      bar: 'second.h5',
    });
    await page.waitForFunction(() => document.body.dataset.phase === 'done');
    await page.close();
  });

  test('errors: said once, the file named once, no exception names; the next file converts', async () => {
    const page = await browser.openPage();
    // A conversion error (found while rebuilding call stacks): the core's words, once.
    const overlap = caseNamed('ERR_partial_overlap');
    assert.equal(await pick(page, overlap.inputs), 'failed');
    await assertCoreError(page, overlap);
    assert.equal(await occurrences(page, 'overlap_s3.h5'), 2, 'the file is named in the bar and in the message');
    assert.equal(await page.getByTestId('download').isVisible(), false);
    await assertAccessible(page, 'error');

    // A file that is not HDF5 at all, rejected while reading it.
    const notH5 = caseNamed('ERR_not_hdf5');
    assert.equal(await pick(page, notH5.inputs), 'failed');
    await assertCoreError(page, notH5);

    // The page stays usable.
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    assert.ok(await page.getByTestId('error').isHidden(), 'a new selection clears the error');
    assert.equal(await chartPainted(page), 'painted');
    await page.close();
  });

  test('Convert is disabled while no rank is selected; options convert again', async () => {
    const page = await browser.openPage();
    const c = caseNamed('nested_s1_ranks01');
    await pick(page, c.inputs);
    await openOptions(page);
    await page.getByTestId('rank-0').uncheck();
    assert.ok(await page.getByTestId('convert').isDisabled());
    assert.ok(await page.getByTestId('ranks-error').isVisible());
    // Ticking a rank converts again on its own.
    const phase = await settle(page, 'attempts', async () => {
      await page.getByTestId('rank-0').check();
      await page.getByTestId('rank-1').check();
    });
    assert.equal(phase, 'done');
    assert.ok(await page.getByTestId('convert').isEnabled());
    await page.getByTestId('output-name').fill(c.filepath);
    await settle(page, 'attempts', () => page.getByTestId('convert').click());
    await assertOutputs(page, c);
    await page.close();
  });

  test('progress counts calls, the same calls the page shows', async () => {
    const page = await browser.openPage();
    const c = caseNamed('large_s3');
    await page.evaluate(() => {
      window.seen = [];
      new MutationObserver(() => window.seen.push(document.querySelector('[data-testid=status]').textContent)).observe(
        document.querySelector('[data-testid=status]'),
        { childList: true, characterData: true, subtree: true },
      );
    });
    await pick(page, c.inputs);
    await openOptions(page);
    const rank0 = await page.locator('label.rank', { has: page.getByTestId('rank-0') }).innerText();
    const shown = rank0.match(/\(([\d,]+) calls\)/)[1];
    const seen = await page.evaluate(() => window.seen);
    const writing = seen.filter((t) => /^Writing /.test(t));
    assert.ok(writing.length, `a writing phase was shown: ${seen.join(' | ')}`);
    for (const t of writing) assert.match(t, new RegExp(`of ${shown} calls$`), t);
    await page.close();
  });

  test('Cancel stops reading and converting; the next file still converts', async () => {
    const page = await browser.openPage();
    const c = caseNamed('large_s3');
    // Cancel while converting (three copies): the page itself presses it the
    // moment it says it converts (a conversion may end before a click from
    // here arrives on a quick machine).
    const converting = cancelAtPhase(page, 'converting');
    await page.setInputFiles(
      '[data-testid=file-input]',
      [...c.inputs, ...c.inputs, ...c.inputs].map((n, i) => ({
        name: `${i}-${n}`,
        mimeType: 'application/x-hdf5',
        buffer: require_(n),
      })),
    );
    assert.ok((await converting).visible, 'Cancel is offered while converting');
    await page.waitForFunction(() => document.body.dataset.phase === 'cancelled');
    assert.ok(await page.getByTestId('download').isHidden());
    assert.ok(await page.getByTestId('progress').isHidden());
    // Cancel while reading what a file holds: reading the index is quick, so
    // the page itself presses Cancel the moment it says it is reading.
    const offered = cancelAtPhase(page, 'inspecting');
    await page.setInputFiles(
      '[data-testid=file-input]',
      [...c.inputs, ...c.inputs].map((n, i) => ({
        name: `${i}-${n}`,
        mimeType: 'application/x-hdf5',
        buffer: require_(n),
      })),
    );
    assert.ok((await offered).visible, 'Cancel is offered while reading');
    await page.waitForFunction(() => document.body.dataset.phase === 'cancelled');
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await assertOutputs(page, caseNamed('real_run_s1'));
    await page.close();
  });

  test('Cancel while the conversion waits for the first view to be made exact: nothing converts', async () => {
    // Rank 0 of two is opened provisionally; the download waits for its
    // completion. The page presses Cancel the moment it says it converts,
    // before that completion can have answered (a worker's reply is a task).
    const page = await browser.openPage();
    const c = caseNamed('large_s3');
    const pressed = cancelAtPhase(page, 'converting');
    await page.setInputFiles(
      '[data-testid=file-input]',
      c.inputs.map((n) => join(fixtures, 'h5', n)),
    );
    assert.equal((await pressed).after, 'cancelled');
    // Long enough for the completion and a whole conversion of this file.
    await page.waitForTimeout(2000);
    assert.equal(await page.evaluate(() => document.body.dataset.phase), 'cancelled');
    assert.ok(await page.getByTestId('progress').isHidden());
    assert.ok(await page.getByTestId('download').isHidden());
    assert.equal(await page.getByTestId('status').innerText(), 'Cancelled.');
    await page.close();
  });

  test('several outputs: a selector, one download each; no sideways scrolling on a phone', async () => {
    const page = await browser.openPage();
    const c = caseNamed('multi_fixtures');
    await pick(page, c.inputs);
    await convertWith(page, c);
    assert.deepEqual(
      await page.getByTestId('output-select').locator('option').allInnerTexts(),
      c.outputs.map((o) => o.file),
    );
    assert.equal(await chartPainted(page), 'painted');
    await assertOutputs(page, c);
    // The downloads left the last output selected: its file on the timeline and in speedscope.
    assert.equal(await page.getByTestId('output-select').inputValue(), '2');
    assert.equal(await chartPainted(page), 'painted');
    assert.match(await page.getByTestId('timeline').getAttribute('aria-label'), /^Timeline of hdf5-schema-3\.h5:/);
    assert.equal(await openInSpeedscope(page), 'painted');
    await assertPainted(page, 'hdf5-schema-3');
    // Another output: speedscope closes, the timeline draws that output's file, and
    // Open in speedscope shows it.
    await page.getByTestId('output-select').selectOption('0');
    assert.equal(await page.getByTestId('viewer-box').isHidden(), true, 'speedscope closed with the other output');
    assert.equal(await chartPainted(page), 'painted');
    assert.match(await page.getByTestId('timeline').getAttribute('aria-label'), /^Timeline of hdf5-schema-1\.h5:/);
    assert.equal(await openInSpeedscope(page), 'painted');
    await assertPainted(page, 'hdf5-schema-1');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('options-toggle').click(); // closed
    await page.evaluate(() => document.getElementById('work').scrollIntoView());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px too wide)`);
    await page.getByTestId('timeline-box').scrollIntoViewIfNeeded();
    const box = await page.getByTestId('timeline').boundingBox();
    assert.ok(box.height >= 0.5 * 844, `the timeline keeps most of the phone's height (${box.height})`);
    // Download, Open in a new tab and Full screen fold into the actions' menu on a phone.
    for (const id of ['output-select', 'options-toggle', 'actions-menu', 'download', 'open-tab', 'fullscreen']) {
      if (id === 'download') await page.getByTestId('actions-menu').click();
      const control = await page.getByTestId(id).boundingBox();
      assert.ok(
        control.width >= 30 && control.x >= 0 && control.x + control.width <= 390,
        `${id} fits: ${JSON.stringify(control)}`,
      );
    }
    await page.keyboard.press('Escape');
    assert.ok((await page.getByTestId('output-select').boundingBox()).width >= 120, 'the output selector is usable');
    await screenshot(page, 'page-phone.png');
    await assertAccessible(page, 'phone, three outputs');
    await page.getByTestId('viewer-box').scrollIntoViewIfNeeded();
    const viewerBox = await page.getByTestId('viewer').boundingBox();
    assert.ok(viewerBox.height >= 0.8 * 844, `speedscope keeps most of the phone's height (${viewerBox.height})`);
    await openOptions(page);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(wide <= 0, `options stack at 390 px (${wide} px too wide)`);
    await assertAccessible(page, 'phone, options open');
    await page.close();
  });

  test('full screen and "open in a new tab"', async () => {
    const page = await browser.openPage();
    await pick(page, ['real_run_s1.h5']);
    assert.equal(await chartPainted(page), 'painted');
    await page.getByTestId('fullscreen').click();
    // The timeline's controls are in the bar: full screen is the bar and the chart.
    await page.waitForFunction(() => document.fullscreenElement?.id === 'work');
    assert.ok(
      await page.evaluate(() =>
        ['tl-toolbar', 'timeline-box'].every((id) => document.fullscreenElement.contains(document.getElementById(id))),
      ),
    );
    // fullscreenchange comes after the element is set (in a later frame on a busy machine).
    await page.waitForFunction(() => document.getElementById('fullscreen').getAttribute('aria-pressed') === 'true');
    await page.evaluate(() => document.exitFullscreen());
    await page.waitForFunction(() => !document.fullscreenElement);

    const href = await page.getByTestId('open-tab').getAttribute('href');
    assert.match(href, /^speedscope\/index\.html#profileURL=blob%3Ahttp/);
    assert.equal(await page.getByTestId('open-tab').getAttribute('target'), '_blank');
    // What the click opens: speedscope as a page of its own, reading this page's blob: URL.
    const tab = await page.context().newPage();
    await tab.goto(new URL(href, page.url()).href);
    await tab.waitForFunction(() => document.title === 'real_run_s1 - speedscope', null, { timeout: 60_000 });
    await tab.close();
    await page.close();
  });

  test('no request left the origin, and nothing was blocked', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
    const origin = new URL(browser.server.url).origin;
    assert.ok(
      browser.log.requests.some((u) => u.startsWith(`${origin}/lib/`)),
      "the worker's requests were recorded",
    );
    assert.ok(
      browser.log.requests.some((u) => u.startsWith(`${origin}/speedscope/`)),
      "the frame's requests were recorded",
    );
    assert.ok(
      browser.log.requests.some((u) => u.endsWith('/lib/scope-speedscope.wasm')),
      'the wasm was fetched',
    );
  });
});

// The page itself presses Cancel the moment its phase becomes `phase` (a
// click from the test could come after that phase ended): resolves with
// whether Cancel was visible then and the phase right after the click.
function cancelAtPhase(page, phase) {
  return page.evaluate(
    (wanted) =>
      new Promise((resolve) => {
        const watch = new MutationObserver(() => {
          if (document.body.dataset.phase !== wanted) return;
          watch.disconnect();
          const cancel = document.querySelector('[data-testid=cancel]');
          const visible = cancel.checkVisibility();
          cancel.click();
          resolve({ visible, after: document.body.dataset.phase });
        });
        watch.observe(document.body, { attributes: true, attributeFilter: ['data-phase'] });
      }),
    phase,
  );
}

function require_(name) {
  return readFileSync(join(fixtures, 'h5', name));
}
