// The viewer in its sandboxed frame: the page keeps working while speedscope
// imports, a dead or failing viewer leaves the downloads working, and a run
// over the viewer's budget is not opened at once (a tiny budget set with the
// test-only ?viewer-budget-mb= keeps this fast). A window opened in speedscope
// is written from the timeline's columns when it holds every rank (the file
// is not read again), from the file otherwise, and is byte for byte the
// package's export of that window either way. Both policies (the page's and
// the frame's) allow no request outside the origin.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeSpeedscope } from '../../dist/node.js';
import {
  assertAccessible,
  assertOutputs,
  assertSameOrigin,
  caseNamed,
  chartPainted,
  checkOutput,
  convertWith,
  downloads,
  fixtures,
  openInSpeedscope,
  openOptions,
  pick,
  root,
  scrollIntoViewDrawn,
  settle,
  startBrowser,
  viewerSettled,
} from './harness.mjs';

// Records, in the page, the conversions it asks its engine for
// (window.converts) and the workers it makes (window.workersMade), and in the viewer's frame the document it is handed
// (window.shownDocument): run in every frame before its own scripts.
function recordHandOver() {
  if (window === window.top) {
    window.converts = 0;
    window.workersMade = 0;
    const Made = window.Worker;
    window.Worker = class extends Made {
      constructor(...args) {
        super(...args);
        window.workersMade++;
      }
    };
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message?.type === 'convert') window.converts++;
      return post.call(this, message, ...rest);
    };
  } else {
    window.addEventListener('message', ({ data }) => {
      if (data?.type === 'show' && data.blob) data.blob.text().then((text) => (window.shownDocument = text));
    });
  }
}

// Picks the 4-rank fixture, sets the ranks with `check` in the options, zooms
// the timeline in twice and opens that window in speedscope: what the viewer
// got, the window (the page's text, from the run's first call), what wrote it
// and the conversions asked for meanwhile.
async function openRanksWindow(page, check) {
  await page.addInitScript(recordHandOver);
  await page.reload();
  await page.waitForFunction(() => /running in your browser/.test(document.getElementById('version-line').textContent));
  await pick(page, ['ranks_imbalance_s3.h5']);
  await openOptions(page);
  await settle(page, 'attempts', check);
  assert.equal(await chartPainted(page), 'painted');
  await page.getByTestId('options-toggle').click();
  await page.getByTestId('timeline').focus();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  const converts = await page.evaluate(() => window.converts);
  assert.equal(await openInSpeedscope(page), 'painted');
  const title = page.getByTestId('viewer-title');
  const frame = await (await page.getByTestId('viewer').elementHandle()).contentFrame();
  await frame.waitForFunction(() => typeof window.shownDocument === 'string');
  return {
    shown: await frame.evaluate(() => window.shownDocument),
    timeWindow: await title.getAttribute('data-time-window'),
    from: await title.getAttribute('data-written-from'),
    converts: (await page.evaluate(() => window.converts)) - converts,
  };
}

