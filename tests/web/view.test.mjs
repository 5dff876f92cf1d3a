// `scope-speedscope view run.h5 --no-open` in a browser: the printed URL opens
// the page with the converted result loaded (no file to pick, no click), the
// chart is painted and the download holds the export's bytes. Playwright
// stands in for the default browser (--no-open prints the URL only).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';

import { startCli } from '../js/serve-helpers.mjs';
import { assertOutputs, assertPainted, caseNamed, fixtures, startBrowser } from './harness.mjs';

describe('scope-speedscope view in the browser', { timeout: 300_000 }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  async function open(url) {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    return { page, errors };
  }

  test('the printed URL shows the chart and offers the download', async () => {
    const c = caseNamed('real_run_s1');
    const cli = await startCli(['view', join(fixtures, 'h5', 'real_run_s1.h5'), '--no-open']);
    try {
      const { page, errors } = await open(cli.url);
      await assertPainted(page, 'real_run_s1');
      await assertOutputs(page, c);
      assert.match(await page.getByTestId('status').innerText(), /real_run_s1|profile\.speedscope\.json/);
      assert.ok(await page.getByTestId('error').isHidden());
      // A page opened by view does not install the offline copy for this port.
      assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      assert.equal((await cli.stop('SIGINT')).code, 0);
    }
  });

  test('several files and the export options: one output each, a selector between them', async () => {
    const c = caseNamed('multi_fixtures');
    const args = ['view', ...c.inputs.map((f) => join(fixtures, 'h5', f)), '--no-open'];
    if (c.ranks !== null) args.push('--ranks', c.ranks.join(','));
    if (c.include !== null) args.push('--include', ...c.include);
    if (c.exclude !== null) args.push('--exclude', ...c.exclude);
    const cli = await startCli(args);
    try {
      const { page } = await open(cli.url);
      await assertPainted(page, 'hdf5-schema-1');
      await assertOutputs(page, c);
      await page.close();
    } finally {
      await cli.stop('SIGINT');
    }
  });

  test("a result over the viewer's budget waits for a click, as the page's own do", async () => {
    const cli = await startCli(['view', join(fixtures, 'h5', 'large_s3.h5'), '--no-open']);
    try {
      // The served call count reaches the budget check (a tiny test budget).
      const { page } = await open(`${cli.url}&viewer-budget-mb=1`);
      await page.waitForFunction(() => document.body.dataset.viewer === 'held', null, { timeout: 60_000 });
      assert.ok(await page.getByTestId('download').isVisible());
      await page.close();
    } finally {
      await cli.stop('SIGINT');
    }
  });

  test('after Ctrl+C the page says that the server has stopped', async () => {
    const cli = await startCli(['view', join(fixtures, 'h5', 'hdf5-schema-3.h5'), '--no-open']);
    const { page } = await open(cli.url);
    await assertPainted(page, 'hdf5-schema-3');
    await cli.stop('SIGINT');
    // The page is still open; fetching its result again fails with words for people.
    const message = await page.evaluate(async () => {
      const { loadServedResults } = await import('./served-result.js');
      try {
        await loadServedResults(() => {});
        return 'loaded';
      } catch (e) {
        return e.message;
      }
    });
    assert.equal(message, 'profile.speedscope.json could not be fetched: is scope-speedscope view still running?');
    await page.close();
  });
});
