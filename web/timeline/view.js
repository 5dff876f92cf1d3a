// The timeline: the page's first view of every file. It holds what is shown
// (the run, hover, focus, selection, the dragged range, the highlighted
// regions) and answers the verbs of input.js by the modules that do each
// job: viewport.js (the visible window), bands.js (bands, scroll, lanes
// list), bars-cache.js (the bars asked of the worker), draw.js (the canvas),
// hit-test.js and focus.js (finding calls), details.js (the call described),
// regions.js (the regions table), ranks.js (the Ranks panel: imbalance and
// heatmap) and search.js.

import { hueIndex } from './colors.js';
import { AXIS_H, ROW_H, Renderer } from './draw.js';
import { exactTime, shortTime, count } from './format.js';
import { KEYS, wireInput } from './input.js';
import { Bands } from './bands.js';
import { BarsCache } from './bars-cache.js';
import { CallDetails } from './details.js';
import { firstInView, neighbour, refocused } from './focus.js';
import { itemUnder, sameItem } from './hit-test.js';
import { RanksPanel } from './ranks.js';
import { RegionsTable } from './regions.js';
import { clearSearch, findRegions, showFound, wireSearch } from './search.js';
import { Viewport } from './viewport.js';

const ZOOM_BUTTON_STEP = 1.6;

const byId = (id) => document.getElementById(id);

export class TimelineView {
  #onPainted;
  #chart;
  #renderer;
  #viewport = new Viewport();
  #bands;
  #bars;
  #details;
  #regions;
  #ranks;
  #info = null; // the worker's timeline-open reply, with fileName
  #hue = new Uint8Array(0);
  #hover = null;
  #focus = null;
  #selected = null;
  #range = null; // { a, b } ns being dragged on the axis, or null
  #highlight = null; // Uint8Array over frames, or null
  #highlightWhy = null; // 'search' | 'region'
  #painted = false;
  #frameRequested = false;

