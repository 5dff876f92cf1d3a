// The size of the package's wasm and JavaScript glue as the documentation
// states it (one sentence in docs/benchmarks.md, "Size of the wasm", between
// <!-- wasm-size --> and <!-- /wasm-size -->): scripts/build-dist.mjs writes
// it there, tests/pkg compares it with the files of the packed package.
// Sizes gzipped are gzip -9's (zlib level 9); KB are 1,000 bytes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const gzipped = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length;
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const kb = (n) => `${grouped(Math.round(n / 1000))} KB`;

/** The documentation's sentence for the files in `dir` (dist/, or an installed package's dist/). */
export function wasmSizeText(dir) {
  const wasm = fs.readFileSync(path.join(dir, 'scope-speedscope.wasm'));
  const glue = fs.readFileSync(path.join(dir, 'scope-speedscope.js'));
  return (
    `\`dist/scope-speedscope.wasm\` is ${grouped(wasm.length)} bytes ` +
    `(${kb(gzipped(wasm))} gzip-compressed); its JavaScript glue for browsers, ` +
    `\`dist/scope-speedscope.js\`, ${kb(glue.length)} (${kb(gzipped(glue))} gzipped)`
  );
}
