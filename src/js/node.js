// scope-speedscope for Node (the `node` condition of package.json; the CLI
// uses it too). The API itself is in api.js, shared with the browser entry;
// types in index.d.ts. CommonJS callers get this module through index.cjs.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import createScopeSpeedscopeModule from './scope-speedscope.node.js';
import { createOptionsOf, instantiate, wasmLoadError } from './api.js';

export { NS_PER_SECOND, SCHEMA_URL, TIME_UNIT, ScopeSpeedscopeError, concatChunks, decodeAnswer } from './api.js';

// The words the native CLI has for these (C's strerror), so that both say
// the same of a file they cannot open.
const SYSTEM_ERRORS = {
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  EIO: 'Input/output error',
};
const systemError = (error) => SYSTEM_ERRORS[error?.code] ?? String(error?.message ?? error);

// An input { name, path }: the file on disk, read lazily by the core's HDF5
// file driver (src/core/read/h5_driver.cpp) in slices of 1 MiB: no size
// limit (readFileSync stops at 2 GiB) and no copy of the file in memory.
// Returns { size, read(offset, view), close() } or { error: { code, args } },
// the core's message (the native CLI's words: file_not_found when it cannot
// be stat()ed, else file_unreadable). read fills the view and returns
// undefined; when the file ends first, the number of bytes it got (the core
// words that); else the system's words for the failure.
function openPath(path) {
  try {
    statSync(path);
  } catch {
    return { error: { code: 'file_not_found', args: {} } };
  }
  let fd;
  try {
    fd = openSync(path, 'r');
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'ours' });
    const size = stats.size;
    let closed = false;
    return {
      size,
      read(offset, view) {
        try {
          let done = 0;
          while (done < view.byteLength) {
            const got = readSync(fd, view, done, view.byteLength - done, offset + done);
            if (got === 0) return done;
            done += got;
          }
          return undefined;
        } catch (error) {
          return systemError(error);
        }
      },
      close() {
        if (!closed) closeSync(fd);
        closed = true;
      },
    };
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    return {
      error: { code: 'file_unreadable', args: { reason: error.code === 'ours' ? error.message : systemError(error) } },
    };
  }
}

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
  return instantiate(createScopeSpeedscopeModule, moduleArgs, undefined, { openPath });
}

export default createScopeSpeedscope;
