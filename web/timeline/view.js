// The timeline: the page's first view of every file. It owns what is shown
// (the visible window, the bands, hover, focus, selection, search) and asks
// the timeline worker (client.js) for the bars of the view: the window padded
// by its width on both sides, at a resolution rounded to a power of two of
// nanoseconds per pixel, so panning and small zooms redraw what is cached and
// a new query goes out only when the view leaves it or the resolution changes
// (one query in flight; the newest view wins). Drawing is draw.js's, input
// input.js's. The details of the hovered, focused or selected call are DOM
// text ([data-testid=call-details]); the regions of the visible window are a
// table; bands collapse from their buttons in the lanes list or their headers.

import { el } from '../dom.js';
import { hueIndex } from './colors.js';
import { AXIS_H, BAND_GAP, HEADER_H, ROW_H, Renderer, firstEndingAfter } from './draw.js';
import { count, exactTime, shortTime } from './format.js';
import { KEYS, wireInput } from './input.js';

const MIN_SPAN = 8;         // ns: the deepest zoom shows 8 ns across the chart
const MAX_WIDTH = 16384;    // the core's widest bars query
const REGIONS_DELAY_MS = 150;
const REGION_ROWS = 200;

const byId = (id) => document.getElementById(id);

export class TimelineView {
  #client;
  #onPainted;
  #chart;
  #renderer;
  #info = null;               // { timeline, lanes, frames, totals, runEnd, fileName }
  #view = { start: 0, end: 1 };
  #scrollY = 0;
  #collapsed = new Set();
  #bands = [];
  #contentHeight = 0;
  #hue = new Uint8Array(0);
  #cache = null;              // { timeline, level, start, end, data: Map lane -> bars }
  #inflight = false;
  #hover = null;
  #focus = null;
  #selected = null;
  #range = null;
  #highlight = null;          // Uint8Array over frames, or null
  #highlightWhy = null;       // 'search' | 'region'
  #painted = false;
  #frameRequested = false;
  #detailsFor = 0;            // bumps with every change of the call described
  #regionsTimer = 0;
  #regionsSeq = 0;
  #regions = [];
  #sort = { key: 'total', descending: true };
  #dark;

