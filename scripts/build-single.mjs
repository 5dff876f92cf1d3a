#!/usr/bin/env node
// Builds dist/scope-speedscope.html: the whole page in one file that works
// when opened from disk (file://), e.g. copied onto an air-gapped machine or
// attached to a mail. Chromium, from file://, runs no module script or module
// worker loaded by path, but it runs inline classic scripts, a classic Worker
// made from a Blob (which may instantiate wasm from bytes), and a srcdoc frame
// that fetches its parent's blob: URLs. So everything is inlined:
//   - the page's modules (web/), bundled by esbuild into one classic script,
//     with web/single/site.js in place of web/site.js;
//   - web/worker.js with the wasm wrapper and the classic build of the module
//     (build/wasm/scope-speedscope-classic.js, see cmake/wasm.cmake), bundled
//     into one classic worker script;
//   - the .wasm, the viewer (speedscope's page with its script, styles and
//     font inlined) and the example run, as base64 data blocks;
//   - a Content-Security-Policy that allows exactly these inline scripts (by
//     hash) and no request to anywhere.
//
//   node scripts/build-single.mjs [--wasm DIR] [--out FILE]
//
// --wasm DIR holds scope-speedscope-classic.{js,wasm} (default build/wasm).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? resolve(args[args.indexOf(name) + 1]) : fallback);
const wasmDir = option('--wasm', join(repo, 'build', 'wasm'));
const out = option('--out', join(repo, 'dist', 'scope-speedscope.html'));
const web = join(repo, 'web');

function fail(message) {
  console.error(`build-single: ${message}`);
  process.exit(1);
}

const glue = join(wasmDir, 'scope-speedscope-classic.js');
const wasm = join(wasmDir, 'scope-speedscope-classic.wasm');
for (const f of [glue, wasm]) {
  if (!existsSync(f)) fail(`${f} is missing: build the wasm preset first (npm run build)`);
}
const release = join(repo, 'node_modules', 'speedscope', 'dist', 'release');
if (!existsSync(join(release, 'index.html'))) fail('node_modules/speedscope is missing: run npm install');
const example = join(repo, 'tests', 'fixtures', 'h5', 'real_run_s1.h5');
if (!existsSync(example)) fail(`${example} is missing`);

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const base64Block = (id, bytes) =>
  `<script type="application/octet-stream" id="${id}">${Buffer.from(bytes).toString('base64')}</script>`;

// Text that goes inside an inline <script>: it must not close the element.
function inlineScript(code, what) {
  const safe = code.replace(/<\/(script)/gi, '<\\/$1');
  if (/<\/script/i.test(safe)) fail(`${what} cannot be inlined`);
  return safe;
}

