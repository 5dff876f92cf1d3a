// A link to the view (issue 35): the page keeps its view in the address's
// fragment (web/view-link.js). Round trip of every field: a view of the
// 4-rank run (every rank, a window, a rank collapsed, a region chosen, a
// call selected) copied by Copy link and opened in a new page, the same
// file picked: the same view, the same fragment; a comparison's partner
// (both runs dropped); a link opened on another file, or on a run of the
// same name and size that starts elsewhere, says so and shows the file's
// own view; a malformed fragment is said and ignored; the history: wheel
// zooms replace the entry, a selection, a region and a zoom to a call add
// one, and Back shows the view before. No request holds the fragment.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fragmentToView } from '../../web/view-link.js';
import {
  allRanks,
  assertAccessible,
  assertSameOrigin,
  chartPainted,
  drop,
  pick,
  screenshot,
  startBrowser,
} from './harness.mjs';

const RUN = 'ranks_imbalance_s3.h5';
const A = 'pair_a_s3.h5';
const B = 'pair_b_s3.h5';

const hashOf = (page) => page.evaluate(() => window.location.hash);
const viewOf = (page) =>
  page.evaluate(() => {
    const c = document.querySelector('[data-testid=timeline]');
    return { start: Number(c.dataset.viewStart), end: Number(c.dataset.viewEnd) };
  });
const historyLength = (page) => page.evaluate(() => window.history.length);

// Waits until the address's fragment holds a view passing `check`.
async function fragmentSettles(page, check = () => true) {
  let view = null;
  for (let i = 0; i < 100 && !(view && check(view)); i++) {
    await page.waitForTimeout(100);
    view = fragmentToView(await hashOf(page)).view ?? null;
  }
  assert.ok(view && check(view), `the fragment: ${await hashOf(page)}`);
  return view;
}

async function wheelZoom(page, times) {
  const box = await page.getByTestId('timeline').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < times; i++) {
    await page.mouse.wheel(0, -200);
    await page.waitForTimeout(30);
  }
}

const notice = (page) => page.getByTestId('link-notice');

// In the page: the types of the messages it sends its engine worker (window.sentTypes).
function watchSent() {
  window.sentTypes = [];
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.type) window.sentTypes.push(message.type);
    return send.call(this, message, ...rest);
  };
}

