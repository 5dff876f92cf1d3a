// Test glue of the example app (not part of the README's snippets): exposes
// the example's functions to tests/pkg/bundlers.test.mjs, which drives the
// page with playwright-core.
import { ScopeSpeedscopeError, createScopeSpeedscope } from 'scope-speedscope';
import { convertBytes, convertFile, convertInWorker } from './convert.js';

async function sha256(blob) {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function describe(blob) {
  return { size: blob.size, sha256: await sha256(blob) };
}

// What a synchronous call with a File does on the main thread.
async function syncFileOnMainThread(file) {
  const sp = await createScopeSpeedscope();
  try {
    sp.exportSpeedscope([{ name: file.name, file }]);
    return { threw: false };
  } catch (error) {
    return { threw: true, name: error.name, message: error.message, isTypeError: error instanceof TypeError };
  }
}

async function errorOf(promise) {
  try {
    await promise;
    return null;
  } catch (error) {
    return { name: error.name, message: error.message, kind: error.kind ?? null, ours: error instanceof ScopeSpeedscopeError };
  }
}

window.example = {
  file: () => document.querySelector('input[type=file]').files[0],
  async run() {
    const file = this.file();
    return {
      bytes: await describe(await convertBytes(file.name, new Uint8Array(await file.arrayBuffer()))),
      file: await describe(await convertFile(file)),
      worker: await describe(await convertInWorker(file)),
      syncFile: await syncFileOnMainThread(file),
      badRanks: await errorOf(createScopeSpeedscope()
        .then((sp) => sp.exportSpeedscope([{ name: file.name, file }], { ranks: ['0'] }))),
      notHdf5: await errorOf(convertBytes('notes.h5', new TextEncoder().encode('not an HDF5 file'))),
    };
  },
};
document.title = 'ready';
