// The compressed twins (LZF and Zstandard, with and without shuffle, levels
// 1, 3 and 19: tests/fixtures/gen/make_compressed.py) through the page: every
// compressed file chosen as a person would, converted with its case's
// options, its download byte for byte its original's expected output; the
// hostile chunks and the filters we do not decode shown in the core's words,
// the page usable after each.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import {
  assertOutputs,
  assertSameOrigin,
  convertWith,
  coreError,
  errorText,
  fixtures,
  occurrences,
  pick,
  startBrowser,
} from './harness.mjs';

const compressedCases = JSON.parse(readFileSync(join(fixtures, 'compressed-cases.json'), 'utf8'));
const isDefault = (c) => !c.ranks && !c.include && !c.exclude && c.filepath === 'profile.speedscope.json';

// One case per file: its default conversion where it has one, else its first
// case whose ranks the page offers (ascending).
function onePerFile() {
  const byFile = new Map();
  for (const c of compressedCases) {
    if (c.inputs.length !== 1) continue;
    const ascending = !c.ranks || c.ranks.every((r, i) => i === 0 || r > c.ranks[i - 1]);
    if (!ascending || (c.error && c.ranks)) continue;
    const file = c.inputs[0];
    if (!byFile.has(file) || (isDefault(c) && !isDefault(byFile.get(file)))) byFile.set(file, c);
  }
  return [...byFile.values()];
}

// The file as the page is given it: its folder under tests/fixtures, its name.
const where = (c) => ({ dir: join('h5', dirname(c.inputs[0])), name: basename(c.inputs[0]) });

describe('compressed files through the page', { timeout: 900_000 }, () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    page = await browser.openPage();
  });
  after(async () => {
    await browser?.close();
  });

  const chosen = onePerFile();
  test('every compressed file has a case', () => {
    const files = new Set(compressedCases.flatMap((c) => c.inputs));
    assert.equal(chosen.length, files.size);
    assert.equal(files.size, 30 + 6 + 16);
  });

  for (const c of chosen) {
    test(c.name, async () => {
      const { dir, name } = where(c);
      const phase = await pick(page, [name], { dir });
      if (c.error) {
        assert.equal(phase, 'failed', c.name);
        // The core's words for people, said once: on the option it blames,
        // else in the error box, which names the file once.
        const err = await coreError(c);
        assert.equal(err.message, c.error.message.replaceAll('{path}', c.inputs[0]));
        assert.equal(await occurrences(page, err.peopleMessage), 1, `${c.name}: said once`);
        if (err.field) return;
        const text = await errorText(page);
        assert.ok(text.includes(err.peopleMessage), `${c.name}: ${text}`);
        assert.equal(text.split(name).length - 1, 1, `${c.name}: ${name} named once: ${text}`);
        return;
      }
      if (!isDefault(c)) assert.ok(await convertWith(page, c), `${c.name}: options`);
      assert.ok(await page.getByTestId('error').isHidden(), await page.getByTestId('error').innerText());
      await assertOutputs(page, { ...c, inputs: [name] });
    });
  }

  test('after a hostile chunk, the next file converts', async () => {
    await pick(page, ['gzip_bomb_64_mib.h5'], { dir: 'h5/compressed/hostile' });
    const c = chosen.find((x) => x.inputs[0] === 'compressed/zstd19/gzip_s3.h5');
    assert.equal(await pick(page, ['gzip_s3.h5'], { dir: 'h5/compressed/zstd19' }), 'done');
    await assertOutputs(page, { ...c, inputs: ['gzip_s3.h5'] });
  });

  test('no request left the origin, and nothing was blocked', () => {
    assertSameOrigin(browser.log, new URL(browser.server.url).origin);
  });
});
