// The first view of some ranks is opened provisionally (nothing of the other
// ranks read: docs/engine-protocol.md, "Provisional opens") and completed
// once painted: on order_by_other_rank_s3.h5 rank 1 decides which of rank
// 0's two calls of the same span is the outer one, so completing it opens
// the timeline anew; then what the page shows and downloads is the file's
// (the native CLI's bytes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { chartPainted, converterReady, downloads, fixtures, nativeCli, pick, startBrowser } from './harness.mjs';

const completed = (page) =>
  page.waitForFunction(() => document.getElementById('timeline-box').dataset.provisional === 'false', null, {
    timeout: 60_000,
  });

// The call details of the first call at depth 0 (the timeline focused, Enter).
async function outerCall(page) {
  await page.getByTestId('timeline').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'call');
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-testid=call-details] dd[data-field]')].map((d) => [
        d.dataset.field,
        d.textContent,
      ]),
    ),
  );
}

describe('the first view, provisional then complete', { timeout: 300_000 }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const [file, outer] of [
    ['order_by_other_rank_s3.h5', 'b'], // rank 1 starts b first: the order changes
    ['ranks_imbalance_s3.h5', 'step'], // rank 0 alone gives the file's order
  ]) {
    test(`${file}: rank 0's outer call is ${outer}, the download is the CLI's`, async () => {
      const page = await browser.openPage();
      await pick(page, [file]);
      assert.equal(await chartPainted(page), 'painted');
      await completed(page);
      // The status line, cut with an ellipsis in the one-row bar at 1400 px,
      // keeps its whole sentence as its tooltip.
      const [text, title] = await page.getByTestId('status').evaluate((e) => [e.textContent, e.title]);
      assert.ok(text.length > 0);
      assert.equal(title, text);
      const call = await outerCall(page);
      assert.equal(call.name, outer);
      assert.equal(call.depth, '0');
      const dir = mkdtempSync(join(tmpdir(), 'first-view-'));
      try {
        const made = spawnSync(nativeCli, [join(fixtures, 'h5', file), '-o', dir, '--quiet']);
        assert.equal(made.status, 0, String(made.stderr));
        const got = await downloads(page);
        assert.deepEqual([...got.keys()], ['profile.speedscope.json']);
        const want = readFileSync(join(dir, 'profile.speedscope.json'), 'utf8');
        // The exporter's name aside (the CLI's and the page's are the same build).
        assert.equal(got.get('profile.speedscope.json').toString('utf8'), want);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      assert.deepEqual(browser.log.errors, []);
      await page.close();
    });
  }

  // A new page at `query` that records the types of the requests it sends
  // its engine (window.sentTypes), `file` picked there.
  async function pickWatched(query, file) {
    const page = await browser.context.newPage();
    await page.addInitScript(() => {
      window.sentTypes = [];
      const send = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.type) window.sentTypes.push(message.type);
        return send.call(this, message, ...rest);
      };
    });
    await page.goto(`${browser.server.url}${query}`);
    await converterReady(page);
    assert.equal(await pick(page, [file]), 'done');
    return { page, sent: await page.evaluate(() => window.sentTypes) };
  }

  // The page's download of `file` is the native CLI's export, byte for byte.
  async function assertCliDownload(page, file) {
    const dir = mkdtempSync(join(tmpdir(), 'first-view-'));
    try {
      const made = spawnSync(nativeCli, [join(fixtures, 'h5', file), '-o', dir, '--quiet']);
      assert.equal(made.status, 0, String(made.stderr));
      const got = await downloads(page);
      const want = readFileSync(join(dir, 'profile.speedscope.json'), 'utf8');
      assert.equal(got.get('profile.speedscope.json').toString('utf8'), want);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // The download of rank 0 of 4 reads ranks 1 to 3 to check them: a slice at
  // a time (timeline-check, ?check-calls=1: one rank each), each its own
  // request to the engine, so the timeline's requests are answered between
  // them; the export after them reads nothing more and is the CLI's.
  test("the ranks a download checks are read a slice at a time; the download is the CLI's", async () => {
    const file = 'ranks_imbalance_s3.h5';
    const { page, sent } = await pickWatched('?check-calls=1', file);
    const checks = sent.filter((t) => t === 'timeline-check').length;
    assert.equal(checks, 3, sent.join(' '));
    assert.ok(sent.lastIndexOf('timeline-check') < sent.indexOf('timeline-export'), sent.join(' '));
    await assertCliDownload(page, file);
    await page.close();
  });

  // The download written in slices (?export-events=4: a block of calls a
  // request, timeline-export-more): the same bytes as the CLI's.
  test("a download written a slice at a time is the CLI's", async () => {
    const file = 'ranks_imbalance_s3.h5';
    const { page, sent } = await pickWatched('?export-events=4', file);
    assert.ok(sent.filter((t) => t === 'timeline-export-more').length >= 1, sent.join(' '));
    assert.ok(!sent.includes('timeline-export-cancel'), sent.join(' '));
    await assertCliDownload(page, file);
    await page.close();
  });
});
