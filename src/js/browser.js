// scope-speedscope for browsers, Web Workers and bundlers (the `browser` and
// `default` conditions of package.json). No `node:` import anywhere below it.
// The API itself is in api.js, shared with the Node entry; types in index.d.ts.
import createScopeSpeedscopeModule from './scope-speedscope.js';
import { createOptionsOf, instantiate } from './api.js';

export { NS_PER_SECOND, SCHEMA_URL, TIME_UNIT, ScopeSpeedscopeError, concatChunks } from './api.js';

// The .wasm next to this file. Vite, webpack 5, Parcel and Rollup's plugins
// recognise this exact pattern and emit the file as an asset; without a
// bundler (or with esbuild, which leaves it as it is) the browser resolves it
// against this module's URL.
function wasmUrl() {
  try {
    return new URL('./scope-speedscope.wasm', import.meta.url).href;
  } catch {
    // A bundle without import.meta.url (e.g. an IIFE): let Emscripten look
    // next to the page or worker script.
    return undefined;
  }
}

/** Loads the wasm module once; call again for an independent instance. */
export async function createScopeSpeedscope(options) {
  const moduleArgs = createOptionsOf(options);
  let from = 'the URL given by locateFile';
  if (moduleArgs.wasmBinary) {
    from = undefined;
  } else if (!moduleArgs.locateFile) {
    const url = wasmUrl();
    from = url ?? 'next to the page';
    if (url) moduleArgs.locateFile = (file, prefix) => (file.endsWith('.wasm') ? url : prefix + file);
  }
  return instantiate(createScopeSpeedscopeModule, moduleArgs, from);
}

export default createScopeSpeedscope;
