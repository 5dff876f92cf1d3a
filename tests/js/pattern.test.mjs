// Region filters through the wasm build: the same engine (PCRE2 in the
// module) checks a pattern for the page (checkPattern), fails an export on
// a bad one, and matches Python's dialect; the Node CLI prints what the
// native CLI prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, it, before } from 'node:test';

import { inputPath, listFiles, nativeCli, nodeCli, tempDir } from './helpers.mjs';
import { createScopeSpeedscope, concatChunks, ScopeSpeedscopeError } from '../../dist/node.js';

const input = (name) => ({ name, bytes: new Uint8Array(fs.readFileSync(inputPath(name))) });
const frames = (outputs) =>
  JSON.parse(new TextDecoder().decode(concatChunks(outputs[0].chunks))).shared.frames.map((f) => f.name);

describe('filters in the module', () => {
  let sp;
  before(async () => {
    sp = await createScopeSpeedscope();
  });

  it('checkPattern returns null or the message the export fails with', () => {
    assert.equal(sp.checkPattern('solve'), null);
    assert.equal(sp.checkPattern('(?P<n>a)(?P=n)'), null);
    assert.equal(sp.checkPattern('(?i)(?<=x)y\\Z'), null);
    assert.equal(sp.checkPattern('('), "Invalid regular expression '(': missing closing parenthesis at position 1");
    assert.equal(
      sp.checkPattern('日本('),
      "Invalid regular expression '日本(': missing closing parenthesis at position 3",
    );
    assert.equal(
      sp.checkPattern('*a'),
      "Invalid regular expression '*a': quantifier does not follow a repeatable item at position 0",
    );
  });

  it('a bad pattern fails the export as a PatternError', () => {
    assert.throws(
      () => sp.exportSpeedscope([input('nested_s3.h5')], { include: ['main', '('] }),
      (e) => {
        assert.ok(e instanceof ScopeSpeedscopeError);
        assert.equal(e.kind, 'PatternError');
        assert.equal(e.message, "Invalid regular expression '(': missing closing parenthesis at position 1");
        return true;
      },
    );
  });

  it("matches with Python's re.match meaning", () => {
    const all = frames(sp.exportSpeedscope([input('nested_s3.h5')]));
    assert.ok(all.length > 2);
    // Anchored at the start only; case-insensitive inline flag; \Z is the end.
    const first = all[0];
    assert.deepEqual(frames(sp.exportSpeedscope([input('nested_s3.h5')], { include: [`${first}\\Z`] })), [first]);
    assert.deepEqual(
      frames(sp.exportSpeedscope([input('nested_s3.h5')], { include: [`(?i)${first.toUpperCase()}$`] })),
      [first],
    );
    assert.throws(
      () => sp.exportSpeedscope([input('nested_s3.h5')], { include: [first.slice(1)] }),
      /No regions matched the selected filters\./,
    );
  });

  it('the Node CLI prints what the native CLI prints for a bad pattern', () => {
    const args = (out) => [inputPath('nested_s3.h5'), '-o', out, '--exclude', 'a{2,1}'];
    const outNode = tempDir();
    const outNative = tempDir();
    const a = spawnSync(process.execPath, [nodeCli, ...args(outNode)], { encoding: 'utf8' });
    const b = spawnSync(nativeCli, args(outNative), { encoding: 'utf8' });
    assert.equal(a.status, 1);
    assert.equal(b.status, 1);
    assert.equal(
      a.stderr,
      "error: Invalid regular expression 'a{2,1}': numbers out of order in {} quantifier at position 5\n",
    );
    assert.equal(a.stderr, b.stderr);
    assert.deepEqual(listFiles(outNode), []);
  });
});
