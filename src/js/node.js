// scope-speedscope for Node (the `node` condition of package.json; the CLI
// uses it too). The API itself is in api.js, shared with the browser entry;
// types in index.d.ts. CommonJS callers get this module through index.cjs.
import { readFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import createScopeSpeedscopeModule from './scope-speedscope.node.js';
import { createOptionsOf, instantiate, wasmLoadError } from './api.js';

export { NS_PER_SECOND, SCHEMA_URL, TIME_UNIT, ScopeSpeedscopeError, concatChunks } from './api.js';

/** Loads the wasm module once; call again for an independent instance. */
export async function createScopeSpeedscope(options) {
  const moduleArgs = createOptionsOf(options);
  if (!moduleArgs.wasmBinary) {
    // Emscripten 3.1.6 would fetch() the .wasm under Node 20, which cannot
    // read files: read it here (from where locateFile says, if given).
    // The one use of import.meta: `new URL('./file', import.meta.url)` is the
    // pattern bundlers targeting Node (webpack) emit as an asset and resolve
    // at run time next to the bundle; a bare import.meta.url they would write
    // out as the build machine's path.
    let location = fileURLToPath(new URL('./scope-speedscope.wasm', import.meta.url));
    if (moduleArgs.locateFile) {
      const located = moduleArgs.locateFile('scope-speedscope.wasm', dirname(location) + sep);
      location = String(located).startsWith('file:') ? fileURLToPath(located) : String(located);
    }
    try {
      moduleArgs.wasmBinary = await readFile(location);
    } catch (error) {
      throw wasmLoadError(error, location);
    }
  }
  return instantiate(createScopeSpeedscopeModule, moduleArgs);
}

export default createScopeSpeedscope;
