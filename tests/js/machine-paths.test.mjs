// No file we ship holds a path of the machine that built it: the site's
// wasm, the package's, and the single-file page with everything inlined
// (its base64 blocks decoded: the wasm, the worker, the example).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { dist, root } from './helpers.mjs';
import { machinePathsIn } from '../../scripts/machine-paths.mjs';

const single = path.join(dist, 'scope-speedscope.html');

test('the single-file page: no machine path in the page or in any inlined block', () => {
  const html = fs.readFileSync(single, 'latin1');
  const blocks = [...html.matchAll(/<script type="application\/octet-stream" id="([^"]+)">([^<]*)<\/script>/g)];
  assert.deepEqual(
    blocks.map((b) => b[1]).filter((id) => id === 'scope-speedscope-wasm'),
    ['scope-speedscope-wasm'],
  );
  for (const [, id, base64] of blocks) {
    const bytes = Buffer.from(base64, 'base64');
    // Scripts name Emscripten's virtual folders (/home/web_user): the wasm
    // is checked for any absolute path, the rest for this build's folders.
    if (id === 'scope-speedscope-wasm') assert.deepEqual(machinePathsIn(bytes), [], id);
    for (const folder of [root, os.homedir(), os.tmpdir() + '/']) {
      assert.ok(!bytes.toString('latin1').includes(folder), `${id} holds ${folder}`);
    }
  }
  assert.ok(!html.includes(root), `the page holds ${root}`);
});

test('the package and the site: no machine path in their wasm', () => {
  for (const file of [
    path.join(dist, 'scope-speedscope.wasm'),
    path.join(dist, 'web', 'lib', 'scope-speedscope.wasm'),
  ]) {
    const bytes = fs.readFileSync(file);
    assert.deepEqual(machinePathsIn(bytes), [], file);
  }
});
