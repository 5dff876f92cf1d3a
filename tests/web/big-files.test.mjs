// Big files in the page: valid profiles whose data lies beyond
// 2 GiB and beyond 4 GiB (sparse files from tests/fixtures/gen/make_big.py)
// chosen as Files: the worker reads them lazily (files over 256 MiB), through
// the core's own HDF5 file driver, and the download holds the native CLI's
// bytes. Before, the page called them damaged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { downloads, settle, startBrowser } from './harness.mjs';
import { makeBigFiles, nativeOutput, sha256 } from '../js/big-files.mjs';

describe('big files in the page', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let files;
  before(async () => {
    files = makeBigFiles();
    browser = await startBrowser();
    page = await browser.openPage();
  });
  after(async () => {
    await browser?.close();
  });

  test('data beyond 2 GiB and beyond 4 GiB converts as natively', async () => {
    for (const file of files) {
      const want = nativeOutput(file);
      // A path: Playwright hands Chromium the file itself, not its bytes.
      const phase = await settle(page, 'selection', () => page.setInputFiles('[data-testid=file-input]', file), {
        timeout: 300_000,
      });
      const error = (await page.getByTestId('error').isVisible()) ? await page.getByTestId('error').innerText() : '';
      assert.equal(phase, 'done', `${file}: ${error}`);
      const got = await downloads(page);
      assert.deepEqual([...got.keys()], [want.name]);
      assert.equal(sha256(got.get(want.name)), want.sha256, file);
    }
  });
});
