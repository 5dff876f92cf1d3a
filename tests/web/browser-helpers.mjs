// Shared by the browser tests of the page's other ways to run (offline,
// file://, `scope-speedscope view`): Chromium, fixtures, expected bytes, and
// whether the flame chart was painted.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const fixtures = join(repo, 'tests', 'fixtures');
export const cases = JSON.parse(readFileSync(join(fixtures, 'cases.json'), 'utf8'));
export const caseNamed = (name) => cases.find((c) => c.name === name);
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const ORIGINAL_EXPORTER = '"exporter": "scope-profiler@0.7.3"';
const OUR_EXPORTER = `"exporter": "scope-speedscope@${version}"`;

/** The expected bytes of a case's output, with our exporter value. */
export function expectedBytes(output) {
  const text = readFileSync(join(fixtures, output.expected), 'utf8');
  assert.ok(text.includes(ORIGINAL_EXPORTER), `${output.expected} has no scope-profiler exporter`);
  return Buffer.from(text.replace(ORIGINAL_EXPORTER, OUR_EXPORTER), 'utf8');
}

/** A fresh persistent Chromium context; close() also removes its profile. */
export async function launch(options = {}) {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
  const userDataDir = mkdtempSync(join(tmpdir(), 'scope-speedscope-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true,
    viewport: { width: 1280, height: 900 }, acceptDownloads: true, ...options,
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    rmSync(userDataDir, { recursive: true, force: true });
  };
  return context;
}

/** Clicks each download link of the page; resolves to Map(name -> bytes). */
export async function downloads(page) {
  const result = new Map();
  for (const link of await page.getByTestId('download').all()) {
    const name = await link.getAttribute('download');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    result.set(name, readFileSync(await download.path()));
  }
  return result;
}

/**
 * How many distinct colours a screenshot of `locator` holds (counted in a
 * scratch page): a blank or single-colour viewer gives 1 or 2, a painted flame
 * chart dozens.
 */
export async function paintedColors(context, locator) {
  const png = await locator.screenshot();
  const scratch = await context.newPage();
  try {
    return await scratch.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const g = canvas.getContext('2d');
      g.drawImage(image, 0, 0);
      const data = g.getImageData(0, 0, image.width, image.height).data;
      const colors = new Set();
      for (let i = 0; i < data.length; i += 4) colors.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return colors.size;
    }, png.toString('base64'));
  } finally {
    await scratch.close();
  }
}

/**
 * Waits until the viewer frame shows a flame chart: speedscope's canvas is
 * visible, its title names the document, and the frame's pixels are painted.
 */
export async function assertChartPainted(page, docName, { timeout = 60_000 } = {}) {
  const viewer = page.getByTestId('viewer');
  const frame = page.frameLocator('[data-testid=viewer]');
  await frame.locator('canvas').first().waitFor({ state: 'visible', timeout });
  const content = await (await viewer.elementHandle()).contentFrame();
  await content.waitForFunction((name) => document.title === `${name} - speedscope`, docName, { timeout });
  assert.doesNotMatch(await frame.locator('body').innerText(), /Something went wrong|Unrecognized format/i);
  let colors = 0;
  for (const start = Date.now(); Date.now() - start < timeout;) {
    colors = await paintedColors(page.context(), viewer);
    if (colors >= 8) break;
    await page.waitForTimeout(250);
  }
  assert.ok(colors >= 8, `the flame chart is painted (${colors} colours in the viewer)`);
}
