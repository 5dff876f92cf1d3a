// Assembles the npm package's files in dist/ (see "Layout of the package" in
// the README):
//   build/wasm: scope-speedscope.js (browser glue), scope-speedscope.node.js
//               (Node glue), scope-speedscope.wasm (one module for both)
//   src/js:     api.js (the API, shared) and options.js (its checks), browser.js and node.js (the
//               entries), index.cjs (CommonJS), cli.js, index.d.ts (types of
//               both entries) and its CommonJS copy index.d.cts
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const wasmBuild = path.join(root, 'build', 'wasm');

function fail(message) {
  console.error(`build-dist: ${message}`);
  process.exit(1);
}

fs.mkdirSync(dist, { recursive: true });
const built = (file) => {
  const from = path.join(wasmBuild, file);
  if (!fs.existsSync(from)) fail(`${from} is missing; build the wasm preset first`);
  return from;
};
// Both glues load the same module; ship it once.
const webWasm = fs.readFileSync(built('scope-speedscope.wasm'));
if (!webWasm.equals(fs.readFileSync(built('scope-speedscope.node.wasm')))) {
  fail('build/wasm/scope-speedscope.wasm and scope-speedscope.node.wasm differ; ' +
    'the web and node variants must link the same module (cmake/wasm.cmake)');
}
for (const file of ['scope-speedscope.js', 'scope-speedscope.node.js', 'scope-speedscope.wasm']) {
  fs.copyFileSync(built(file), path.join(dist, file));
}
for (const file of ['api.js', 'options.js', 'browser.js', 'node.js', 'index.cjs', 'cli.js', 'index.d.ts']) {
  fs.copyFileSync(path.join(root, 'src', 'js', file), path.join(dist, file));
}
// TypeScript reads index.d.ts as an ES module (the package is "type":
// "module"); a CommonJS consumer needs the same declarations as .d.cts.
fs.copyFileSync(path.join(root, 'src', 'js', 'index.d.ts'), path.join(dist, 'index.d.cts'));
// Files of earlier layouts.
fs.rmSync(path.join(dist, 'index.js'), { force: true });
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
const size = fs.statSync(path.join(dist, 'scope-speedscope.wasm')).size;
console.log(`dist: scope-speedscope.wasm ${(size / 1024).toFixed(0)} KiB`);
