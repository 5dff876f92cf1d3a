// The timeline: the page's first view of every file. It holds what is shown
// (the run, hover, focus, selection, the dragged range, the highlighted
// regions) and answers the verbs of input.js by the modules that do each
// job: viewport.js (the visible window), bands.js (bands, ranks' rows,
// scroll, lanes list), bars-cache.js (the bars asked of the worker),
// busy-cache.js (the ranks' busy shares), draw.js (the canvas), hit-test.js
// and focus.js (finding calls), details.js (the call described), regions.js
// (the regions table), ranks.js (the Ranks panel: imbalance and heatmap),
// rank-controls.js (collapsing and ordering the ranks' rows), search.js
// and, comparing two runs (B's lanes coloured by their ratio to A's, A's
// beneath), compare.js (the regions of both runs and the legend). Lined up
// at a call, run A's lanes are drawn `shift` ns later than their own times
// (the selected call's partner in A, found by the engine, starts with the
// call of B); the bars are held moved (bars-cache.js) and the details say
// A's own times.

import { hueIndex } from './colors.js';
import { AXIS_H, ROW_H, Renderer } from './draw.js';
import { exactTime, shortTime, count } from './format.js';
import { KEYS, wireInput } from './input.js';
import { Bands } from './bands.js';
import { BarsCache } from './bars-cache.js';
import { BusyCache } from './busy-cache.js';
import { wireSideResize } from './side-resize.js';
import { CallDetails } from './details.js';
import { CompareTable } from './compare.js';
import { firstInView, neighbour, refocused } from './focus.js';
import { itemUnder, sameItem } from './hit-test.js';
import { RankControls } from './rank-controls.js';
import { RanksPanel } from './ranks.js';
import { RegionsTable } from './regions.js';
import { clearSearch, findRegions, showFound, wireSearch } from './search.js';
import { Viewport } from './viewport.js';

const ZOOM_BUTTON_STEP = 1.6;
const RANK_HOVER_DELAY_MS = 120;

const byId = (id) => document.getElementById(id);

export class TimelineView {
  #onPainted;
  #onView;
  #client;
  #chart;
  #renderer;
  #viewport = new Viewport();
  #bands;
  #bars;
  #busy;
  #band; // what the ranks' rows show by region (busy-cache.js's kind 'band')
  #rankControls;
  #details;
  #regions;
  #ranks;
  #compare;
  #info = null; // the worker's timeline-open reply, with fileName
  #hue = new Uint8Array(0);
  #hover = null;
  #hoverRank = null; // { rank, pixel }: the rank row pointed at
  #focus = null;
  #selected = null;
  #range = null; // { a, b } ns being dragged on the axis, or null
  #highlight = null; // Uint8Array over frames, or null
  #highlightWhy = null; // 'search' | 'region'
  #painted = false;
  #frameRequested = false;
  #rankTimer = 0;
  #align = null; // comparing, lined up at a call: { shift, anchor: B's call { lane, depth, start, frame } }

