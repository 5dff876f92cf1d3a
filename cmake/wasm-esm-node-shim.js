// Prologue of the wasm ES module (emcc --extern-pre-js, see cmake/wasm.cmake).
// Emscripten 3.1.6 uses require() and __dirname on Node even in an ES module,
// where they do not exist; define them there. Browsers skip the imports.
const scopeSpeedscopeOnNode = typeof process == 'object' && typeof process.versions == 'object' &&
  typeof process.versions.node == 'string';
const require = scopeSpeedscopeOnNode ? (await import('node:module')).createRequire(import.meta.url) : undefined;
const __filename = scopeSpeedscopeOnNode ? (await import('node:url')).fileURLToPath(import.meta.url) : '';
const __dirname = scopeSpeedscopeOnNode ? (await import('node:path')).dirname(__filename) : '';
