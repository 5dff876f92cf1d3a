#!/usr/bin/env node
// Renders web/icons/icon.svg to the PNG sizes the web app manifest lists
// (web/icons/icon-192.png, icon-512.png) in Debian's headless Chromium. The
// PNGs are committed; run this again after changing the SVG:
//   node tools/render-icons.mjs
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const icons = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'web', 'icons');
const svg = readFileSync(join(icons, 'icon.svg'), 'utf8');
const profile = mkdtempSync(join(tmpdir(), 'scope-speedscope-icons-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const page = await context.newPage();
  for (const size of [192, 512]) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!DOCTYPE html><style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    writeFileSync(join(icons, `icon-${size}.png`), await page.screenshot({ omitBackground: true }));
    console.log(`render-icons: wrote web/icons/icon-${size}.png`);
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
