// Assembles the npm package's files in dist/ (see "Layout of the package" in
// docs/package-api.md):
//   build/wasm: scope-speedscope.js (browser glue), scope-speedscope.node.js
//               (Node glue), scope-speedscope.wasm (one module for both)
//   src/js:     api.js (the API's facade, shared; behind it errors.js, inputs.js, sinks.js,
//               timeline.js, wire.js, instantiate.js) and options.js (its checks), browser.js and node.js (the
//               entries), index.cjs (CommonJS, with wire.cjs: wire.js as CommonJS), cli.js, index.d.ts (types of
//               both entries) and its CommonJS copy index.d.cts, server.js (the
//               page's server, for `scope-speedscope view` and `serve`), engine-server.js
//               (`serve RUN.h5`: the wasm engine behind the page)
// (build-web.mjs adds the site, dist/web/.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { transformSync } from 'esbuild';

import { machinePathsIn, withoutMachinePaths } from './machine-paths.mjs';
import { wasmSizeText } from './wasm-size.mjs';

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
  fail(
    'build/wasm/scope-speedscope.wasm and scope-speedscope.node.wasm differ; ' +
      'the web and node variants must link the same module (cmake/wasm.cmake)',
  );
}
fs.copyFileSync(built('scope-speedscope.js'), path.join(dist, 'scope-speedscope.js'));
// Without the paths of the machine that built it (scripts/machine-paths.mjs).
const shippedWasm = withoutMachinePaths(webWasm);
const leftPaths = machinePathsIn(shippedWasm);
if (leftPaths.length) fail(`scope-speedscope.wasm still holds machine paths: ${leftPaths.slice(0, 3).join(', ')}`);
fs.writeFileSync(path.join(dist, 'scope-speedscope.wasm'), shippedWasm);
// The Node glue names its own build's file, scope-speedscope.node.wasm, which
// the package does not ship (it is the same module): bundlers for Node must
// not go looking for it. Name the shipped file instead.
const nodeGlue = fs.readFileSync(built('scope-speedscope.node.js'), 'utf8');
const nodeWasmNames = nodeGlue.split('scope-speedscope.node.wasm').length - 1;
if (nodeWasmNames !== 1)
  fail(`scope-speedscope.node.js names scope-speedscope.node.wasm ${nodeWasmNames} times, expected once`);
fs.writeFileSync(
  path.join(dist, 'scope-speedscope.node.js'),
  nodeGlue.replace('scope-speedscope.node.wasm', 'scope-speedscope.wasm'),
);
// What bundlers see in the glues (cmake/wasm.cmake, wasm-esm-node-shim.js):
// no import.meta (webpack writes it out as this machine's file:// URL), no
// file but the shipped .wasm, and in the Node glue only the modules the
// prologue provides.
for (const file of ['scope-speedscope.js', 'scope-speedscope.node.js']) {
  const text = fs.readFileSync(path.join(dist, file), 'utf8');
  if (text.includes('import.meta')) fail(`${file} uses import.meta (link with -sUSE_ES6_IMPORT_META=0)`);
  const named = [...new Set(text.match(/[\w.-]+\.(?:wasm|data|mem)\b/g) ?? [])];
  if (named.some((name) => name !== 'scope-speedscope.wasm'))
    fail(`${file} names files the package does not ship: ${named.join(', ')}`);
}
const required = [...new Set([...nodeGlue.matchAll(/\brequire\(\s*(['"`])([^'"`]*)\1\s*\)/g)].map((m) => m[2]))].sort();
for (const id of required) {
  if (!['crypto', 'fs', 'path'].includes(id))
    fail(`scope-speedscope.node.js requires '${id}', which cmake/wasm-esm-node-shim.js does not provide`);
}
for (const file of [
  'api.js',
  'errors.js',
  'inputs.js',
  'instantiate.js',
  'options.js',
  'sinks.js',
  'timeline.js',
  'wire.js',
  'browser.js',
  'node.js',
  'index.cjs',
  'cli.js',
  'server.js',
  'engine-server.js',
  'index.d.ts',
]) {
  fs.copyFileSync(path.join(root, 'src', 'js', file), path.join(dist, file));
}
// index.cjs's decodeAnswer is wire.js's own, as CommonJS (require() cannot
// load an ES module on Node 20, and a second copy could drift).
const wireCjs = transformSync(fs.readFileSync(path.join(root, 'src', 'js', 'wire.js'), 'utf8'), {
  format: 'cjs',
  sourcefile: 'wire.js',
});
fs.writeFileSync(path.join(dist, 'wire.cjs'), wireCjs.code);
// TypeScript reads index.d.ts as an ES module (the package is "type":
// "module"); a CommonJS consumer needs the same declarations as .d.cts.
fs.copyFileSync(path.join(root, 'src', 'js', 'index.d.ts'), path.join(dist, 'index.d.cts'));
// The package's entries are browser.js and node.js: no dist/index.js.
fs.rmSync(path.join(dist, 'index.js'), { force: true });
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
const size = fs.statSync(path.join(dist, 'scope-speedscope.wasm')).size;
console.log(`dist: scope-speedscope.wasm ${(size / 1024).toFixed(0)} KiB`);

// The documentation's one statement of the wasm's size (docs/benchmarks.md,
// under "Size of the wasm", between <!-- wasm-size --> and <!-- /wasm-size -->)
// is this build's: written here when it differs, checked against the packed
// file by tests/pkg.
const sizeDocName = path.join('docs', 'benchmarks.md');
const sizeDocPath = path.join(root, sizeDocName);
const sizeDoc = fs.readFileSync(sizeDocPath, 'utf8');
const span = /(<!-- wasm-size -->)([^]*?)(<!-- \/wasm-size -->)/;
if (!span.test(sizeDoc)) fail(`${sizeDocName} has no <!-- wasm-size --> ... <!-- /wasm-size --> span`);
const sizes = wasmSizeText(dist);
const updated = sizeDoc.replace(span, (_, open, _text, close) => `${open}${sizes}${close}`);
if (updated !== sizeDoc) {
  fs.writeFileSync(sizeDocPath, updated);
  console.log(`dist: ${sizeDocName} says ${sizes}`);
}