  constructor({ client, onPainted }) {
    this.#client = client;
    this.#onPainted = onPainted;
    this.#chart = byId('tl-chart');
    this.#renderer = new Renderer(byId('tl-canvas'));
    this.#dark = window.matchMedia('(prefers-color-scheme: dark)');
    this.#renderer.setTheme(this.#dark.matches);
    this.#dark.addEventListener('change', () => {
      this.#renderer.setTheme(this.#dark.matches);
      this.invalidate();
    });
    byId('tl-keys').textContent = KEYS;
    wireInput(this.#chart, this);
    new ResizeObserver(() => this.#resize()).observe(this.#chart);
    // On narrow screens the chart takes the window's height less the toolbar and details.
    const box = byId('timeline-box');
    const chromeObserver = new ResizeObserver(() => {
      const chrome = byId('tl-toolbar').offsetHeight + byId('call-details').offsetHeight;
      box.style.setProperty('--tl-chrome', `${chrome}px`);
    });
    chromeObserver.observe(byId('tl-toolbar'));
    chromeObserver.observe(byId('call-details'));
    byId('tl-zoom-in').addEventListener('click', () => this.zoomCentre(1 / 1.6));
    byId('tl-zoom-out').addEventListener('click', () => this.zoomCentre(1.6));
    byId('tl-reset').addEventListener('click', () => this.reset());
    const search = byId('tl-search');
    let searchTimer = 0;
    search.addEventListener('input', () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => this.search(search.value), 120);
    });
    search.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        clearTimeout(searchTimer);
        this.search(search.value);
      } else if (e.key === 'Escape') {
        search.value = '';
        this.search('');
        this.#chart.focus();
      }
    });
    document.addEventListener('keydown', (e) => {
      if (!this.#info || byId('timeline-box').hidden) return;
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '');
      if ((e.key === '/' && !typing && !e.ctrlKey && !e.metaKey) || (e.key === 'f' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        search.focus();
        search.select();
      }
    });
    for (const th of document.querySelectorAll('#tl-regions-table th[data-sort]')) {
      th.querySelector('button').addEventListener('click', () => this.#sortBy(th.dataset.sort));
    }
  }

  get timeline() { return this.#info?.timeline ?? null; }
  get originInRun() { return this.#info?.originInRun ?? 0; }
  get hasFocusedCall() { return !!this.#focus; }
  get pageHeight() { return Math.max(ROW_H, this.#renderer.height - AXIS_H - ROW_H); }
  // The visible window in whole nanoseconds (what regions and speedscope get).
  get window() {
    return { start: Math.max(0, Math.floor(this.#view.start)), end: Math.min(this.#info?.runEnd ?? 1, Math.ceil(this.#view.end)) };
  }
  get isWholeRun() {
    return this.#view.start <= 0 && this.#view.end >= (this.#info?.runEnd ?? 1);
  }

  // info: the worker's timeline-open reply, with fileName.
  show(info) {
    this.#info = info;
    this.#cache = null;
    this.#inflight = false;
    this.#painted = false;
    this.#collapsed = new Set();
    this.#hover = this.#focus = this.#selected = null;
    this.#range = null;
    this.#highlight = null;
    this.#scrollY = 0;
    this.#hue = Uint8Array.from(info.frames, (name) => hueIndex(name));
    this.#view = { start: 0, end: info.runEnd };
    this.#chart.setAttribute('aria-label', `Timeline of ${info.fileName}: ${info.lanes.length === 1 ? 'one lane' : `${info.lanes.length} lanes`}, ` +
      `${count(info.lanes.reduce((n, l) => n + l.calls, 0))} calls over ${exactTime(info.runEnd - 1)}`);
    byId('tl-search').value = '';
    byId('tl-search-count').textContent = '';
    this.#layout();
    this.#renderLanes();
    this.#describe(null);
    this.#regionsSoon();
    this.#resize();
  }

  clear() {
    this.#info = null;
    this.#cache = null;
    this.#painted = false;
    byId('tl-lanes').replaceChildren();
    byId('tl-regions').replaceChildren();
    byId('tl-regions-caption').textContent = '';
    this.#describe(null);
  }

  // ---- the view: zoom, pan, scroll ------------------------------------------------

  #setView(start, end) {
    const run = this.#info?.runEnd ?? 1;
    let span = Math.min(Math.max(end - start, MIN_SPAN), run);
    let a = start + ((end - start) - span) / 2;
    if (a < 0) a = 0;
    if (a + span > run) a = run - span;
    if (a < 0) { a = 0; span = run; }
    this.#view = { start: a, end: a + span };
    this.invalidate();
    this.#regionsSoon();
  }

  zoomAt(x, factor) {
    const { start, end } = this.#view;
    const t = start + ((end - start) * x) / Math.max(this.#renderer.width, 1);
    this.#setView(t - (t - start) * factor, t + (end - t) * factor);
  }

  zoomCentre(factor) {
    const { start, end } = this.#view;
    const f = this.#focus;
    // Around the focused call when it is in view, else the middle.
    const t = f && f.end >= start && f.start <= end ? (Math.max(f.start, start) + Math.min(f.end, end)) / 2 : (start + end) / 2;
    this.#setView(t - (t - start) * factor, t + (end - t) * factor);
  }

  reset() {
    this.#setView(0, this.#info?.runEnd ?? 1);
  }

  panPx(dx) {
    const { start, end } = this.#view;
    const dt = (dx * (end - start)) / Math.max(this.#renderer.width, 1);
    this.#setView(start + dt, end + dt);
  }

  panFraction(f) {
    const { start, end } = this.#view;
    this.#setView(start + f * (end - start), end + f * (end - start));
  }

  scrollBy(dy) {
    const max = Math.max(0, this.#contentHeight - (this.#renderer.height - AXIS_H) + ROW_H);
    this.#scrollY = Math.min(max, Math.max(0, this.#scrollY + dy));
    this.invalidate();
  }

  setRange(px) {
    if (!px) {
      this.#range = null;
    } else {
      const { start, end } = this.#view;
      const k = (end - start) / Math.max(this.#renderer.width, 1);
      this.#range = { a: start + px[0] * k, b: start + px[1] * k };
    }
    this.invalidate();
  }

  zoomToRangePx(x0, x1) {
    const { start, end } = this.#view;
    const k = (end - start) / Math.max(this.#renderer.width, 1);
    this.#range = null;
    this.#setView(start + Math.min(x0, x1) * k, start + Math.max(x0, x1) * k);
  }

  #zoomToItem(item) {
    const length = Math.max(item.end - item.start, 1);
    this.#setView(item.start - length * 0.05, item.start + length * 1.05);
    this.#scrollTo(item);
  }

  // ---- bands --------------------------------------------------------------------

  #layout() {
    let y = 0;
    this.#bands = this.#info.lanes.map((lane, i) => {
      const collapsed = this.#collapsed.has(i);
      const depths = lane.maxDepth + 1;
      const height = HEADER_H + (collapsed ? 0 : depths * ROW_H) + BAND_GAP;
      const band = { lane: i, name: lane.name, top: y, height, depths, collapsed };
      y += height;
      return band;
    });
    this.#contentHeight = y;
  }

  toggleLane(i) {
    if (this.#collapsed.has(i)) this.#collapsed.delete(i);
    else this.#collapsed.add(i);
    this.#layout();
    this.#renderLanes();
    this.scrollBy(0);
    this.invalidate();
  }

  #renderLanes() {
    const list = byId('tl-lanes');
    list.replaceChildren(...this.#info.lanes.map((lane, i) => el('li', {},
      el('button', {
        type: 'button', className: 'tl-lane', 'aria-expanded': String(!this.#collapsed.has(i)),
        'data-lane': String(i), onclick: () => this.toggleLane(i),
        title: this.#collapsed.has(i) ? 'Show this band' : 'Collapse this band',
      }, el('span', { className: 'tl-lane-name', text: lane.name }),
      el('span', { className: 'tl-lane-calls', text: ` ${count(lane.calls)} ${lane.calls === 1 ? 'call' : 'calls'}` })))));
  }

  // ---- drawing and bars ---------------------------------------------------------

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

  #expandedLanes() {
    return this.#bands.filter((b) => !b.collapsed).map((b) => b.lane);
  }

  #draw() {
    if (!this.#info || !this.#renderer.width) return;
    this.#ensureBars();
    const cache = this.#cache?.timeline === this.#info.timeline ? this.#cache : null;
    this.#renderer.draw({
      view: this.#view, scrollY: this.#scrollY, bands: this.#bands, data: cache?.data ?? new Map(),
      frames: this.#info.frames, hue: this.#hue, highlight: this.#highlight,
      hover: this.#hover, focus: this.#focus, selected: this.#selected, range: this.#range,
      focused: document.activeElement === this.#chart,
    });
    const { start, end } = this.#view;
    this.#chart.dataset.viewStart = String(start);
    this.#chart.dataset.viewEnd = String(end);
    byId('tl-range').textContent = `${shortTime(end - start)} from ${exactTime(Math.round(start))}`;
    if (!this.#painted && cache && this.#expandedLanes().every((l) => cache.data.has(l))) {
      this.#painted = true;
      this.#onPainted?.(this.#info);
    }
  }

  #wanted() {
    const W = Math.max(this.#renderer.width, 1);
    const { start, end } = this.#view;
    const span = end - start;
    const level = Math.floor(Math.log2(span / W));
    const res = 2 ** level;
    const run = this.#info.runEnd;
    const a = Math.max(0, Math.floor(start - span));
    let b = Math.min(run, Math.ceil(end + span));
    if (b <= a) b = a + 1;
    const width = Math.max(1, Math.min(MAX_WIDTH, Math.ceil((b - a) / res)));
    return { level, start: a, end: b, width };
  }

  #ensureBars() {
    const info = this.#info;
    const c = this.#cache;
    const lanes = this.#expandedLanes();
    const W = Math.max(this.#renderer.width, 1);
    const level = Math.floor(Math.log2((this.#view.end - this.#view.start) / W));
    if (c && c.timeline === info.timeline && c.level === level && c.start <= this.#view.start &&
        c.end >= this.#view.end && lanes.every((l) => c.data.has(l))) return;
    if (this.#inflight || !lanes.length) return;
    const want = this.#wanted();
    this.#inflight = true;
    const timeline = info.timeline;
    this.#client.query('bars', { timeline, lanes, start: want.start, end: want.end, width: want.width }).then((reply) => {
      this.#inflight = false;
      if (this.#info?.timeline !== timeline) return;
      if (reply.type !== 'result') {
        if (reply.type !== 'cancelled') this.#failed(reply);
        return;
      }
      this.#cache = { timeline, level: want.level, start: want.start, end: want.end,
                      data: new Map(reply.bars.map((b) => [b.lane, b])) };
      this.#refocus();
      this.invalidate();
    });
  }

  #failed(reply) {
    byId('call-details').replaceChildren(el('p', { className: 'tl-error', text: `The timeline stopped: ${reply.wording ?? reply.message}` }));
  }

  // ---- finding bars ---------------------------------------------------------------

  #bandAt(y) {
    const cy = y - AXIS_H + this.#scrollY;
    return this.#bands.find((b) => cy >= b.top && cy < b.top + b.height) ?? null;
  }

  // The bar under (x, y) in the cache: an item { lane, depth, start, end, frame, count }.
  #itemAt(x, y) {
    if (!this.#info || y < AXIS_H) return null;
    const band = this.#bandAt(y);
    if (!band || band.collapsed) return null;
    const cy = y - AXIS_H + this.#scrollY - band.top - HEADER_H;
    if (cy < 0) return { header: band };
    const depth = Math.floor(cy / ROW_H);
    const bars = this.#cache?.data.get(band.lane);
    if (!bars || depth >= band.depths) return null;
    const { start, end } = this.#view;
    const k = (end - start) / Math.max(this.#renderer.width, 1);
    const t = start + x * k;
    const lo = bars.rows[depth];
    const hi = bars.rows[depth + 1];
    // Bars are at least a pixel wide on screen: half a pixel either side.
    let best = null;
    for (let i = firstEndingAfter(bars, t - k / 2, lo, hi); i < hi && bars.start[i] <= t + k / 2; i++) {
      const item = this.#item(band.lane, bars, i);
      const d = t < item.start ? item.start - t : t > Math.max(item.end, item.start + 1) ? t - item.end : 0;
      if (!best || d < best.d) best = { d, item };
    }
    return best?.item ?? null;
  }

  #item(lane, bars, i) {
    return { lane, depth: bars.depth[i], start: bars.start[i], end: bars.end[i], frame: bars.frame[i], count: bars.count[i] };
  }

  #rowOf(item) {
    const bars = this.#cache?.data.get(item.lane);
    if (!bars || item.depth >= bars.rows.length - 1) return null;
    return { bars, lo: bars.rows[item.depth], hi: bars.rows[item.depth + 1] };
  }

  // The index of `item` in its row of the cache (by its start), or -1.
  #indexOf(item) {
    const row = this.#rowOf(item);
    if (!row) return -1;
    const i = firstEndingAfter(row.bars, item.start, row.lo, row.hi);
    for (let j = Math.max(row.lo, i - 1); j < row.hi && row.bars.start[j] <= item.start; j++) {
      if (row.bars.start[j] === item.start) return j;
    }
    return -1;
  }

  hoverAt(x, y) {
    const item = x == null ? null : this.#itemAt(x, y);
    const next = item?.header ? null : item;
    this.#chart.style.cursor = item?.header ? 'pointer' : '';
    if (same(next, this.#hover)) return;
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

  // ---- keyboard focus on bars -------------------------------------------------------

  focusFirst() {
    const { start, end } = this.#view;
    for (const band of this.#bands) {
      if (band.collapsed) continue;
      const bars = this.#cache?.data.get(band.lane);
      if (!bars) continue;
      for (let d = 0; d < band.depths; d++) {
        const i = firstEndingAfter(bars, start, bars.rows[d], bars.rows[d + 1]);
        if (i < bars.rows[d + 1] && bars.start[i] < end) {
          this.#setFocus(this.#item(band.lane, bars, i));
          return;
        }
      }
    }
    this.#describe(null, 'No call in view: zoom out (0 shows the whole run).');
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

  moveFocus(how) {
    const f = this.#focus;
    if (!f) return;
    let next = null;
    if (how === 'previous' || how === 'next') {
      const row = this.#rowOf(f);
      const i = this.#indexOf(f);
      if (row && i >= 0) {
        const j = how === 'next' ? i + 1 : i - 1;
        if (j >= row.lo && j < row.hi) next = this.#item(f.lane, row.bars, j);
      }
    } else if (how === 'parent' || how === 'child') {
      const depth = f.depth + (how === 'parent' ? -1 : 1);
      const band = this.#bands[f.lane];
      if (depth >= 0 && depth < band.depths) {
        const row = this.#rowOf({ lane: f.lane, depth });
        if (row) {
          const i = firstEndingAfter(row.bars, f.start, row.lo, row.hi);
          if (i < row.hi) {
            const cand = this.#item(f.lane, row.bars, i);
            const inside = how === 'parent' ? cand.start <= f.start
              : cand.start >= f.start && cand.start < Math.max(f.end, f.start + 1);
            if (inside) next = cand;
          }
        }
      }
    } else {
      const step = how === 'lane-next' ? 1 : -1;
      for (let lane = f.lane + step; lane >= 0 && lane < this.#bands.length; lane += step) {
        const band = this.#bands[lane];
        const bars = this.#cache?.data.get(lane);
        if (band.collapsed || !bars) continue;
        const i = firstEndingAfter(bars, this.#view.start, bars.rows[0], bars.rows[1]);
        if (i < bars.rows[1]) {
          next = this.#item(lane, bars, i);
          break;
        }
      }
    }
    if (next) this.#setFocus(next);
  }

  // A focused merged block that the new bars draw apart: the focus goes to
  // its first call.
  #refocus() {
    const f = this.#focus;
    if (!f || f.count <= 1) return;
    const row = this.#rowOf(f);
    if (!row) return;
    const i = firstEndingAfter(row.bars, f.start, row.lo, row.hi);
    if (i >= row.hi || row.bars.start[i] > f.end) return;
    const item = this.#item(f.lane, row.bars, i);
    if (same(item, f)) return;
    this.#focus = item;
    this.#describe(this.#hover ?? item);
  }

  #setFocus(item) {
    this.#focus = item;
    const { start, end } = this.#view;
    if (item.end < start || item.start > end) {
      const span = end - start;
      const middle = (item.start + Math.max(item.end, item.start + 1)) / 2;
      this.#setView(middle - span / 2, middle + span / 2);
    }
    this.#scrollTo(item);
    this.invalidate();
    this.#describe(item);
  }

  #scrollTo(item) {
    const band = this.#bands[item.lane];
    if (!band) return;
    const y = band.top + HEADER_H + item.depth * ROW_H;
    const visible = this.#renderer.height - AXIS_H;
    if (y < this.#scrollY + HEADER_H) this.scrollBy(y - HEADER_H - this.#scrollY);
    else if (y + ROW_H > this.#scrollY + visible) this.scrollBy(y + 2 * ROW_H - visible - this.#scrollY);
  }

  // ---- the details of one call ---------------------------------------------------------

  // Shows `item` in [data-testid=call-details]: name, start, duration, self
  // (asked of the core: stackAt), depth and lane; a merged block says how
  // many calls it stands for.
  #describe(item, note = null) {
    const box = byId('call-details');
    const seq = ++this.#detailsFor;
    if (!item || !this.#info) {
      box.dataset.state = 'none';
      box.replaceChildren(el('p', { className: 'hint', text: note ?? (this.#info
        ? 'Point at a call, or focus the chart and press Enter, to see its details.' : '') }));
      return;
    }
    const lane = this.#info.lanes[item.lane].name;
    const field = (name, label, value) => [el('dt', { text: label }), el('dd', { 'data-field': name, text: value })];
    if (item.count > 1) {
      box.dataset.state = 'merged';
      box.replaceChildren(el('dl', {},
        field('merged', 'Merged', `${count(item.count)} calls too short to draw apart; zoom in to see them`),
        item.frame >= 0 ? field('name', 'Region', this.#info.frames[item.frame]) : null,
        field('start', 'From', exactTime(item.start)),
        field('end', 'To', exactTime(item.end)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', lane)));
      return;
    }
    const render = (self) => {
      box.dataset.state = self == null ? 'loading' : 'call';
      box.replaceChildren(el('dl', {},
        field('name', 'Name', this.#info.frames[item.frame]),
        field('start', 'Start', exactTime(item.start)),
        field('duration', 'Duration', exactTime(item.end - item.start)),
        field('self', 'Self', self == null ? '…' : exactTime(self)),
        field('depth', 'Depth', String(item.depth)),
        field('lane', 'Lane', lane)));
    };
    render(null);
    const timeline = this.#info.timeline;
    this.#client.query('stack', { timeline, lane: item.lane, time: item.start }).then((reply) => {
      if (seq !== this.#detailsFor || reply.type !== 'result') return;
      const call = reply.stack.find((s) => s.depth === item.depth && s.start === item.start);
      if (call) render(call.self);
    });
  }

  // ---- search and regions -----------------------------------------------------------

  search(text) {
    const q = text.trim().toLowerCase();
    const out = byId('tl-search-count');
    if (!this.#info || !q) {
      this.#highlight = null;
      this.#highlightWhy = null;
      out.textContent = '';
      this.#markRegionRows();
      this.invalidate();
      return;
    }
    const marks = new Uint8Array(this.#info.frames.length);
    let regions = 0;
    let calls = 0;
    this.#info.frames.forEach((name, f) => {
      if (name.toLowerCase().includes(q)) {
        marks[f] = 1;
        regions++;
        calls += this.#info.totals[f];
      }
    });
    this.#highlight = marks;
    this.#highlightWhy = 'search';
    out.textContent = regions ? `${count(regions)} ${regions === 1 ? 'region' : 'regions'}, ${count(calls)} ${calls === 1 ? 'call' : 'calls'}`
      : 'no region matches';
    this.#markRegionRows();
    this.invalidate();
  }

  #highlightRegion(frame) {
    const already = this.#highlightWhy === 'region' && this.#highlight?.[frame] && this.#highlight.reduce((a, b) => a + b, 0) === 1;
    if (already) {
      this.#highlight = null;
      this.#highlightWhy = null;
    } else {
      this.#highlight = new Uint8Array(this.#info.frames.length);
      this.#highlight[frame] = 1;
      this.#highlightWhy = 'region';
    }
    byId('tl-search').value = '';
    byId('tl-search-count').textContent = '';
    this.#markRegionRows();
    this.invalidate();
  }

  #regionsSoon() {
    clearTimeout(this.#regionsTimer);
    this.#regionsTimer = setTimeout(() => this.#loadRegions(), REGIONS_DELAY_MS);
  }

  async #loadRegions() {
    if (!this.#info) return;
    const seq = ++this.#regionsSeq;
    const { start, end } = this.window;
    const timeline = this.#info.timeline;
    const reply = await this.#client.query('regions', { timeline, start, end });
    if (seq !== this.#regionsSeq || this.#info?.timeline !== timeline || reply.type !== 'result') return;
    this.#regions = reply.regions;
    const table = byId('tl-regions-table');
    table.dataset.windowStart = String(start);
    table.dataset.windowEnd = String(end);
    const calls = reply.regions.reduce((n, r) => n + r.calls, 0);
    byId('tl-regions-caption').textContent = `Regions from ${exactTime(start)} to ${exactTime(end)}: ` +
      `${count(calls)} ${calls === 1 ? 'call' : 'calls'}`;
    this.#renderRegions();
  }

  #sortBy(key) {
    this.#sort = { key, descending: this.#sort.key === key ? !this.#sort.descending : key !== 'name' };
    this.#renderRegions();
  }

  #renderRegions() {
    const { key, descending } = this.#sort;
    const rows = [...this.#regions].sort((a, b) => {
      const c = key === 'name' ? a.name.localeCompare(b.name) : a[key] - b[key];
      return (descending ? -c : c) || a.frame - b.frame;
    });
    for (const th of document.querySelectorAll('#tl-regions-table th[data-sort]')) {
      th.setAttribute('aria-sort', th.dataset.sort === key ? (descending ? 'descending' : 'ascending') : 'none');
    }
    const body = byId('tl-regions');
    body.replaceChildren(...rows.slice(0, REGION_ROWS).map((r) => el('tr', { 'data-frame': String(r.frame) },
      el('td', { className: 'region' }, el('button', {
        type: 'button', className: 'tl-region', text: r.name, title: `Highlight ${r.name}`,
        onclick: () => this.#highlightRegion(r.frame),
      })),
      el('td', { className: 'num', 'data-field': 'calls', text: count(r.calls) }),
      el('td', { className: 'num', 'data-field': 'total', text: exactTime(r.total) }),
      el('td', { className: 'num', 'data-field': 'self', text: exactTime(r.self) }))));
    byId('tl-regions-more').textContent = rows.length > REGION_ROWS
      ? `and ${count(rows.length - REGION_ROWS)} more regions (sort to see others)` : '';
    this.#markRegionRows();
  }

  #markRegionRows() {
    for (const tr of byId('tl-regions').children) {
      const on = !!this.#highlight?.[Number(tr.dataset.frame)];
      tr.classList.toggle('highlighted', on);
      tr.querySelector('button')?.setAttribute('aria-pressed', String(on));
    }
  }
}

function same(a, b) {
  if (!a || !b) return a === b;
  return a.lane === b.lane && a.depth === b.depth && a.start === b.start && a.end === b.end && a.count === b.count;
}
