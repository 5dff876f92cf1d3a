// A browser app written in CommonJS (require), bundled by webpack --target
// web with no configuration: the package's browser entry behind a require().
// The same checks as the ES module app's main thread (a worker needs
// import.meta, which CommonJS does not have), exposed to
// tests/pkg/package.test.mjs.
const { ScopeSpeedscopeError, createScopeSpeedscope } = require('scope-speedscope');

const ready = createScopeSpeedscope();

async function sha256(blob) {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function describe(chunks) {
  const blob = new Blob(chunks, { type: 'application/json' });
  return { size: blob.size, sha256: await sha256(blob) };
}

// What a promise rejected with (null when it resolved), as the ES module app reports it.
const errorOf = (promise) => promise.then(() => null, (error) => ({
  name: error.name, message: error.message, kind: error.kind ?? null, ours: error instanceof ScopeSpeedscopeError,
}));

async function syncFileOnMainThread(sp, file) {
  try {
    sp.exportSpeedscope([{ name: file.name, file }]);
    return { threw: false };
  } catch (error) {
    return { threw: true, name: error.name, message: error.message, isTypeError: error instanceof TypeError };
  }
}

window.example = {
  async run() {
    const sp = await ready;
    const file = document.querySelector('input[type=file]').files[0];
    const bytes = new Uint8Array(await file.arrayBuffer());
    return {
      bytes: await describe(sp.exportSpeedscope([{ name: file.name, bytes }])[0].chunks),
      file: await describe((await sp.exportSpeedscopeAsync([{ name: file.name, file }], { ranks: [0] }))[0].chunks),
      syncFile: await syncFileOnMainThread(sp, file),
      badRanks: await errorOf(ready.then((s) => s.exportSpeedscope([{ name: file.name, file }], { ranks: ['0'] }))),
      notHdf5: await errorOf(ready.then((s) => s.exportSpeedscope([{ name: 'notes.h5', bytes: new TextEncoder().encode('not an HDF5 file') }]))),
    };
  },
};
document.title = 'ready';
