// Damaged and hostile files (tests/fixtures/bad, see its cases.json) in one
// page, one after the other: each ends in a clear message naming the file or
// in a conversion, never a raw WebAssembly trap, never a hang (the page stops
// a converter that makes no progress: ?stall-limit-ms=5000 here, twice that
// while reading what a file holds), and a good
// file converts right after in the same page.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertAccessible,
  assertOutputs,
  caseNamed,
  fixtures,
  occurrences,
  pick,
  settle,
  startBrowser,
} from './harness.mjs';

const badCases = JSON.parse(readFileSync(join(fixtures, 'bad', 'cases.json'), 'utf8'));
// A sample of every kind: traps in wasm, endless loops, huge declared sizes,
// broken indexes, a 1 MB region name under a filter, a link cycle.
const SAMPLE = [
  'hdf5_gheap_segv_names.h5',
  'hdf5_gheap_wasm_null_function.h5',
  'hdf5_gheap_wasm_heap_corrupt.h5',
  'hdf5_gheap_loop.h5',
  'hdf5_gheap_segv_attribute.h5',
  'index_count_negative.h5',
  'index_offset_wraps.h5',
  'declared_1e8_never_written.h5',
  'hardlink_cycle_s1.h5',
  'name_1mb.h5',
];
const RAW =
  /RuntimeError|Aborted\(|memory access out of bounds|null function|signature mismatch|unreachable|WebAssembly/i;

describe('bad files in the page', { timeout: 900_000 }, () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage('?stall-limit-ms=5000');
  });
  after(async () => {
    await browser?.close();
  });

  for (const name of SAMPLE) {
    const c = badCases.find((x) => x.file === name);
    test(`${name}: ${c.found.slice(0, 70)}`, async () => {
      const started = Date.now();
      let phase = await pick(page, [name], { dir: 'bad', timeout: 60_000 });
      const include = c.args[c.args.indexOf('--include') + 1];
      if (phase === 'done' && c.args.includes('--include')) {
        await page.getByTestId('options-toggle').click();
        phase = await settle(page, 'attempts', () => page.getByTestId('include').fill(include), { timeout: 60_000 });
        await page.getByTestId('options-toggle').click();
      }
      assert.ok(Date.now() - started < 45_000, `settled in ${Date.now() - started} ms`);
      assert.ok(['done', 'failed'].includes(phase), `${name}: ended ${phase}`);
      if (phase === 'failed') {
        const text = await page.getByTestId('error').innerText();
        assert.ok(text.includes(name), `${name}: the message names the file: ${text}`);
        assert.doesNotMatch(text.replaceAll(name, ''), RAW, `${name}: no raw trap text: ${text}`);
        assert.equal(await occurrences(page, text.trim()), 1, `${name}: said once`);
      } else {
        const href = await page.getByTestId('download').getAttribute('href');
        const doc = await page.evaluate(async (u) => JSON.parse(await (await fetch(u)).text()), href);
        assert.equal(doc.$schema, 'https://www.speedscope.app/file-format-schema.json');
      }
    });
  }

  test('a good file converts right after, in the same page', async () => {
    assert.equal(await pick(page, ['real_run_s1.h5']), 'done');
    await assertOutputs(page, caseNamed('real_run_s1'));
    await assertAccessible(page, 'after the bad files');
  });

  test('a converter that stops responding is stopped and restarted, naming the file', async () => {
    const stuck = await browser.openPage('?stall-limit-ms=2000&test-stall=stuck.h5');
    const started = Date.now();
    const phase = await settle(stuck, 'selection', () =>
      stuck.setInputFiles('[data-testid=file-input]', [
        {
          name: 'stuck.h5',
          mimeType: 'application/x-hdf5',
          buffer: readFileSync(join(fixtures, 'h5', 'real_run_s1.h5')),
        },
      ]),
    );
    assert.equal(phase, 'failed');
    assert.ok(Date.now() - started < 15_000);
    const text = await stuck.getByTestId('error').innerText();
    assert.match(
      text,
      /^stuck\.h5 made the converter stop responding \(no progress for 4 s\), so it was stopped and restarted\./,
    );
    assert.equal(await pick(stuck, ['real_run_s1.h5']), 'done');
    await assertOutputs(stuck, caseNamed('real_run_s1'));
    await stuck.close();
  });
});
