// Prologue of the Node variant of the wasm ES module (emcc --extern-pre-js,
// see cmake/wasm.cmake). Emscripten 3.1.6 uses require() and __dirname on
// Node even in an ES module, where they do not exist; define them. Static
// imports only: no top-level await, so that require(esm) and bundlers that
// target Node accept the module. Nor the module's own URL (the import meta
// property; scripts/build-dist.mjs refuses a glue that names it): a bundler
// writes it out as the file:// URL of the build machine's copy of this file,
// which then fails (and leaks that path) wherever the bundle is run.
// The glue only needs these three modules (scripts/build-dist.mjs checks
// every require() it makes), and never a path of its own: the wasm comes as
// bytes (createScopeSpeedscopeModule({ wasmBinary }), from node.js).
import * as scopeSpeedscopeNodeCrypto from 'node:crypto';
import * as scopeSpeedscopeNodeFs from 'node:fs';
import * as scopeSpeedscopeNodePath from 'node:path';
const require = (id) => {
  switch (id) {
    case 'crypto':
      return scopeSpeedscopeNodeCrypto;
    case 'fs':
      return scopeSpeedscopeNodeFs;
    case 'path':
      return scopeSpeedscopeNodePath;
    default:
      throw new Error(`scope-speedscope: the wasm glue asked for an unexpected module '${id}'`);
  }
};
// Where the glue would look for files of its own: nowhere (see above).
const __filename = '';
const __dirname = '.';
