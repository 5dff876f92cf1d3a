// One answer per file: the seeded campaign that the build
// generates (tests/fixtures/gen/make_mutations.py, seed 20261130) and the
// shared bad fixtures, each through the native CLI and through the
// WebAssembly module in Node (from bytes, and from the path, read lazily).
// Any file whose outcome differs fails: other output bytes, other output
// files, or another message (apart from the file's path). No message shows
// HDF5's raw words ("addr = ...") or JavaScript's "undefined".
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, before } from 'node:test';

import { fixtures, root } from './helpers.mjs';
import { RAW_WORDS, badInputs, campaignInputs, compareBuilds, explain, nativeCli } from './compare-builds.mjs';

const mutationsFile = path.join(root, 'build', 'native', 'tests', 'cpp', 'mutations', 'mutations.json');
for (const needed of [mutationsFile, nativeCli]) {
  if (!fs.existsSync(needed)) throw new Error(`${needed} is missing: run npm run build first`);
}

describe('differential: native CLI against the wasm module (bytes and path)', () => {
  const campaign = campaignInputs(mutationsFile);
  const bad = badInputs(path.join(fixtures, 'bad'));
  let run;
  before(async () => {
    run = await compareBuilds([...campaign, ...bad]);
  });

  it('the campaign has its seeded size (382 files) and the bad fixtures are all there', () => {
    assert.equal(campaign.length, 382);
    assert.equal(bad.length, JSON.parse(fs.readFileSync(path.join(fixtures, 'bad', 'cases.json'), 'utf8')).length + 1);
    assert.equal(run.results.length, campaign.length + bad.length);
  });

  it('every file has the same outcome in both builds', () => {
    assert.deepEqual(run.differences.map(explain), []);
  });

  it('both outcomes occur: conversions and refusals (the comparison is not vacuous)', () => {
    const converted = run.results.filter((r) => r.native.outputs).length;
    const refused = run.results.filter((r) => r.native.error !== undefined).length;
    assert.ok(converted >= 50, `${converted} conversions`);
    assert.ok(refused >= 100, `${refused} refusals`);
  });

  it('no message carries raw words (HDF5 addresses alone, "undefined")', () => {
    const raw = run.results.filter((r) => [r.native, r.bytes, r.path].some((o) => o.error && RAW_WORDS.test(o.error)));
    assert.deepEqual(raw.map(explain), []);
  });

  it("the issue's pattern over a 1 MiB name is refused by both, with the same words", () => {
    const r = run.results.find((x) => x.input.args[1] === '(x|y)*z');
    assert.equal(
      r.native.error,
      "Regular expression '(x|y)*z' needs too much backtracking to match a region name of 1048576 characters; simplify it",
    );
    assert.equal(r.bytes.error, r.native.error);
  });
});
