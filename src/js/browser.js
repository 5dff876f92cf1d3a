// scope-speedscope for browsers, Web Workers and bundlers (the `browser` and
// `default` conditions of package.json). No `node:` import anywhere below it.
// The API itself is in api.js, shared with the Node entry; types in index.d.ts.
import createScopeSpeedscopeModule from './scope-speedscope.js';
import { createOptionsOf, instantiate } from './api.js';

export { NS_PER_SECOND, SCHEMA_URL, TIME_UNIT, ScopeSpeedscopeError, concatChunks, decodeAnswer } from './api.js';

// The .wasm next to this file. Vite, webpack 5, Parcel and Rollup's plugins
// recognise this exact pattern and emit the file as an asset; without a
// bundler (or with esbuild, which leaves it as it is) the browser resolves it
// against this module's URL.
function wasmUrl() {
  try {
    return new URL('./scope-speedscope.wasm', import.meta.url).href;
  } catch {
    return undefined; // a bundle without import.meta.url (an IIFE or CommonJS bundle)
  }
}

/** Loads the wasm module once; call again for an independent instance. */
export async function createScopeSpeedscope(options) {
  const moduleArgs = createOptionsOf(options);
  let from;
  if (moduleArgs.wasmBinary) {
    // Keeps the glue from resolving its own default URL (it needs import.meta.url).
    moduleArgs.locateFile ??= (file, prefix) => prefix + file;
  } else if (moduleArgs.locateFile) {
    from = moduleArgs.locateFile('scope-speedscope.wasm', '');
  } else {
    from = wasmUrl();
    if (from === undefined) {
      throw new Error(
        'scope-speedscope: this bundle has no import.meta.url (an IIFE or CommonJS bundle), ' +
          "so the .wasm cannot be found next to the package's JavaScript: pass " +
          'createScopeSpeedscope({ locateFile: (file) => `/where/it/is/${file}` }) or ({ wasmBinary }), ' +
          'or bundle as an ES module',
      );
    }
    const url = from;
    moduleArgs.locateFile = (file, prefix) => (file.endsWith('.wasm') ? url : prefix + file);
  }
  return instantiate(createScopeSpeedscopeModule, moduleArgs, from);
}

export default createScopeSpeedscope;