describe('a link to the view', { timeout: 600_000 }, () => {
  let browser;
  let page;
  let link = null;
  before(async () => {
    browser = await startBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.server.url });
    page = await browser.openPage();
    assert.equal(await pick(page, [RUN]), 'done');
    assert.equal(await chartPainted(page), 'painted');
  });
  after(async () => {
    await browser?.close();
  });

  test('the view goes into the fragment; wheel zooms replace the entry, deliberate steps add one', async () => {
    await allRanks(page);
    let view = await fragmentSettles(page, (v) => v.ranks === 'all');
    assert.deepEqual(view.file, { name: RUN, size: view.file.size, origin: '1000000000' });
    const entries = await historyLength(page);
    await wheelZoom(page, 6);
    // The fragment follows the view once it rests (a slow machine may write
    // it between two wheel steps too): it ends with the view's window.
    let zoomed = null;
    for (let i = 0; i < 100; i++) {
      zoomed = await viewOf(page);
      view = fragmentToView(await hashOf(page)).view;
      if (view?.window.start === Math.round(zoomed.start) && view.window.end === Math.round(zoomed.end)) break;
      await page.waitForTimeout(100);
    }
    assert.ok(view.window.start > 0, 'zoomed in');
    assert.deepEqual(view.window, { start: Math.round(zoomed.start), end: Math.round(zoomed.end) });
    assert.equal(await historyLength(page), entries, 'wheel zooms replace the entry');
    // Rank 1 collapsed from its button in the lanes list (replaces).
    await page.locator('[data-testid=timeline-lanes] button', { hasText: 'rank 1' }).first().click();
    await fragmentSettles(page, (v) => v.collapsed.ranks.join() === '1');
    assert.equal(await historyLength(page), entries);
    // A region chosen in the Ranks panel: a new entry.
    await page.locator('#tl-imbalance button', { hasText: 'solve' }).click();
    await fragmentSettles(page, (v) => v.region === 'solve');
    assert.equal(await historyLength(page), entries + 1, 'a region chosen adds an entry');
    // A call selected by keyboard: a new entry.
    await page.getByTestId('timeline').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    view = await fragmentSettles(page, (v) => v.call !== null);
    assert.equal(await historyLength(page), entries + 2, 'a selection adds an entry');
    assert.equal(view.region, 'solve');
    // Back: the view before the selection (the region, no call).
    await page.goBack();
    await fragmentSettles(page, (v) => v.call === null && v.region === 'solve');
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'none');
    await page.goForward();
    await fragmentSettles(page, (v) => v.call !== null);
    await page.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'call');
  });

  test('Copy link copies the address of the view, which restores it on the same file', async () => {
    await page.getByTestId('copy-link').click();
    await page.waitForFunction(() => /copied/.test(document.getElementById('status').textContent));
    link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, await page.evaluate(() => window.location.href));
    assert.doesNotMatch(link, /token/);
    const sent = fragmentToView(new URL(link).hash).view;
    assert.ok(sent.call && sent.region === 'solve' && sent.ranks === 'all' && sent.collapsed.ranks.join() === '1');

    // Its every rank opened fresh, a group of ranks a request (?open-calls=15: a rank of 15 calls a group).
    const other = await browser.openPage(`?open-calls=15${new URL(link).hash}`, { init: watchSent });
    assert.match(await notice(other).textContent(), new RegExp(`^This link shows a view of ${RUN} .*choose that file`));
    assert.equal(await pick(other, [RUN]), 'done');
    assert.equal(await chartPainted(other), 'painted');
    const sentTypes = await other.evaluate(() => window.sentTypes);
    assert.equal(sentTypes.filter((t) => t === 'timeline-open').length, 1, sentTypes.join(' '));
    assert.ok(sentTypes.filter((t) => t === 'timeline-open-more').length >= 4, sentTypes.join(' '));
    const back = await fragmentSettles(other, (v) => v.call !== null);
    assert.equal(await hashOf(other), new URL(link).hash, 'the same view, field by field');
    assert.deepEqual(back, sent);
    const view = await viewOf(other);
    assert.deepEqual({ start: Math.round(view.start), end: Math.round(view.end) }, sent.window);
    assert.equal(await other.locator('#tl-imbalance tr.highlighted .tl-region').textContent(), 'solve');
    await other.waitForFunction(() => document.querySelector('[data-testid=call-details]').dataset.state === 'call');
    assert.equal(await other.locator('[data-testid=call-details] [data-field=start]').count(), 1);
    // The selected call's details, and nothing more (once, a stray "null" after them).
    assert.match(await other.getByTestId('call-details').textContent(), /^Name\s*step.*Lane\s*rank 0$/s);
    const collapsed = await other.locator('[data-testid=timeline-lanes] button[aria-expanded=false]').allTextContents();
    assert.ok(
      collapsed.some((t) => /rank 1/.test(t)),
      collapsed.join(),
    );
    assert.ok(await notice(other).isHidden());
    await screenshot(other, 'link-restored-1400.png');
    await assertAccessible(other, 'a restored view');
    await other.close();
  });

  test('a link opened on another file says so and shows its own view', async () => {
    const other = await browser.openPage(new URL(link).hash);
    assert.equal(await pick(other, [B]), 'done');
    assert.equal(await chartPainted(other), 'painted');
    assert.match(await notice(other).textContent(), new RegExp(`view of ${RUN}, not of ${B}`));
    assert.equal((await viewOf(other)).start, 0);
    const view = await fragmentSettles(other, (v) => v.file.name === B);
    assert.equal(view.ranks.join(), '0');
    await other.close();
    // The same name and size, but a run that starts elsewhere.
    const moved = new URLSearchParams(new URL(link).hash.slice(1));
    moved.set('origin', '999');
    const third = await browser.openPage(`#${moved}`);
    assert.equal(await pick(third, [RUN]), 'done');
    await third.waitForFunction(() => /another run named/.test(document.getElementById('link-notice').textContent));
    await third.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.viewStart === '0');
    await screenshot(third, 'link-other-run-1400.png');
    await third.close();
  });

  test('a malformed fragment is said and ignored', async () => {
    const other = await browser.openPage('#v=1&file=x.h5&size=1&origin=5&ranks=all&t=banana');
    assert.match(await notice(other).textContent(), /could not be read \(window "banana"\); it was ignored/);
    assert.equal(await pick(other, [RUN]), 'done');
    assert.equal(await chartPainted(other), 'painted');
    const view = await fragmentSettles(other, (v) => v.file.name === RUN);
    assert.equal(view.ranks.join(), '0');
    assert.ok(await notice(other).isHidden());
    await other.close();
  });

  test("a comparison's partner: restored when both runs are dropped", async () => {
    const one = await browser.openPage();
    assert.equal(await drop(one, [A, B]), 'done');
    await one.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
    assert.equal(await chartPainted(one), 'painted');
    const entries = await historyLength(one);
    await wheelZoom(one, 4);
    const sent = await fragmentSettles(one, (v) => v.partner === A && v.window.start > 0);
    assert.equal(await historyLength(one), entries);
    const hash = await hashOf(one);
    await one.close();
    const two = await browser.openPage(hash);
    assert.equal(await drop(two, [A, B]), 'done');
    await two.waitForFunction(() => document.body.dataset.compare === 'on', null, { timeout: 60_000 });
    await fragmentSettles(two, (v) => v.window.start > 0);
    assert.deepEqual(fragmentToView(await hashOf(two)).view, sent);
    await two.setViewportSize({ width: 390, height: 844 });
    await two.emulateMedia({ colorScheme: 'dark' });
    await two.getByTestId('actions-menu').click();
    assert.ok(await two.getByTestId('copy-link').isVisible());
    await screenshot(two, 'link-compare-390-dark.png');
    await two.keyboard.press('Escape');
    await two.close();
    // No request carried the fragment.
    assert.deepEqual(
      browser.log.requests.filter((u) => u.includes('#') || u.includes('origin=')),
      [],
    );
    assertSameOrigin(browser.log, browser.server.url.replace(/\/$/, ''));
  });
});