// Redirects imports of `from` (a path suffix as written in an import) to `to`.
function redirect(name, map) {
  return {
    name,
    setup(b) {
      for (const [from, to] of map) {
        const filter = new RegExp(`(^|/)${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
        b.onResolve({ filter }, () => ({ path: to }));
      }
    },
  };
}

async function bundle(entry, plugins) {
  const result = await build({
    entryPoints: [entry], bundle: true, format: 'iife', platform: 'browser', target: 'es2022',
    write: false, minify: false, legalComments: 'inline', logLevel: 'warning',
    // The wrapper loads node:fs only under Node; never in a browser.
    external: ['node:*'], plugins,
    // ...where import.meta.url is used too (to find the .wasm, which we pass).
    logOverride: { 'empty-import-meta': 'silent' },
  });
  return result.outputFiles[0].text;
}

// ---- the page ------------------------------------------------------------------

let html = readFileSync(join(web, 'index.html'), 'utf8');
const entryMatch = html.match(/<script type="module" src="([^"]+)"><\/script>\n?/);
if (!entryMatch) fail('web/index.html has no <script type="module" src="..."> entry');
const pageScript = inlineScript(await bundle(join(web, entryMatch[1]), [
  redirect('single-site', [['site.js', join(web, 'single', 'site.js')]]),
]), 'the page script');

const workerScript = await bundle(join(web, 'worker.js'), [
  redirect('single-lib', [
    ['lib/index.js', join(web, 'single', 'lib.js')],
    ['scope-speedscope.js', glue],
  ]),
]);

// ---- the viewer: speedscope's page, self-contained -------------------------------

function viewerHtml() {
  const index = readFileSync(join(release, 'index.html'), 'utf8');
  const css = index.match(/<link rel="stylesheet" href="([^"]+)">/);
  const js = index.match(/<script src="([^"]+)"><\/script>/);
  if (!css || !js) fail('speedscope/index.html does not have the one stylesheet and script expected');
  const style = readFileSync(join(release, css[1]), 'utf8').replace(/url\("?\.?\/?([^")]+)"?\)/g, (all, file) => {
    const path = join(release, file);
    if (!existsSync(path)) fail(`speedscope's CSS refers to a missing ${file}`);
    const type = file.endsWith('.woff2') ? 'font/woff2' : 'application/octet-stream';
    return `url("data:${type};base64,${readFileSync(path).toString('base64')}")`;
  });
  const scripts = [
    readFileSync(join(web, 'single', 'viewer-boot.js'), 'utf8'),
    readFileSync(join(web, 'viewer-bridge.js'), 'utf8'),
    inlineScript(readFileSync(join(release, js[1]), 'utf8'), 'speedscope'),
  ];
  const page = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    '<title>speedscope</title>',
    `<style>${style}</style>`,
    `<script>${scripts[0]}</script>`,
    `<script>${scripts[1]}</script>`,
    '</head>',
    '<body>',
    `<script>${scripts[2]}</script>`,
    '</body>',
    '</html>',
  ].join('\n');
  return { page, hashes: scripts.map(sha256) };
}
const viewer = viewerHtml();

// ---- the one file -------------------------------------------------------------

const csp = [
  "default-src 'none'",
  // The page's script and the viewer's (a srcdoc frame keeps this policy).
  `script-src ${[sha256(pageScript), ...viewer.hashes].join(' ')} 'wasm-unsafe-eval'`,
  'worker-src blob:',
  "frame-src 'self' blob:",
  // speedscope adds its styles at run time.
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'font-src data:',
  'connect-src blob: data:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const styleMatch = html.match(/<link rel="stylesheet" href="([^"]+)">/);
if (!styleMatch) fail('web/index.html has no stylesheet link');
const icon = readFileSync(join(web, 'icons', 'icon.svg'));
const replacements = [
  [/<meta http-equiv="Content-Security-Policy" content="[^"]*">/, `<meta http-equiv="Content-Security-Policy" content="${csp}">`],
  [styleMatch[0], `<style>\n${readFileSync(join(web, styleMatch[1]), 'utf8')}</style>`],
  [/<link rel="icon" href="[^"]*"[^>]*>/, `<link rel="icon" href="data:image/svg+xml;base64,${icon.toString('base64')}">`],
  [/ *<link rel="(?:manifest|apple-touch-icon)" href="[^"]*">\n/g, ''],
  [/ *<script src="file-protocol\.js"><\/script>\n/, ''],
  [entryMatch[0], ''],
  // No viewer page to link to: it lives inside this file.
  [/<a href="speedscope\/index\.html">speedscope<\/a>/g, 'speedscope'],
];
for (const [pattern, replacement] of replacements) {
  const before = html;
  html = html.replace(pattern, replacement);
  if (html === before && !(pattern instanceof RegExp && pattern.global)) fail(`web/index.html: nothing matched ${pattern}`);
}
const blocks = [
  base64Block('scope-speedscope-wasm', readFileSync(wasm)),
  base64Block('scope-speedscope-worker', Buffer.from(workerScript, 'utf8')),
  base64Block('scope-speedscope-viewer', Buffer.from(viewer.page, 'utf8')),
  base64Block('scope-speedscope-example', readFileSync(example)),
];
if (!html.includes('</body>')) fail('web/index.html has no </body>');
html = html.replace('</body>', () => `${blocks.join('\n')}\n<script>${pageScript}</script>\n</body>`);

// Nothing may point at another file any more.
const outside = [...html.matchAll(/\s(?:src|href)="(?!data:|blob:|#|https:)([^"]*)"/g)].map((m) => m[1]);
if (outside.length) fail(`the single file still refers to ${outside.join(', ')}`);

mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, html);
console.log(`build-single: wrote ${out} (${(statSync(out).size / 1024 / 1024).toFixed(1)} MiB)`);