describe('the viewer frame', { timeout: 900_000 }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('the page stays responsive and the download works while speedscope imports', async () => {
    const page = await browser.openPage();
    const c = caseNamed('large_s3');
    await pick(page, c.inputs);
    await page.evaluate(() => {
      window.ticks = [];
      setInterval(() => window.ticks.push(performance.now()), 50);
    });
    await convertWith(page, c);
    await page.getByTestId('open-in-speedscope').click();
    await page.waitForFunction(() => document.body.dataset.viewer !== 'none');
    // The download is offered as soon as the output exists, whatever the viewer does.
    assert.ok(
      ['starting', 'importing'].includes(await page.evaluate(() => document.body.dataset.viewer)),
      'the viewer is still at work',
    );
    // The page scrolls speedscope to the window's top; then the person scrolls back to the bar.
    await page.waitForFunction(() => Math.abs(document.getElementById('viewer-box').getBoundingClientRect().top) < 1);
    await scrollIntoViewDrawn(page, page.getByTestId('download'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
    checkOutput(c, c.outputs[0], readFileSync(await download.path()));
    // The click scrolled the bar into view, above the timeline; speedscope,
    // below it, draws once it is in view again (Chromium does not draw frames
    // out of view), as for a person who looks at it.
    await page.getByTestId('viewer-box').scrollIntoViewIfNeeded();
    assert.equal(await viewerSettled(page), 'painted');
    // The page's timer kept ticking during the import: no pause of half a second.
    const gaps = await page.evaluate(() => window.ticks.slice(1).map((t, i) => t - window.ticks[i]));
    assert.ok(Math.max(...gaps) < 500, `longest pause of the page: ${Math.round(Math.max(...gaps))} ms`);
    await page.close();
  });

  test('a viewer whose process dies: the page says so and keeps the download', async () => {
    const page = await browser.openPage();
    const c = caseNamed('real_run_s1');
    await pick(page, c.inputs);
    assert.equal(await openInSpeedscope(page), 'painted');
    // Playwright counts a crashed frame as a crashed page; talk to the page
    // through the protocol from here on (the page itself is alive).
    const session = await page.context().newCDPSession(page);
    const evaluate = async (expression) =>
      (
        await session.send('Runtime.evaluate', {
          expression,
          awaitPromise: true,
          returnByValue: true,
        })
      ).result.value;
    const frame = await (await page.getByTestId('viewer').elementHandle()).contentFrame();
    const frameSession = await page.context().newCDPSession(frame);
    frameSession.send('Page.crash').catch(() => {});
    const deadline = Date.now() + 30_000;
    while ((await evaluate('document.body.dataset.viewer')) !== 'failed' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(await evaluate('document.body.dataset.viewer'), 'failed');
    const note = await evaluate('document.querySelector("[data-testid=viewer-note]")?.textContent');
    assert.match(note, /The viewer stopped while showing profile\.speedscope\.json/);
    assert.match(note, /The download has the complete file/);
    // The download link still holds the complete output.
    const got = await evaluate(`(async () => {
      const a = document.querySelector('[data-testid=download]');
      const bytes = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
      return { hidden: a.hidden, name: a.download, text: new TextDecoder().decode(bytes) };
    })()`);
    assert.equal(got.hidden, false);
    assert.equal(got.name, 'profile.speedscope.json');
    checkOutput(c, c.outputs[0], Buffer.from(got.text, 'utf8'));
    await session.detach();
  });

  test('speedscope failing on a deep recursion: the page says why and keeps the download', async () => {
    const page = await browser.openPage();
    await pick(page, ['deep_20000_s3.h5']);
    assert.equal(await chartPainted(page), 'painted', 'the timeline draws what speedscope cannot');
    assert.equal(await openInSpeedscope(page), 'failed');
    const note = await page.getByTestId('viewer-note').innerText();
    assert.match(note, /nest deeper than speedscope can draw/);
    assert.equal((await page.locator('[role=alert]:visible').allInnerTexts()).length, 1, 'said once');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
    const doc = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.equal(doc.profiles[0].events.length, 40_000, 'all 20,000 calls are in the download');
    await assertAccessible(page, 'viewer failed');
    await page.close();
  });

  test("over the viewer's budget: the estimate, no viewer, a download on request; speedscope gets a window that fits", async () => {
    // 0.02 MB: 14 calls (700 bytes an event, two events a call); the example holds 42.
    const page = await browser.openPage('?viewer-budget-mb=0.02');
    const c = caseNamed('real_run_s1');
    assert.equal(await pick(page, c.inputs), 'waiting');
    assert.equal(await chartPainted(page), 'painted', 'the timeline shows the whole run regardless');
    assert.equal(await page.getByTestId('viewer').count(), 0, 'the viewer was not opened');
    const text = await page.getByTestId('budget-text').innerText();
    assert.match(text, /real_run_s1\.h5: the selection holds [\d,]+ calls/);
    assert.match(
      text,
      /Showing them would take speedscope (under a second|about [0-9]+ (s|min)) and [0-9.]+ [kMGT]?B of memory/,
    );
    await assertAccessible(page, 'over budget');

    await settle(page, 'attempts', () => page.getByTestId('budget-convert').click());
    assert.equal(await page.getByTestId('viewer').count(), 0);
    await assertOutputs(page, c);
    // The whole run is over the budget: speedscope gets the middle of it, as much as fits.
    assert.equal(await openInSpeedscope(page), 'painted');
    const title = await page.getByTestId('viewer-title').textContent();
    const shown = Number(title.match(/\(([\d,]+) calls?\)$/)[1].replaceAll(',', ''));
    assert.ok(shown >= 1 && shown <= 14, `${title}: within the budget`);
    await page.close();
  });

  describe('a window of the run in speedscope', () => {
    let sp;
    const file = join(fixtures, 'h5', 'ranks_imbalance_s3.h5');
    const exported = (options) => {
      const [output] = sp.exportSpeedscope({ name: 'ranks_imbalance_s3.h5', bytes: readFileSync(file) }, options);
      return Buffer.concat(output.chunks).toString('utf8');
    };
    before(async () => {
      sp = await createScopeSpeedscope();
    });

    test("the download of the page's first view (rank 0) is written from the timeline: no second read", async () => {
      const page = await browser.openPage();
      await page.addInitScript(recordHandOver);
      await page.reload();
      await page.waitForFunction(() =>
        /running in your browser/.test(document.getElementById('version-line').textContent),
      );
      await pick(page, ['ranks_imbalance_s3.h5']);
      assert.equal(await chartPainted(page), 'painted');
      await page.waitForFunction(() => document.body.dataset.phase === 'done');
      assert.equal(await page.locator('#bar').getAttribute('data-download-from'), 'timeline');
      assert.equal(await page.evaluate(() => window.converts), 0, 'no conversion from the file');
      assert.equal(await page.evaluate(() => window.workersMade), 1, 'one engine: one worker');
      const got = await downloads(page);
      assert.deepEqual([...got.keys()], ['profile.speedscope.json']);
      assert.ok(got.get('profile.speedscope.json').toString('utf8') === exported({ ranks: [0] }));
      await page.close();
    });

    test('All ranks: written from the timeline, without reading the file again, the export of that window', async () => {
      const page = await browser.openPage();
      const got = await openRanksWindow(page, () => page.getByTestId('rank-all').check());
      assert.equal(got.from, 'timeline');
      assert.equal(got.converts, 0, 'no conversion from the file');
      assert.match(got.timeWindow, /^\d+ns:\d+ns$/);
      const whole = exported({ ranks: [0, 1, 2, 3] });
      const want = exported({ ranks: [0, 1, 2, 3], timeWindow: got.timeWindow });
      assert.notEqual(want, whole, 'a window, not the whole run');
      assert.ok(got.shown === want, `the viewer's document is the export of ${got.timeWindow}`);
      await page.close();
    });

    test('one rank of four: written from the timeline too (the file’s region order), the same bytes', async () => {
      const page = await browser.openPage();
      const got = await openRanksWindow(page, async () => {
        await page.getByTestId('rank-0').uncheck();
        await page.getByTestId('rank-2').check();
      });
      assert.equal(got.from, 'timeline');
      assert.equal(got.converts, 0, 'no conversion from the file');
      const want = exported({ ranks: [2], timeWindow: got.timeWindow });
      assert.notEqual(want, exported({ ranks: [2] }), 'a window, not the whole run');
      assert.ok(got.shown === want, `the viewer's document is the export of ${got.timeWindow}`);
      await page.close();
    });
  });

  test('the policies allow no request outside the origin', () => {
    const pageHtml = readFileSync(join(root, 'index.html'), 'utf8');
    const viewerHtml = readFileSync(join(root, 'speedscope', 'index.html'), 'utf8');
    for (const [name, html] of [
      ['index.html', pageHtml],
      ['speedscope/index.html', viewerHtml],
    ]) {
      const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
      assert.ok(csp, `${name} has a policy`);
      const directives = Object.fromEntries(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([k, ...v]) => [k, v]),
      );
      assert.deepEqual(directives['default-src'], ["'self'"], name);
      for (const [k, values] of Object.entries(directives)) {
        for (const v of values) {
          // A script hash (the viewer frame's inline scripts) allows no request either.
          assert.ok(
            ["'self'", "'none'", "'unsafe-inline'", "'wasm-unsafe-eval'", 'blob:', 'data:'].includes(v) ||
              /^'sha256-[A-Za-z0-9+/]+=*'$/.test(v),
            `${name}: ${k} allows ${v}`,
          );
        }
      }
    }
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
