// Big files: valid profiles whose data lies beyond 2 GiB and beyond 4 GiB,
// after a large dataset allocated early and never written (sparse files).
// The native CLI, the Node CLI and the JS API (from the path, read lazily)
// make the same bytes (no "File size ... is greater than 2 GiB" of a whole
// read, no file called damaged). As bytes such a file does not fit the 4 GiB
// of WebAssembly memory beside the work: the message says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';

import { nodeCli, tempDir } from './helpers.mjs';
import { GIB, makeBigFiles, nativeOutput, sha256 } from './big-files.mjs';
import { createScopeSpeedscope, concatChunks } from '../../dist/node.js';

describe('big files: data beyond 2 GiB and 4 GiB', { timeout: 600_000 }, () => {
  let files;
  let sp;
  const native = new Map();
  before(async () => {
    files = makeBigFiles();
    sp = await createScopeSpeedscope();
    for (const file of files) native.set(file, nativeOutput(file));
  });

  it('the files are what they claim: sparse, larger than 3 and 5 GiB', () => {
    const [three, five] = files.map((f) => fs.statSync(f));
    assert.ok(three.size > 3 * GIB && three.size < 4 * GIB, `${three.size}`);
    assert.ok(five.size > 5 * GIB, `${five.size}`);
    for (const st of [three, five]) assert.ok(st.blocks * 512 < 64 * 2 ** 20, `${st.blocks * 512} bytes on disk`);
  });

  it('the native CLI converts both: 8 ranks x lanes of real names', () => {
    for (const file of files) {
      const doc = JSON.parse(native.get(file).bytes);
      assert.deepEqual(doc.shared.frames.map((f) => f.name).sort(), ['io/write', 'kernel \u00e9', 'main', 'solve']);
      assert.ok(
        doc.profiles.some((p) => p.name === 'rank 0 - Task-3 (job_1) on MainThread'),
        doc.profiles.map((p) => p.name).join(', '),
      );
    }
  });

  it('the JS API reading the path lazily gives the native bytes', () => {
    for (const file of files) {
      const [o] = sp.exportSpeedscope([{ name: file, path: file }]);
      assert.equal(sha256(concatChunks(o.chunks)), native.get(file).sha256, file);
    }
  });

  it('the Node CLI converts both, byte for byte as the native CLI', () => {
    for (const file of files) {
      const out = tempDir();
      const r = spawnSync(process.execPath, [nodeCli, file, '-o', out, '--quiet'], { encoding: 'utf8' });
      assert.equal(r.stderr, '');
      assert.equal(r.status, 0);
      assert.equal(sha256(fs.readFileSync(path.join(out, native.get(file).name))), native.get(file).sha256);
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('from bytes: 3 GiB do not fit the module beside its work; it says so (not "damaged"), then the path converts', () => {
    const file = files[0];
    const size = fs.statSync(file).size;
    const bytes = new Uint8Array(size);
    const fd = fs.openSync(file, 'r');
    try {
      for (let done = 0; done < size;) done += fs.readSync(fd, bytes, done, Math.min(GIB, size - done), done);
    } finally {
      fs.closeSync(fd);
    }
    assert.throws(
      () => sp.exportSpeedscope([{ name: file, bytes }]),
      (e) => {
        assert.equal(e.code, 'out_of_memory');
        assert.equal(e.kind, 'MemoryError');
        assert.equal(e.peopleMessage, 'There is not enough memory to convert this file.');
        return true;
      },
    );
    const [o] = sp.exportSpeedscope([{ name: file, path: file }]);
    assert.equal(sha256(concatChunks(o.chunks)), native.get(file).sha256);
  });
});
