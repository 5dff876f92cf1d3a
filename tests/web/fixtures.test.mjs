// Every fixture case through the page: chosen through the file input (which
// converts with the defaults at once), the case's options set, converted
// again, and the downloaded bytes compared with tests/fixtures/expected/
// (with our "exporter" value); error cases show the core's message, naming
// the file.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertOutputs, assertSameOrigin, cases, convertWith, errorText, pick, startBrowser,
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
  after(async () => { await browser?.close(); });

  test('offers exactly the ranks that recorded calls', async () => {
    for (const [file, ranks] of [['nested_s3.h5', [0, 1]], ['gap_s1.h5', [0, 2]]]) {
      await pick(page, [file]);
      const offered = await page.locator('#ranks input[name=rank]').evaluateAll(
        (boxes) => boxes.map((b) => Number(b.value)));
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
        const text = await errorText(page);
        const name = c.inputs[0];
        assert.ok(text.includes(c.error.message.replaceAll('{path}', name)), `${c.name}: ${text}`);
        assert.ok(text.includes(name), `${c.name}: the error names ${name}: ${text}`);
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
