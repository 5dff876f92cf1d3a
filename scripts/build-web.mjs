#!/usr/bin/env node
// Assembles the static site in dist/web/ from
//   web/*                                    the page (HTML, CSS, JS modules)
//   dist/{browser.js,api.js,options.js,scope-speedscope.js,scope-speedscope.wasm} -> lib/
//                                            (the package's browser build; browser.js
//                                            becomes lib/index.js, the page's import)
//   node_modules/speedscope/dist/release/*   -> speedscope/  (the viewer, with a CSP, lang, its
//                                               font inlined, and web/speedscope/bridge.js)
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

// The viewer's own page gets a Content-Security-Policy too: it may load its
// scripts and styles from our origin and read blob: URLs (the page's outputs,
// when opened in a tab), and needs inline styles (its CSS-in-JS), data: images
// and fonts, and a blob: worker (the bridge's heartbeat).
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

// speedscope's release, with
//  - lang="en" on <html>;
//  - its CSP and the bridge (web/speedscope/bridge.js, which talks to the page
//    when speedscope runs in the page's sandboxed frame) before its own script;
//  - its font inlined into its CSS: the sandboxed frame has an opaque origin,
//    and a font from the server would be a cross-origin request it may not make.
function copyViewer(dest) {
  const release = join(repo, 'node_modules', 'speedscope', 'dist', 'release');
  if (!existsSync(join(release, 'index.html'))) {
    fail('node_modules/speedscope is missing: run npm install (or scripts/setup.sh)');
  }
  cpSync(release, dest, { recursive: true });
  cpSync(join(web, 'speedscope'), dest, { recursive: true });

  const indexPath = join(dest, 'index.html');
  let html = readFileSync(indexPath, 'utf8');
  const anchor = /<meta charset="?utf-8"?>/i;
  if (!anchor.test(html)) fail('speedscope/index.html has no <meta charset>');
  if (!/<html>/i.test(html)) fail('speedscope/index.html has no plain <html> tag');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${SPEEDSCOPE_CSP}">`;
  html = html.replace(/<html>/i, '<html lang="en">')
    .replace(anchor, (h) => `${h}\n    ${meta}\n    <script src="bridge.js"></script>`);
  writeFileSync(indexPath, html);

  let inlined = 0;
  for (const css of readdirSync(dest).filter((f) => f.endsWith('.css'))) {
    const cssPath = join(dest, css);
    const text = readFileSync(cssPath, 'utf8').replace(/url\("?\.?\/?([^")]+\.woff2)"?\)/g, (_, font) => {
      inlined++;
      return `url("data:font/woff2;base64,${readFileSync(join(dest, font)).toString('base64')}")`;
    });
    writeFileSync(cssPath, text);
  }
  if (!inlined) fail('no font found in speedscope\'s CSS to inline');
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
  // The README's screenshot is not part of the site; the bridge goes with the viewer.
  if (name.endsWith('.md') || name === 'docs' || name === 'speedscope') continue;
  cpSync(join(web, name), join(out, name), { recursive: true });
}
copyLib(join(out, 'lib'));
copyViewer(join(out, 'speedscope'));
mkdirSync(join(out, 'example'), { recursive: true });
cpSync(join(fixturesDir(), 'h5', 'real_run_s1.h5'), join(out, 'example', 'real_run_s1.h5'));

console.log(`build-web: wrote ${out}`);
