#!/usr/bin/env node
// Assembles the static site in dist/web/ from
//   web/*                                    the page (HTML, CSS, JS modules)
//   dist/{browser.js,api.js,options.js,scope-speedscope.js,scope-speedscope.wasm} -> lib/
//                                            (the package's browser build; browser.js
//                                            becomes lib/index.js, the page's import)
//   node_modules/speedscope/dist/release/*   -> speedscope/  (the viewer, with a CSP added)
//   tests/fixtures/h5/real_run_s1.h5         -> example/     (the "Try the example" run)
// Run it after the wasm build (npm run build does both).
//
//   node scripts/build-web.mjs [--out DIR] [--lib DIR]
//
// --lib DIR takes the package's browser files from DIR instead of dist/.

import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = resolve(repo, outArg >= 0 ? args[outArg + 1] : join('dist', 'web'));
const libArg = args.indexOf('--lib');
const libDir = resolve(repo, libArg >= 0 ? args[libArg + 1] : 'dist');

function fail(message) {
  console.error(`build-web: ${message}`);
  process.exit(1);
}

// The fixtures live in tests/fixtures once the project has them; until then
// the shared copy.
function fixturesDir() {
  for (const dir of [join(repo, 'tests', 'fixtures'), '/work/shared/fixtures']) {
    if (existsSync(join(dir, 'h5', 'real_run_s1.h5'))) return dir;
  }
  return fail('no fixtures: tests/fixtures/h5/real_run_s1.h5 is missing');
}

// The viewer's own page gets a Content-Security-Policy too: it is served from
// our origin, may fetch only from it (and blob: URLs the page made), and needs
// inline styles (its CSS-in-JS) and data: images.
const SPEEDSCOPE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function copyViewer(dest) {
  const release = join(repo, 'node_modules', 'speedscope', 'dist', 'release');
  if (!existsSync(join(release, 'index.html'))) {
    fail('node_modules/speedscope is missing: run npm install (or scripts/setup.sh)');
  }
  cpSync(release, dest, { recursive: true });
  const indexPath = join(dest, 'index.html');
  const html = readFileSync(indexPath, 'utf8');
  const anchor = /<meta charset="?utf-8"?>/i.test(html) ? /<meta charset="?utf-8"?>/i : /<head>/i;
  if (!anchor.test(html)) fail('speedscope/index.html has no <head>');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${SPEEDSCOPE_CSP}">`;
  // viewer-bridge.js reports import failures to our page (see that file).
  const bridge = '<script src="../viewer-bridge.js"></script>';
  writeFileSync(indexPath, html.replace(anchor, (h) => `${h}\n    ${meta}\n    ${bridge}`));
}

// The browser build's module graph: the entry (renamed index.js: the page
// and its worker import ./lib/index.js), the API it shares with the Node
// entry, the Emscripten glue for browsers and the wasm it finds next to it.
const LIB_FILES = {
  'browser.js': 'index.js',
  'api.js': 'api.js',
  'options.js': 'options.js',
  'scope-speedscope.js': 'scope-speedscope.js',
  'scope-speedscope.wasm': 'scope-speedscope.wasm',
};

function copyLib(dest) {
  mkdirSync(dest, { recursive: true });
  const missing = Object.keys(LIB_FILES).filter((f) => !existsSync(join(libDir, f)));
  if (missing.length) {
    fail(`${missing.map((f) => join(libDir, f)).join(', ')} missing: build the wasm package first (npm run build)`);
  }
  for (const [from, to] of Object.entries(LIB_FILES)) cpSync(join(libDir, from), join(dest, to));
}

const web = join(repo, 'web');
if (!existsSync(join(web, 'index.html'))) fail('web/index.html is missing');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const name of readdirSync(web)) {
  // README-section.md and the README's screenshot are not part of the site.
  if (name.endsWith('.md') || name === 'docs') continue;
  cpSync(join(web, name), join(out, name), { recursive: true });
}
copyLib(join(out, 'lib'));
copyViewer(join(out, 'speedscope'));
mkdirSync(join(out, 'example'), { recursive: true });
cpSync(join(fixturesDir(), 'h5', 'real_run_s1.h5'), join(out, 'example', 'real_run_s1.h5'));

console.log(`build-web: wrote ${out}`);
