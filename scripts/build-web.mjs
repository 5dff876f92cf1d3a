#!/usr/bin/env node
// Assembles the static site in dist/web/ from
//   web/*                                    the page (HTML, CSS, JS modules)
//   dist/{browser.js,api.js,errors.js,inputs.js,instantiate.js,options.js,sinks.js,timeline.js,wire.js,
//         scope-speedscope.js,scope-speedscope.wasm} -> lib/
//                                            (the package's browser build; browser.js
//                                            becomes lib/index.js, the page's import)
//   node_modules/speedscope/dist/release/*   -> speedscope/  (the viewer, with a CSP, lang, its
//                                               font inlined, and web/speedscope/bridge.js)
//                                               frame.html: all of it in one page, for the
//                                               page's sandboxed frame, see writeViewerFrame
//   tests/fixtures/h5/real_run_s1.h5         -> example/     (the "Try the example" run)
// Run it after the wasm build (npm run build does both).
//
// Last, sw.js (the service worker, from web/sw.js) gets the site's version (a
// hash of every other file) and the list of files to cache.
//
//   node scripts/build-web.mjs [--out DIR] [--lib DIR]
//   node scripts/build-web.mjs --service-worker DIR
//
// --lib DIR takes the package's browser files from DIR instead of dist/.
// --service-worker DIR only writes DIR/sw.js again for the site in DIR.

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { viewerPage } from './viewer-page.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = resolve(repo, outArg >= 0 ? args[outArg + 1] : join('dist', 'web'));
const libArg = args.indexOf('--lib');
const libDir = resolve(repo, libArg >= 0 ? args[libArg + 1] : 'dist');
const swArg = args.indexOf('--service-worker');

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
  html = html
    .replace(/<html>/i, '<html lang="en">')
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
  if (!inlined) fail("no font found in speedscope's CSS to inline");
}

// The browser build's module graph: the entry (renamed index.js: the page
// and its worker import ./lib/index.js), the API it shares with the Node
// entry, the Emscripten glue for browsers and the wasm it finds next to it.
const LIB_FILES = {
  'browser.js': 'index.js',
  'api.js': 'api.js',
  'errors.js': 'errors.js',
  'inputs.js': 'inputs.js',
  'instantiate.js': 'instantiate.js',
  'options.js': 'options.js',
  'sinks.js': 'sinks.js',
  'timeline.js': 'timeline.js',
  'wire.js': 'wire.js',
  'scope-speedscope.js': 'scope-speedscope.js',
  'scope-speedscope.wasm': 'scope-speedscope.wasm',
};

// speedscope/frame.html: the viewer's page self-contained, for the page's
// sandboxed frame (srcdoc; see scripts/viewer-page.mjs and web/site.js), so
// that the viewer works offline like the rest of the site. The page's policy
// (index.html) then allows the frame's inline scripts by hash, inline styles,
// data: fonts and the bridge's blob: worker: a srcdoc frame keeps the page's
// policy.
function writeViewerFrame(site) {
  let viewer;
  try {
    viewer = viewerPage({ repo });
  } catch (err) {
    fail(err.message);
  }
  writeFileSync(join(site, 'speedscope', 'frame.html'), viewer.html);
  const indexPath = join(site, 'index.html');
  const html = readFileSync(indexPath, 'utf8');
  const meta = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/;
  const match = html.match(meta);
  if (!match) fail('index.html has no Content-Security-Policy');
  const adds = {
    'script-src': viewer.hashes,
    'style-src': ["'unsafe-inline'"],
    'font-src': ['data:'],
    'worker-src': ['blob:'],
  };
  const policy = match[2]
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
    .map((directive) => {
      const [name, ...sources] = directive.split(/\s+/);
      const more = (adds[name] ?? []).filter((a) => !sources.includes(a));
      delete adds[name];
      return [name, ...sources, ...more].join(' ');
    });
  const missing = Object.keys(adds);
  if (missing.length) fail(`index.html's Content-Security-Policy has no ${missing.join(', ')}`);
  writeFileSync(
    indexPath,
    html.replace(meta, (_, a, __, c) => `${a}${policy.join('; ')}${c}`),
  );
}

function copyLib(dest) {
  mkdirSync(dest, { recursive: true });
  const missing = Object.keys(LIB_FILES).filter((f) => !existsSync(join(libDir, f)));
  if (missing.length) {
    fail(`${missing.map((f) => join(libDir, f)).join(', ')} missing: build the wasm package first (npm run build)`);
  }
  for (const [from, to] of Object.entries(LIB_FILES)) cpSync(join(libDir, from), join(dest, to));
}

// Every file below dir, as sorted relative URL paths.
function siteFiles(dir) {
  const files = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(relative(dir, full).split(sep).map(encodeURIComponent).join('/'));
    }
  };
  walk(dir);
  return files.sort();
}

// dir/sw.js from web/sw.js: VERSION is a hash of the template and of every
// other file's path and bytes, FILES those paths.
function writeServiceWorker(dir) {
  const template = readFileSync(join(repo, 'web', 'sw.js'), 'utf8');
  const files = siteFiles(dir).filter((f) => f !== 'sw.js');
  const hash = createHash('sha256').update(template);
  for (const f of files) {
    hash.update(`\0${f}\0`);
    hash.update(readFileSync(join(dir, ...f.split('/').map(decodeURIComponent))));
  }
  const version = hash.digest('hex').slice(0, 16);
  const versionToken = "'__SCOPE_SPEEDSCOPE_VERSION__'";
  const filesToken = "['__SCOPE_SPEEDSCOPE_FILES__']";
  if (!template.includes(versionToken) || !template.includes(filesToken)) {
    fail('web/sw.js lacks its VERSION or FILES placeholder');
  }
  const list = `[\n${files.map((f) => `  ${JSON.stringify(f)},`).join('\n')}\n]`;
  writeFileSync(join(dir, 'sw.js'), template.replace(versionToken, JSON.stringify(version)).replace(filesToken, list));
  return { version, files: files.length };
}

if (swArg >= 0) {
  const dir = resolve(args[swArg + 1] ?? '');
  if (!existsSync(join(dir, 'index.html'))) fail(`${dir}/index.html is missing`);
  const { version, files } = writeServiceWorker(dir);
  console.log(`build-web: wrote ${join(dir, 'sw.js')} (version ${version}, ${files} files)`);
  process.exit(0);
}

const web = join(repo, 'web');
if (!existsSync(join(web, 'index.html'))) fail('web/index.html is missing');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const name of readdirSync(web)) {
  // The bridge goes with the viewer; web/single/ is the single-file page's
  // (scripts/build-single.mjs). (The screenshots live in docs/images/.)
  if (name.endsWith('.md') || name === 'speedscope' || name === 'single') continue;
  cpSync(join(web, name), join(out, name), { recursive: true });
}
copyLib(join(out, 'lib'));
copyViewer(join(out, 'speedscope'));
writeViewerFrame(out);
mkdirSync(join(out, 'example'), { recursive: true });
cpSync(join(fixturesDir(), 'h5', 'real_run_s1.h5'), join(out, 'example', 'real_run_s1.h5'));

const sw = writeServiceWorker(out);
console.log(`build-web: wrote ${out} (service worker version ${sw.version}, ${sw.files} files cached)`);
