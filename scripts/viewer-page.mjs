// speedscope's page as one self-contained HTML document: its script, the
// bridge (web/speedscope/bridge.js) and any other scripts inline, its CSS
// inline with the font as a data: URL. It is what the page's sandboxed viewer
// frame shows as its srcdoc (dist/web/speedscope/frame.html, and inside
// dist/scope-speedscope.html): a sandboxed frame has an opaque origin, so
// Chromium sends none of its requests through the page's service worker, and
// a viewer that fetched its files would not work offline. A srcdoc frame keeps
// the page's Content-Security-Policy, so the page's policy must allow the
// returned script hashes, inline styles (speedscope's CSS-in-JS) and data:
// fonts.
//
//   const { html, hashes } = viewerPage({ repo, before: [code, ...] });
//   hashes: CSP sources ('sha256-...') of every inline script.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const cspHash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

// Text that goes inside an inline <script>: it must not close the element.
export function inlineScript(code, what) {
  const safe = code.replace(/<\/(script)/gi, '<\\/$1');
  if (/<\/script/i.test(safe)) throw new Error(`${what} cannot be inlined`);
  return safe;
}

/**
 * speedscope's page, self-contained. `before` are more scripts (source text)
 * to run before the bridge. Throws when speedscope's release does not have the
 * shape expected (one stylesheet, one script).
 */
export function viewerPage({ repo, before = [] }) {
  const release = join(repo, 'node_modules', 'speedscope', 'dist', 'release');
  const index = readFileSync(join(release, 'index.html'), 'utf8');
  const css = index.match(/<link rel="stylesheet" href="([^"]+)">/);
  const js = index.match(/<script src="([^"]+)"><\/script>/);
  if (!css || !js) throw new Error('speedscope/index.html does not have the one stylesheet and script expected');
  const style = readFileSync(join(release, css[1]), 'utf8').replace(/url\("?\.?\/?([^")]+)"?\)/g, (all, file) => {
    const path = join(release, file);
    if (!existsSync(path)) throw new Error(`speedscope's CSS refers to a missing ${file}`);
    const type = file.endsWith('.woff2') ? 'font/woff2' : 'application/octet-stream';
    return `url("data:${type};base64,${readFileSync(path).toString('base64')}")`;
  });
  const head = [...before, readFileSync(join(repo, 'web', 'speedscope', 'bridge.js'), 'utf8')].map((code, i) =>
    inlineScript(code, `viewer script ${i}`),
  );
  const main = inlineScript(readFileSync(join(release, js[1]), 'utf8'), 'speedscope');
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    '<title>speedscope</title>',
    `<style>${style}</style>`,
    ...head.map((code) => `<script>${code}</script>`),
    '</head>',
    '<body>',
    `<script>${main}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { html, hashes: [...head, main].map(cspHash) };
}