  constructor({ client, onPainted }) {
    this.#onPainted = onPainted;
    this.#chart = byId('tl-chart');
    this.#renderer = new Renderer(byId('tl-canvas'));
    this.#bands = new Bands((lane) => this.toggleLane(lane));
    this.#bars = new BarsCache(client);
    this.#details = new CallDetails(client);
    this.#regions = new RegionsTable(client, (frame) => this.#highlightRegion(frame));
    this.#ranks = new RanksPanel(client, {
      onSelect: (frame) => this.#chooseRegion(frame),
      onZoom: (start, end) => this.#zoomToSpan(start, end),
    });
    this.#followColourScheme();
    byId('tl-keys').textContent = KEYS;
    wireInput(this.#chart, this);
    this.#wireSizes();
    byId('tl-zoom-in').addEventListener('click', () => this.zoomCentre(1 / ZOOM_BUTTON_STEP));
    byId('tl-zoom-out').addEventListener('click', () => this.zoomCentre(ZOOM_BUTTON_STEP));
    byId('tl-reset').addEventListener('click', () => this.reset());
    wireSearch(
      (text) => this.search(text),
      this.#chart,
      () => !!this.#info && !byId('timeline-box').hidden,
    );
  }

  #followColourScheme() {
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    this.#renderer.setTheme(dark.matches);
    dark.addEventListener('change', () => {
      this.#renderer.setTheme(dark.matches);
      this.invalidate();
    });
  }

  // The canvas follows the chart's size; the chart takes the window's height
  // less the bar (which holds the toolbar) and the call details.
  #wireSizes() {
    new ResizeObserver(() => this.#resize()).observe(this.#chart);
    const box = byId('timeline-box');
    const chromeObserver = new ResizeObserver(() => {
      box.style.setProperty('--tl-chrome', `${byId('call-details').offsetHeight}px`);
    });
    chromeObserver.observe(byId('call-details'));
  }

  get timeline() {
    return this.#info?.timeline ?? null;
  }
  get originInRun() {
    return this.#info?.originInRun ?? 0;
  }
  get hasFocusedCall() {
    return !!this.#focus;
  }
  get pageHeight() {
    return Math.max(ROW_H, this.#renderer.height - AXIS_H - ROW_H);
  }
  // The visible window in whole nanoseconds (what regions and speedscope get).
  get window() {
    return this.#viewport.window;
  }
  get isWholeRun() {
    return this.#viewport.isWholeRun;
  }

  // info: the worker's timeline-open reply, with fileName.
  show(info) {
    this.#info = info;
    this.#bars.show(info.timeline, info.maxWidth);
    this.#painted = false;
    this.#hover = this.#focus = this.#selected = null;
    this.#range = null;
    this.#highlight = null;
    this.#highlightWhy = null;
    this.#hue = Uint8Array.from(info.frames, (name) => hueIndex(name));
    this.#viewport.show(info.runEnd);
    const calls = info.lanes.reduce((n, l) => n + l.calls, 0);
    this.#chart.setAttribute(
      'aria-label',
      `Timeline of ${info.fileName}: ${info.lanes.length === 1 ? 'one lane' : `${info.lanes.length} lanes`}, ` +
        `${count(calls)} calls over ${exactTime(info.runEnd - 1)}`,
    );
    clearSearch();
    this.#bands.show(info.lanes);
    this.#ranks.show(info);
    this.#describe(null);
    this.#regionsSoon();
    this.#resize();
  }

  clear() {
    this.#info = null;
    this.#bars.clear();
    this.#viewport.clear();
    this.#painted = false;
    this.#bands.clear();
    this.#regions.clear();
    this.#ranks.clear();
    this.#describe(null);
  }

  // ---- the view: zoom, pan, scroll ------------------------------------------------

  #setView(start, end) {
    this.#viewport.set(start, end);
    this.invalidate();
    this.#regionsSoon();
  }

  zoomAt(x, factor) {
    this.#viewport.zoomAround(this.#viewport.timeAt(x, this.#renderer.width), factor);
    this.#viewChanged();
  }

  zoomCentre(factor) {
    const { start, end } = this.#viewport;
    const f = this.#focus;
    // Around the focused call when it is in view, else the middle.
    const t =
      f && f.end >= start && f.start <= end ? (Math.max(f.start, start) + Math.min(f.end, end)) / 2 : (start + end) / 2;
    this.#viewport.zoomAround(t, factor);
    this.#viewChanged();
  }

  reset() {
    this.#setView(0, this.#viewport.runEnd);
  }

  panPx(dx) {
    const { start, end } = this.#viewport;
    this.#viewport.panBy((dx * (end - start)) / Math.max(this.#renderer.width, 1));
    this.#viewChanged();
  }

  panFraction(f) {
    const { start, end } = this.#viewport;
    this.#viewport.panBy(f * (end - start));
    this.#viewChanged();
  }

  scrollBy(dy) {
    this.#bands.scrollBy(dy, this.#renderer.height - AXIS_H);
    this.invalidate();
  }

  // The range being dragged on the axis, in px ([x0, x1]), or null.
  setRange(px) {
    if (!px) {
      this.#range = null;
    } else {
      const k = this.#viewport.nsPerPx(this.#renderer.width);
      const { start } = this.#viewport;
      this.#range = { a: start + px[0] * k, b: start + px[1] * k };
    }
    this.invalidate();
  }

  zoomToRangePx(x0, x1) {
    const k = this.#viewport.nsPerPx(this.#renderer.width);
    const { start } = this.#viewport;
    this.#range = null;
    this.#setView(start + Math.min(x0, x1) * k, start + Math.max(x0, x1) * k);
  }

  #viewChanged() {
    this.invalidate();
    this.#regionsSoon();
  }

  #zoomToItem(item) {
    const length = Math.max(item.end - item.start, 1);
    this.#setView(item.start - length * 0.05, item.start + length * 1.05);
    this.#bands.scrollTo(item, this.#renderer.height - AXIS_H);
    this.invalidate();
  }

  // [start, end) of calls on several lanes (a step of a region on every
  // rank), with a little room on each side.
  #zoomToSpan(start, end) {
    const length = Math.max(end - start, 1);
    this.#setView(start - length * 0.05, end + length * 0.05);
  }

  toggleLane(lane) {
    this.#bands.toggle(lane);
    this.scrollBy(0);
  }

  // ---- drawing --------------------------------------------------------------------

  #resize() {
    const r = this.#chart.getBoundingClientRect();
    if (!r.width || !r.height) return;
    this.#renderer.resize(r.width, r.height, window.devicePixelRatio || 1);
    this.invalidate();
  }

  invalidate() {
    if (this.#frameRequested) return;
    this.#frameRequested = true;
    requestAnimationFrame(() => {
      this.#frameRequested = false;
      this.#draw();
    });
  }

  #draw() {
    if (!this.#info || !this.#renderer.width) return;
    const lanes = this.#bands.expandedLanes;
    this.#bars.ensure(this.#viewport, lanes, this.#renderer.width, {
      arrived: () => {
        this.#refocus();
        this.invalidate();
      },
      failed: (reply) => this.#details.failed(reply),
    });
    const { start, end } = this.#viewport;
    this.#renderer.draw({
      view: { start, end },
      scrollY: this.#bands.scrollY,
      bands: this.#bands.list,
      data: this.#bars.data,
      frames: this.#info.frames,
      hue: this.#hue,
      highlight: this.#highlight,
      hover: this.#hover,
      focus: this.#focus,
      selected: this.#selected,
      range: this.#range,
      focused: document.activeElement === this.#chart,
    });
    this.#chart.dataset.viewStart = String(start);
    this.#chart.dataset.viewEnd = String(end);
    byId('tl-range').textContent = `${shortTime(end - start)} from ${exactTime(Math.round(start))}`;
    if (!this.#painted && this.#bars.has(lanes)) {
      this.#painted = true;
      this.#onPainted?.(this.#info);
    }
  }

  // ---- pointing at calls ------------------------------------------------------------

  #itemAt(x, y) {
    if (!this.#info) return null;
    return itemUnder(x, y, {
      bands: this.#bands,
      barsOf: (lane) => this.#bars.data.get(lane),
      viewport: this.#viewport,
      width: this.#renderer.width,
    });
  }

  hoverAt(x, y) {
    const item = x == null ? null : this.#itemAt(x, y);
    const next = item?.header ? null : item;
    this.#chart.style.cursor = item?.header ? 'pointer' : '';
    if (sameItem(next, this.#hover)) return;
    this.#hover = next;
    this.invalidate();
    this.#describe(this.#hover ?? this.#focus ?? this.#selected);
  }

  clickAt(x, y) {
    const item = this.#itemAt(x, y);
    if (item?.header) {
      this.toggleLane(item.header.lane);
      return;
    }
    this.#selected = item;
    if (item) this.#focus = item;
    this.invalidate();
    this.#describe(item);
  }

  zoomToCallAt(x, y) {
    const item = this.#itemAt(x, y);
    if (item && !item.header) this.#zoomToItem(item);
  }

  // ---- keyboard focus on calls -------------------------------------------------------

  focusFirst() {
    const barsOf = (lane) => this.#bars.data.get(lane);
    const item = firstInView(this.#bands.list, barsOf, this.#viewport.start, this.#viewport.end);
    if (item) this.#setFocus(item);
    else this.#describe(null, 'No call in view: zoom out (0 shows the whole run).');
  }

  unfocus() {
    this.#focus = null;
    this.invalidate();
    this.#describe(this.#selected);
  }

  selectFocused() {
    this.#selected = this.#focus;
    this.invalidate();
  }

  zoomToFocused() {
    if (this.#focus) this.#zoomToItem(this.#focus);
  }

  // how: 'previous', 'next', 'parent', 'child', 'lane-previous', 'lane-next'.
  moveFocus(how) {
    if (!this.#focus) return;
    const barsOf = (lane) => this.#bars.data.get(lane);
    const next = neighbour(this.#focus, how, this.#bands.list, barsOf, this.#viewport.start);
    if (next) this.#setFocus(next);
  }

  #refocus() {
    const item = refocused(this.#focus, (lane) => this.#bars.data.get(lane));
    if (!item) return;
    this.#focus = item;
    this.#describe(this.#hover ?? item);
  }

  // Focuses `item`, bringing it into view (the same span around it when it is out of it).
  #setFocus(item) {
    this.#focus = item;
    const { start, end } = this.#viewport;
    if (item.end < start || item.start > end) {
      const span = end - start;
      const middle = (item.start + Math.max(item.end, item.start + 1)) / 2;
      this.#setView(middle - span / 2, middle + span / 2);
    }
    this.#bands.scrollTo(item, this.#renderer.height - AXIS_H);
    this.invalidate();
    this.#describe(item);
  }

  #describe(item, note = null) {
    this.#details.show(item, this.#info, note);
  }

  // ---- search and regions -----------------------------------------------------------

  search(text) {
    const found = this.#info ? findRegions(this.#info.frames, this.#info.totals, text) : null;
    this.#highlight = found?.marks ?? null;
    this.#highlightWhy = found ? 'search' : null;
    showFound(found);
    this.#regions.mark(this.#highlight);
    this.invalidate();
  }

  // A region picked in the table: it alone stays in colour; picked again, all do.
  #highlightRegion(frame) {
    const already =
      this.#highlightWhy === 'region' && this.#highlight?.[frame] && this.#highlight.reduce((a, b) => a + b, 0) === 1;
    clearSearch();
    this.#markRegion(already ? null : frame);
  }

  // Only `frame` in colour (null: every region), marked in the regions table.
  #markRegion(frame) {
    if (frame === null) {
      this.#highlight = null;
      this.#highlightWhy = null;
    } else {
      this.#highlight = new Uint8Array(this.#info.frames.length);
      this.#highlight[frame] = 1;
      this.#highlightWhy = 'region';
    }
    this.#regions.mark(this.#highlight);
    this.invalidate();
  }

  // A region chosen in the Ranks panel: it alone stays in colour (null: the
  // highlight it set goes).
  #chooseRegion(frame) {
    if (frame === null && this.#highlightWhy !== 'region') return;
    if (frame !== null) clearSearch();
    this.#markRegion(frame);
  }

  #regionsSoon() {
    const current = () => this.#info?.timeline ?? null;
    const window = () => this.#viewport.window;
    this.#regions.soon(current, window);
    this.#ranks.soon(current, window);
  }
}
