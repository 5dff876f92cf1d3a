// Paths of the machine that built the wasm, as its data holds them: HDF5
// records the absolute path of each of its source files (__FILE__, for its
// error stack) and its installation folder (in the library's settings text),
// wherever its build ran (a dependency cache, another checkout). Any absolute
// path of two or more parts outside the system folders counts; the module's
// own paths (/profile.speedscope.json, /regions/) have one part.
// scripts/build-dist.mjs ships the wasm without them; tests/pkg checks the
// package and the bundles made from it.
const MACHINE_PATH = /(?<![\w./+-])\/(?!(?:usr|dev|proc|sys|etc|bin|lib)\/)[\w.+-]+(?:\/[\w.+-]+)+\/?/g;

/** The machine paths in `bytes` (a wasm module). */
export function machinePathsIn(bytes) {
  return [...Buffer.from(bytes).toString('latin1').matchAll(MACHINE_PATH)].map((m) => m[0]);
}

/**
 * `bytes` with each machine path replaced by its last part (`H5Fint.c`),
 * padded to the same length (offsets in the module do not move): with NUL
 * bytes when the path ends its C string, with spaces inside a text.
 */
export function withoutMachinePaths(bytes) {
  const out = Buffer.from(bytes);
  const text = out.toString('latin1');
  for (const m of text.matchAll(MACHINE_PATH)) {
    const last = m[0].replace(/\/$/, '').split('/').pop();
    const pad = text[m.index + m[0].length] === '\0' ? '\0' : ' ';
    out.write(last.padEnd(m[0].length, pad), m.index, 'latin1');
  }
  return out;
}