  // onView(how): the view changed; how: 'push' for a deliberate step (a
  // selection, a zoom to a call, a region chosen), else 'replace'.
  constructor({ client, onPainted, onView = () => {} }) {
    this.#onPainted = onPainted;
    this.#onView = onView;
    this.#chart = byId('tl-chart');
    this.#renderer = new Renderer(byId('tl-canvas'));
    this.#bands = new Bands({
      onToggle: (lane) => this.toggleLane(lane),
      onToggleRank: (rank) => this.toggleRank(rank),
    });
    this.#bars = new BarsCache(client);
    this.#busy = new BusyCache(client);
    this.#band = new BusyCache(client, 'band');
    this.#details = new CallDetails(client, { onAlign: () => this.alignAtSelected() });
    this.#client = client;
    this.#regions = new RegionsTable(client, (frame) => this.#highlightRegion(frame));
    this.#compare = new CompareTable(client, (name) => this.#highlightRegion(this.#info.frames.indexOf(name)));
    this.#rankControls = new RankControls(client, {
      onOrder: (ranks) => this.#orderRanks(ranks),
      onCollapseAll: () => this.#collapseAllRanks(),
      onBandMode: (mode) => this.#bandModeChanged(mode),
    });
    this.#ranks = new RanksPanel(client, {
      onSelect: (frame) => this.#chooseRegion(frame),
      onZoom: (start, end) => this.#zoomToSpan(start, end),
      onQuery: (query) => this.#rankControls.update(query),
    });
    this.#followColourScheme();
    byId('tl-keys').textContent = KEYS;
    wireInput(this.#chart, this);
    this.#wireSizes();
    byId('tl-zoom-in').addEventListener('click', () => this.zoomCentre(1 / ZOOM_BUTTON_STEP));
    byId('tl-zoom-out').addEventListener('click', () => this.zoomCentre(ZOOM_BUTTON_STEP));
    byId('tl-reset').addEventListener('click', () => this.reset());
    byId('align-at-origin').addEventListener('click', () => this.alignAtOrigin());
    wireSearch(
      (text) => this.search(text),
      this.#chart,
      () => !!this.#info && !byId('timeline-box').hidden,
    );
  }

  #followColourScheme() {
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    this.#renderer.setTheme(dark.matches);
    this.#compare.theme(dark.matches);
    dark.addEventListener('change', () => {
      this.#renderer.setTheme(dark.matches);
      this.#compare.theme(dark.matches);
      this.invalidate();
    });
  }

  // The canvas follows the chart's size; the chart takes the window's height
  // less the bar (which holds the toolbar), the ranks' controls and the call details.
  #wireSizes() {
    new ResizeObserver(() => this.#resize()).observe(this.#chart);
    wireSideResize();
    const box = byId('timeline-box');
    const chromeObserver = new ResizeObserver(() => {
      const chrome =
        byId('call-details').offsetHeight + byId('tl-ranksbar').offsetHeight + byId('tl-comparebar').offsetHeight;
      box.style.setProperty('--tl-chrome', `${chrome}px`);
    });
    chromeObserver.observe(byId('call-details'));
    chromeObserver.observe(byId('tl-ranksbar'));
    chromeObserver.observe(byId('tl-comparebar'));
  }

  get timeline() {
    return this.#info?.timeline ?? null;
  }
  get originInRun() {
    return this.#info?.originInRun ?? 0;
  }
  // Two runs compared: the worker's compare (lanesB, partnerLanes, ...), or null.
  get comparison() {
    return this.#info?.compare ?? null;
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
  // The run's first call in absolute ns (decimal text), or null.
  get runOrigin() {
    return this.#info?.runOrigin ?? null;
  }
  get provisional() {
    return !!this.#info?.provisional;
  }

  // The view a link keeps: the window (whole ns), what is collapsed, the
  // region chosen in a table and the selected call.
  get viewState() {
    const s = this.#selected;
    const one = s && s.count === 1 && s.frame >= 0;
    const region = this.#highlightWhy === 'region' ? this.#highlight.indexOf(1) : -1;
    const back = this.#ofA(s) ? this.#shift : 0; // a call of A in A's own times
    return {
      window: { start: Math.round(this.#viewport.start), end: Math.round(this.#viewport.end) },
      collapsed: this.#bands.collapsedState,
      region: region >= 0 ? this.#info.frames[region] : null,
      call: one ? { lane: s.lane, depth: s.depth, start: s.start - back, end: s.end - back, frame: s.frame } : null,
      align: this.#align ? { ...this.#align.anchor, shift: this.#align.shift } : null,
    };
  }

  // Shows a link's view (viewState's fields; the run's numbers checked).
  restore({ window, collapsed, region, call, align = null }) {
    if (!this.#info) return;
    const cmp = this.#info.compare;
    const fits = align && cmp && align.lane < cmp.lanesB && align.frame < this.#info.frames.length;
    this.#lineUp(fits ? { shift: align.shift, anchor: align } : null);
    if (collapsed) this.#bands.setCollapsed(collapsed);
    this.#rankControls.collapsed(this.#bands.allRanksCollapsed);
    const frame = region === null ? -1 : this.#info.frames.indexOf(region);
    this.#markRegion(frame >= 0 ? frame : null);
    this.#ranks.select(frame >= 0 ? frame : null);
    const ok = call && call.lane < this.#info.lanes.length && call.frame < this.#info.frames.length;
    const by = ok && this.#ofA(call) ? this.#shift : 0;
    this.#selected = ok ? { ...call, start: call.start + by, end: call.end + by, count: 1 } : null;
    this.#focus = this.#selected;
    this.#describe(this.#selected);
    if (window) this.#viewport.set(window.start, window.end);
    this.scrollBy(0);
    this.#regionsSoon();
  }

  // info: the worker's timeline-open reply, with fileName.
  show(info) {
    this.#info = info;
    this.#bars.show(info.timeline, info.maxWidth);
    this.#busy.show(info.timeline, info.maxWidth);
    this.#band.show(info.timeline, info.maxWidth);
    this.#painted = false;
    this.#hover = this.#focus = this.#selected = this.#hoverRank = null;
    this.#range = null;
    this.#highlight = null;
    this.#highlightWhy = null;
    this.#align = null;
    this.#bars.align(info.compare?.lanesB ?? Infinity, 0);
    this.#showAlignment();
    this.#hue = Uint8Array.from(info.frames, (name) => hueIndex(name));
    this.#viewport.show(info.runEnd);
    this.#label(info);
    byId('timeline-box').dataset.compare = info.compare ? 'on' : 'off';
    byId('timeline-box').dataset.provisional = String(!!info.provisional);
    if (info.compare) this.#compare.show(info);
    else this.#compare.clear();
    clearSearch();
    this.#bands.show(info.lanes);
    this.#rankControls.show(
      this.#bands.severalRanks,
      this.#bands.allRanksCollapsed,
      Math.max(0, ...info.lanes.map((l) => l.maxDepth)),
    );
    this.#band.setDepth(this.#rankControls.bandDepth);
    this.#ranks.show(info);
    this.#regions.setSources(info.frameSources);
    this.#describe(null);
    this.#regionsSoon();
    this.#resize();
  }

  // A provisional open made exact without a change of its frames: the
  // run's origin (timeline-complete's answer).
  completed(answer) {
    if (this.#info?.timeline === answer.timeline) {
      const { originInRun, runOrigin } = answer;
      this.#info = { ...this.#info, originInRun, runOrigin, provisional: false };
      byId('timeline-box').dataset.provisional = 'false';
    }
  }

  #label(info) {
    const calls = info.lanes.reduce((n, l) => n + l.calls, 0);
    const lanes = `${info.lanes.length === 1 ? 'one lane' : `${info.lanes.length} lanes`}`;
    const what = info.compare
      ? `${info.fileName} (B, coloured by its calls' durations against A) and ${info.baselineName} (A)`
      : info.fileName;
    this.#chart.setAttribute(
      'aria-label',
      `Timeline of ${what}: ${lanes}, ${count(calls)} calls over ${exactTime(info.runEnd - 1)}`,
    );
  }

  clear() {
    this.#info = null;
    this.#align = null;
    this.#showAlignment();
    this.#compare.clear();
    byId('timeline-box').dataset.compare = 'off';
    this.#bars.clear();
    this.#busy.clear();
    this.#band.clear();
    this.#viewport.clear();
    this.#painted = false;
    this.#bands.clear();
    this.#rankControls.clear();
    this.#regions.clear();
    this.#ranks.clear();
    this.#describe(null);
  }

  // ---- the view: zoom, pan, scroll ------------------------------------------------

  #setView(start, end, how = 'replace') {
    this.#viewport.set(start, end);
    this.invalidate();
    this.#regionsSoon();
    this.#onView(how);
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
    this.#setView(this.#viewport.runStart, this.#viewport.runEnd);
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
    this.#onView('replace');
  }

  #zoomToItem(item) {
    const length = Math.max(item.end - item.start, 1);
    this.#setView(item.start - length * 0.05, item.start + length * 1.05, 'push');
    this.#bands.scrollTo(item, this.#renderer.height - AXIS_H);
    this.invalidate();
  }

  // [start, end) of calls on several lanes (a step of a region on every
  // rank), with a little room on each side.
  #zoomToSpan(start, end) {
    const length = Math.max(end - start, 1);
    this.#setView(start - length * 0.05, end + length * 0.05, 'push');
  }

  toggleLane(lane) {
    this.#bands.toggle(lane);
    this.scrollBy(0);
    this.#onView('replace');
  }

  // A rank collapsed to its row, or expanded to its lanes.
  toggleRank(rank) {
    this.#bands.toggleRank(rank);
    this.#rankControls.collapsed(this.#bands.allRanksCollapsed);
    this.scrollBy(0);
    this.#onView('replace');
  }

  #collapseAllRanks() {
    this.#bands.setAllRanks(!this.#bands.allRanksCollapsed);
    this.#rankControls.collapsed(this.#bands.allRanksCollapsed);
    this.scrollBy(0);
    this.#onView('replace');
  }

  // The ranks' rows top to bottom (null: by rank number).
  #orderRanks(ranks) {
    if (this.#bands.setOrder(ranks)) this.scrollBy(0);
  }

  // What the ranks' rows show changed: 'busy', or a region at a depth
  // ('auto': each rank's own).
  #bandModeChanged() {
    this.#band.setDepth(this.#rankControls.bandDepth);
    this.invalidate();
    const row = this.#bands.ranks.find((r) => r.rank === this.#hoverRank?.rank);
    if (row) this.#describeRank(row);
  }

  // The ranks' rows show regions (else busy shares): asked for, and offered
  // by the engine.
  get #byRegion() {
    return this.#rankControls.bandMode !== 'busy' && this.#band.supported;
  }

  // A pointer holds the chart (true) or let go: the rows keep their order meanwhile.
  holdLayout(on) {
    this.#rankControls.hold(on);
  }

  // ---- drawing --------------------------------------------------------------------

  #resize() {
    const r = this.#chart.getBoundingClientRect();
    if (!r.width || !r.height) return;
    this.#renderer.resize(r.width, r.height, window.devicePixelRatio || 1);
    if (this.#bands.fit(r.height)) this.scrollBy(0);
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
    const rankRows = this.#bands.ranksInView(this.#renderer.height - AXIS_H);
    const byRegion = this.#byRegion;
    const shares = byRegion ? this.#band : this.#busy;
    shares.ensure(this.#viewport, rankRows, this.#renderer.width, () => this.invalidate());
    const { start, end } = this.#viewport;
    this.#renderer.draw({
      view: { start, end },
      scrollY: this.#bands.scrollY,
      bands: this.#bands.list,
      ranks: this.#bands.ranks,
      busyOf: (rank, out) => shares.resample(rank, { start, end }, out),
      bandMode: byRegion ? 'region' : 'busy',
      hoverRank: this.#hoverRank,
      data: this.#bars.data,
      frames: this.#info.frames,
      firstA: this.#info.compare?.lanesB ?? Infinity,
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
    if (byRegion && rankRows.length) {
      const depths = new Set(rankRows.map((r) => this.#band.depthOf(r.rank)).filter((d) => d !== null));
      this.#rankControls.legend(this.#renderer.bandCounts, this.#info.frames, [...depths]);
    }
    if (!this.#painted && this.#bars.has(lanes) && shares.has(rankRows)) {
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
    const next = item?.header || item?.rankRow ? null : item;
    this.#chart.style.cursor = item?.header || item?.label ? 'pointer' : '';
    if (item?.rankRow) {
      this.#pointAtRank(item.rankRow, x);
      return;
    }
    const wasRank = this.#hoverRank !== null;
    this.#hoverRank = null;
    if (sameItem(next, this.#hover) && !wasRank) return;
    this.#hover = next;
    this.invalidate();
    this.#describe(this.#hover ?? this.#focus ?? this.#selected);
  }

  // The pixel `x` of a rank's row pointed at: its busy share, asked exactly
  // for the view at the chart's width in whole pixels.
  #pointAtRank(row, x) {
    const width = Math.max(1, Math.round(this.#renderer.width));
    const pixel = Math.max(0, Math.min(width - 1, Math.floor((x * width) / this.#renderer.width)));
    if (this.#hover) {
      this.#hover = null;
      this.invalidate();
    }
    if (this.#hoverRank?.rank === row.rank && this.#hoverRank.pixel === pixel) return;
    const changed = this.#hoverRank?.rank !== row.rank;
    this.#hoverRank = { rank: row.rank, pixel, x };
    if (changed) this.invalidate();
    this.#describeRank(row);
  }

  // The view moved under a pointed rank row: its share there, once the view settles.
  #describeRankSoon() {
    clearTimeout(this.#rankTimer);
    this.#rankTimer = setTimeout(() => {
      const row = this.#bands.ranks.find((r) => r.rank === this.#hoverRank?.rank);
      if (row) this.#describeRank(row);
    }, RANK_HOVER_DELAY_MS);
  }

  async #describeRank(row) {
    const hovered = this.#hoverRank;
    const { pixel } = hovered;
    const width = Math.max(1, Math.round(this.#renderer.width));
    const view = { start: this.#viewport.start, end: this.#viewport.end };
    const time = Math.round(view.start + ((pixel + 0.5) * (view.end - view.start)) / width);
    const at = { rank: row.rank, time, pixel, width };
    if (this.#byRegion) {
      this.#details.showBand({ ...at, frame: null });
      const frame = await this.#band.at(row, view, width, pixel);
      if (this.#hoverRank !== hovered) return;
      const depth = this.#band.depthOf(row.rank);
      const name = frame >= 0 ? this.#info.frames[frame] : null;
      this.#details.showBand({ ...at, frame: frame ?? undefined, name, depth });
      return;
    }
    this.#details.showBusy({ ...at, share: null });
    const share = await this.#busy.at(row, view, width, pixel);
    if (this.#hoverRank !== hovered) return;
    this.#details.showBusy({ ...at, share: share ?? undefined });
  }

  clickAt(x, y) {
    const item = this.#itemAt(x, y);
    if (item?.header) {
      this.toggleLane(item.header.lane);
      return;
    }
    if (item?.rankRow) {
      if (item.label) this.toggleRank(item.rankRow.rank);
      return;
    }
    const changed = !sameItem(item, this.#selected);
    this.#selected = item;
    if (item) this.#focus = item;
    this.invalidate();
    this.#describe(item);
    if (changed) this.#onView('push');
  }

  zoomToCallAt(x, y) {
    const item = this.#itemAt(x, y);
    if (item && !item.header && !item.rankRow) this.#zoomToItem(item);
  }

  // ---- keyboard focus on calls -------------------------------------------------------

  focusFirst() {
    const barsOf = (lane) => this.#bars.data.get(lane);
    const item = firstInView(this.#bands.shown, barsOf, this.#viewport.start, this.#viewport.end);
    if (item) this.#setFocus(item);
    else if (this.#bands.severalRanks && !this.#bands.expandedLanes.length)
      this.#describe(
        null,
        'Every rank is collapsed: expand one (its label, or the lanes list) to step through its calls.',
      );
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
    this.#describe(this.#focus);
    this.#onView('push');
  }

  zoomToFocused() {
    if (this.#focus) this.#zoomToItem(this.#focus);
  }

  // how: 'previous', 'next', 'parent', 'child', 'lane-previous', 'lane-next'.
  moveFocus(how) {
    if (!this.#focus) return;
    const barsOf = (lane) => this.#bars.data.get(lane);
    const next = neighbour(this.#focus, how, this.#bands, barsOf, this.#viewport.start);
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
    const selected = !!item && sameItem(item, this.#selected);
    this.#details.show(item, this.#info, note, { selected, shift: this.#shift });
  }

  // ---- two runs lined up at a call -----------------------------------------------

  get #shift() {
    return this.#align?.shift ?? 0;
  }

  // Whether `item` is a call of run A (comparing).
  #ofA(item) {
    return !!item && !!this.#info?.compare && item.lane >= this.#info.compare.lanesB;
  }

  // "Align at this call": the selected call's partner (asked of the engine)
  // and the call of B start together; A moves, B stays.
  async alignAtSelected() {
    const s = this.#selected;
    const info = this.#info;
    if (!s || s.count !== 1 || !info?.compare) return;
    const ofA = this.#ofA(s);
    const own = ofA ? s.start - this.#shift : s.start;
    const reply = await this.#client.query('compare-partner', {
      timeline: info.timeline,
      lane: s.lane,
      depth: s.depth,
      start: own,
    });
    if (this.#info !== info || this.#selected !== s) return;
    if (reply.type !== 'result') {
      this.#details.failed(reply);
      return;
    }
    const p = reply.partner;
    if (!p) {
      byId('tl-align-note').textContent = `${info.frames[s.frame]} has no partner in ${ofA ? 'B' : 'A'} to line up at.`;
      return;
    }
    const anchor = ofA ? p : { lane: s.lane, depth: s.depth, start: s.start, frame: s.frame };
    this.#lineUp({ shift: ofA ? p.start - own : s.start - p.start, anchor });
    this.#onView('push');
  }

  // Back to both runs from their origins.
  alignAtOrigin() {
    if (!this.#align) return;
    this.#lineUp(null);
    this.#onView('push');
    this.#chart.focus();
  }

  // Lines the runs up (align: { shift, anchor }, or null: at their origins):
  // A's bars asked again moved, A's calls pointed at moved with them, the
  // chart's time from the earliest to the latest call drawn.
  #lineUp(align) {
    const before = this.#shift;
    this.#align = align;
    const shift = this.#shift;
    const cmp = this.#info?.compare;
    if (!cmp) return;
    this.#bars.align(cmp.lanesB, shift);
    const move = (item) =>
      this.#ofA(item) ? { ...item, start: item.start + shift - before, end: item.end + shift - before } : item;
    const selected = this.#selected === this.#focus;
    this.#hover = move(this.#hover);
    this.#focus = move(this.#focus);
    this.#selected = selected ? this.#focus : move(this.#selected);
    this.#viewport.bounds(Math.min(0, shift), Math.max(cmp.runEnd.b, cmp.runEnd.a + shift));
    this.#showAlignment();
    this.invalidate();
    this.#regionsSoon();
    this.#describe(this.#hover ?? this.#focus ?? this.#selected);
  }

  // The comparison bar: how the runs are lined up, and the way back.
  #showAlignment() {
    const a = this.#align;
    const note = byId('tl-align-note');
    byId('align-at-origin').hidden = !a;
    if (!a) {
      note.textContent = 'Both runs from their origins.';
      return;
    }
    const lane = this.#info.lanes[a.anchor.lane]?.name ?? '';
    const by = a.shift === 0 ? 'not moved' : `${a.shift > 0 ? 'later' : 'earlier'} by ${exactTime(Math.abs(a.shift))}`;
    note.textContent = `Lined up at ${this.#info.frames[a.anchor.frame]} (${lane}, ${exactTime(a.anchor.start)}): A drawn ${by}.`;
  }

  // ---- search and regions -----------------------------------------------------------

  search(text) {
    const found = this.#info ? findRegions(this.#info.frames, this.#info.totals, text) : null;
    this.#highlight = found?.marks ?? null;
    this.#highlightWhy = found ? 'search' : null;
    showFound(found);
    this.#regions.mark(this.#highlight);
    this.#compare.mark(this.#highlight);
    this.invalidate();
  }

  // A region picked in the table: it alone stays in colour; picked again, all do.
  #highlightRegion(frame) {
    const already =
      this.#highlightWhy === 'region' && this.#highlight?.[frame] && this.#highlight.reduce((a, b) => a + b, 0) === 1;
    clearSearch();
    this.#markRegion(already ? null : frame);
    this.#onView('push');
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
    this.#compare.mark(this.#highlight);
    this.invalidate();
  }

  // A region chosen in the Ranks panel: it alone stays in colour (null: the
  // highlight it set goes).
  #chooseRegion(frame) {
    if (frame === null && this.#highlightWhy !== 'region') return;
    if (frame !== null) clearSearch();
    this.#markRegion(frame);
    this.#onView('push');
  }

  #regionsSoon() {
    if (this.#hoverRank) this.#describeRankSoon();
    const current = () => this.#info?.timeline ?? null;
    const window = () => this.#viewport.window;
    if (this.#info?.compare) {
      this.#compare.soon(current, window);
      return;
    }
    this.#regions.soon(current, window);
    this.#ranks.soon(current, window);
  }
}
