// Assembles the npm package's files in dist/: the wasm module and its
// Emscripten glue from build/wasm, the wrapper, its types, the Node CLI and
// the page's server from src/js. (build-web.mjs adds the site, dist/web/.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');
const wasmBuild = path.join(root, 'build', 'wasm');

fs.mkdirSync(dist, { recursive: true });
for (const file of ['scope-speedscope.js', 'scope-speedscope.wasm']) {
  const from = path.join(wasmBuild, file);
  if (!fs.existsSync(from)) {
    console.error(`build-dist: ${from} is missing; build the wasm preset first`);
    process.exit(1);
  }
  fs.copyFileSync(from, path.join(dist, file));
}
for (const file of ['index.js', 'index.d.ts', 'cli.js', 'server.js']) {
  fs.copyFileSync(path.join(root, 'src', 'js', file), path.join(dist, file));
}
fs.chmodSync(path.join(dist, 'cli.js'), 0o755);
const size = fs.statSync(path.join(dist, 'scope-speedscope.wasm')).size;
console.log(`dist: scope-speedscope.wasm ${(size / 1024).toFixed(0)} KiB`);
