// Prologue of the Node variant of the wasm ES module (emcc --extern-pre-js,
// see cmake/wasm.cmake). Emscripten 3.1.6 uses require() and __dirname on
// Node even in an ES module, where they do not exist; define them. Static
// imports only: no top-level await, so that require(esm) and bundlers that
// target Node accept the module.
import { createRequire as scopeSpeedscopeCreateRequire } from 'node:module';
import { dirname as scopeSpeedscopeDirname } from 'node:path';
import { fileURLToPath as scopeSpeedscopeFileURLToPath } from 'node:url';
const require = scopeSpeedscopeCreateRequire(import.meta.url);
const __filename = scopeSpeedscopeFileURLToPath(import.meta.url);
const __dirname = scopeSpeedscopeDirname(__filename);
