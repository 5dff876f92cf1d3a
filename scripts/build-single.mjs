#!/usr/bin/env node
// Builds dist/scope-speedscope.html: the whole page in one file that works
// when opened from disk (file://), e.g. copied onto an air-gapped machine or
// attached to a mail. Chromium, from file://, runs no module script or module
// worker loaded by path, but it runs inline classic scripts, a classic Worker
// made from a Blob (which may instantiate wasm from bytes), and a sandboxed
// srcdoc frame (the page's viewer design: the bridge takes the output by
// postMessage and drops it on speedscope). So everything is inlined:
//   - the page's modules (web/), bundled by esbuild into one classic script,
//     with web/single/site.js in place of web/site.js;
//   - web/worker.js with the wasm wrapper and the classic build of the module
//     (build/wasm/scope-speedscope-classic.js, see cmake/wasm.cmake), bundled
//     into one classic worker script;
//   - the .wasm, the viewer (speedscope's page with the bridge, its script,
//     styles and font inlined: scripts/viewer-page.mjs) and the example run,
//     as base64 data blocks;
//   - a Content-Security-Policy that allows exactly these inline scripts (by
//     hash; the srcdoc frame keeps the page's policy) and no request anywhere.
//
//   node scripts/build-single.mjs [--wasm DIR] [--out FILE]
//
// --wasm DIR holds scope-speedscope-classic.{js,wasm} (default build/wasm).

import { machinePathsIn, withoutMachinePaths } from './machine-paths.mjs';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { cspHash, inlineScript, viewerPage } from './viewer-page.mjs';

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
// Without the paths of the machine that built it, as the package's wasm
// (scripts/machine-paths.mjs; offsets do not move).
const wasmBytes = withoutMachinePaths(readFileSync(wasm));
{
  const left = machinePathsIn(wasmBytes);
  if (left.length) fail(`${wasm} still holds machine paths: ${left.slice(0, 3).join(', ')}`);
}
if (!existsSync(join(repo, 'node_modules', 'speedscope', 'dist', 'release', 'index.html'))) {
  fail('node_modules/speedscope is missing: run npm install');
}
const example = join(repo, 'tests', 'fixtures', 'h5', 'real_run_s1.h5');
if (!existsSync(example)) fail(`${example} is missing`);

const base64Block = (id, bytes) =>
  `<script type="application/octet-stream" id="${id}">${Buffer.from(bytes).toString('base64')}</script>`;

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

// One classic script. No import.meta there: URLs that modules resolve against
// their own resolve against `base` instead.
async function bundle(entry, plugins, base) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    minify: false,
    legalComments: 'inline',
    logLevel: 'warning',
    define: { 'import.meta.url': base },
    plugins,
  });
  return result.outputFiles[0].text;
}

// ---- the page ------------------------------------------------------------------

let html = readFileSync(join(web, 'index.html'), 'utf8');
const entryMatch = html.match(/<script type="module" src="([^"]+)"><\/script>\n?/);
if (!entryMatch) fail('web/index.html has no <script type="module" src="..."> entry');
const pageScript = inlineScript(
  await bundle(
    join(web, entryMatch[1]),
    [
      redirect('single-site', [
        ['site.js', join(web, 'single', 'site.js')],
        // remote-engine.js's decoder: the package's (dist/web/lib/ in the site).
        ['lib/wire.js', join(repo, 'src', 'js', 'wire.js')],
      ]),
    ],
    'document.baseURI',
  ),
  'the page script',
);

const workerScript = await bundle(
  join(web, 'worker.js'),
  [
    redirect('single-lib', [
      ['lib/index.js', join(web, 'single', 'lib.js')],
      ['scope-speedscope.js', glue],
    ]),
  ],
  'self.location.href',
);

// ---- the viewer: speedscope's page with the bridge, self-contained (scripts/viewer-page.mjs)

const viewer = viewerPage({ repo });

// ---- the one file -------------------------------------------------------------

const csp = [
  "default-src 'none'",
  // The page's script and the viewer's (a srcdoc frame keeps this policy).
  `script-src ${[cspHash(pageScript), ...viewer.hashes].join(' ')} 'wasm-unsafe-eval'`,
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
  [
    /<meta http-equiv="Content-Security-Policy" content="[^"]*">/,
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
  ],
  [styleMatch[0], `<style>\n${readFileSync(join(web, styleMatch[1]), 'utf8')}</style>`],
  [
    /<link rel="icon" href="[^"]*"[^>]*>/,
    `<link rel="icon" href="data:image/svg+xml;base64,${icon.toString('base64')}">`,
  ],
  [/ *<link rel="(?:manifest|apple-touch-icon)" href="[^"]*"(?: crossorigin="[^"]*")?>\n/g, ''],
  [/ *<script src="file-protocol\.js"><\/script>\n/, ''],
  // The workers start when app.js asks (web/single/site.js has no prestart).
  [/ *<script type="module" async src="start-workers\.js"><\/script>\n/, ''],
  [entryMatch[0], ''],
  // No viewer page to link to: it lives inside this file.
  [/<a href="speedscope\/index\.html">speedscope<\/a>/g, 'speedscope'],
];
for (const [pattern, replacement] of replacements) {
  const before = html;
  html = html.replace(pattern, replacement);
  if (html === before && !(pattern instanceof RegExp && pattern.global))
    fail(`web/index.html: nothing matched ${pattern}`);
}
const blocks = [
  base64Block('scope-speedscope-wasm', wasmBytes),
  base64Block('scope-speedscope-worker', Buffer.from(workerScript, 'utf8')),
  base64Block('scope-speedscope-viewer', Buffer.from(viewer.html, 'utf8')),
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
