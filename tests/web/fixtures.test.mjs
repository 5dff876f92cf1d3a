// Every fixture case through the page: chosen through the file input (which
// converts with the defaults at once), the case's options set, converted
// again, and the downloaded bytes compared with tests/fixtures/expected/
// (with our "exporter" value); error cases show the core's words for people
// once (asked of the package in Node), naming the file once.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertCoreError,
  assertOutputs,
  assertSameOrigin,
  cases,
  convertWith,
  pick,
  startBrowser,
} from './harness.mjs';

// Cases whose ranks a person cannot choose on the page: given out of order
// (the page sends ranks ascending, as the CLI does), or ranks the page does
// not offer (it offers the ranks that recorded calls). The library and CLI
// suites run them; the test below checks what the page offers instead.
const notOnThePage = new Set(['nested_s3_ranks10', 'ERR_rank5', 'ERR_rank_negative', 'ERR_gap_s1_rank1']);

const isDefault = (c) => !c.ranks && !c.include && !c.exclude && c.filepath === 'profile.speedscope.json';

describe('fixture cases through the page', { timeout: 900_000 }, () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage();
  });
  after(async () => {
    await browser?.close();
  });

  test('offers exactly the ranks that recorded calls', async () => {
    for (const [file, ranks] of [
      ['nested_s3.h5', [0, 1]],
      ['gap_s1.h5', [0, 2]],
    ]) {
      await pick(page, [file]);
      const offered = await page
        .locator('#ranks input[name=rank]')
        .evaluateAll((boxes) => boxes.map((b) => Number(b.value)));
      assert.deepEqual(offered, ranks, file);
    }
  });

  for (const c of cases.filter((x) => !notOnThePage.has(x.name))) {
    test(c.name, async () => {
      const phase = await pick(page, c.inputs);
      const rejectedOnRead = phase === 'failed' && !(await page.locator('#ranks input').count());
      if (!rejectedOnRead && !isDefault(c)) {
        assert.ok(await convertWith(page, c), `${c.name}: the page cannot set ranks ${c.ranks}`);
      }
      if (c.error) {
        const err = await assertCoreError(page, c);
        assert.equal(err.message, c.error.message.replaceAll('{path}', c.inputs[0]), `${c.name}: the CLI's message`);
      } else {
        assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
        await assertOutputs(page, c);
      }
    });
  }

  test('no request left the origin, and nothing was blocked', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});

// Files up to 256 MiB are read whole before converting; larger ones lazily
// (the core's file driver asks for slices). ?read-whole-bytes=0 sends every file the
// lazy way: one case of each fixture file (every layout) must give the same bytes.
describe('fixture cases read lazily, as files over 256 MiB are', { timeout: 900_000 }, () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage('?read-whole-bytes=0');
  });
  after(async () => {
    await browser?.close();
  });

  const seen = new Set();
  const onePerFile = cases.filter(
    (c) => !c.error && !notOnThePage.has(c.name) && !seen.has(c.inputs.join()) && seen.add(c.inputs.join()),
  );
  for (const c of onePerFile) {
    test(c.name, async () => {
      await pick(page, c.inputs);
      if (!isDefault(c)) assert.ok(await convertWith(page, c), c.name);
      assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
      await assertOutputs(page, c);
    });
  }
});
