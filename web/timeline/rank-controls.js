// The ranks' controls above the chart (#tl-ranksbar, only for timelines of
// several ranks): collapse or expand every rank's band (#tl-bands-collapse),
// the order of the ranks' rows (#tl-rank-order: by rank number, or latest
// first), and what the rows show (#tl-band-mode): by default the region
// running at each rank's band depth (the first depth below the regions
// that span the rank: a run inside one `main` looping over `step` shows
// what each step does), or a
// depth chosen, with the legend of the regions drawn (#tl-band-legend); or
// how busy each rank is, with the legend of the busy scale (#tl-busy-legend).
//
// Latest first: for the region chosen in the Ranks panel (else the first row
// of its imbalance table, the widest spread), each rank's mean lateness over
// the region's aligned calls in the visible window (the core's alignedCalls:
// a call's start less the median start of that step over the ranks), the
// latest rank on top. The order follows the window: the Ranks panel asks
// again a moment after the window stops changing (ranks.js), then the
// worker's lateness query; never while a pointer drags the chart (held, and
// applied when it lets go).

import { latestFirst } from './aligned.js';
import { hueIndex, palette } from './colors.js';
import { drawBusyScale } from './draw.js';
import { exactTime } from './format.js';

const LEGEND_REGIONS = 6;

const byId = (id) => document.getElementById(id);

export class RankControls {
  #client;
  #onOrder;
  #select;
  #asked = 0; // bumps with every lateness query, so only the newest answer applies
  #held = false;
  #pending = null; // an order that arrived during a drag
  #query = null; // the Ranks panel's region and window
  #dark = window.matchMedia('(prefers-color-scheme: dark)');
  #mode = byId('tl-band-mode');
  #legendKey = '';

  // onOrder(ranks | null): the ranks top to bottom (null: by rank number).
  // onCollapseAll(): the collapse/expand-all button was pressed.
  // onBandMode(): what the rows show changed (bandMode, bandDepth).
  constructor(client, { onOrder, onCollapseAll, onBandMode }) {
    this.#client = client;
    this.#onOrder = onOrder;
    this.#select = byId('tl-rank-order');
    this.#select.addEventListener('change', () => this.#orderChanged());
    byId('tl-bands-collapse').addEventListener('click', () => onCollapseAll());
    this.#dark.addEventListener('change', () => {
      this.#drawLegend();
      this.#legendKey = '';
    });
    this.#mode.addEventListener('change', () => {
      this.#showLegends();
      onBandMode();
    });
  }

  // 'busy', 'auto' (each rank's own depth) or a depth.
  get bandMode() {
    const v = this.#mode.value;
    return v === 'busy' || v === 'auto' ? v : Number(v);
  }

  // The depth the bands show by region: a number, or null for each rank's own.
  get bandDepth() {
    const mode = this.bandMode;
    return typeof mode === 'number' ? mode : null;
  }

  // The regions the rows showed (counts: frame -> pixels; frames: names;
  // depths: the depths of the rows in view), the most seen first.
  legend(counts, frames, depths) {
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const shown = top.slice(0, LEGEND_REGIONS).map(([f]) => f);
    const key = JSON.stringify([shown, top.length, depths, frames.length]);
    if (key === this.#legendKey) return;
    this.#legendKey = key;
    const colours = palette(this.#dark.matches).fill;
    const box = byId('tl-band-legend');
    const sorted = [...depths].sort((a, b) => a - b);
    const at = !sorted.length
      ? 'Regions'
      : sorted.length === 1
        ? `At depth ${sorted[0]}`
        : `At depths ${sorted[0]} to ${sorted[sorted.length - 1]}`;
    const items = shown.map((f) => {
      const item = document.createElement('span');
      item.className = 'tl-band-item';
      item.dataset.frame = String(f);
      const swatch = document.createElement('span');
      swatch.className = 'tl-band-swatch';
      swatch.style.background = colours[hueIndex(frames[f])];
      swatch.setAttribute('aria-hidden', 'true');
      item.append(swatch, frames[f]);
      return item;
    });
    const head = document.createElement('span');
    head.textContent = `${at}:`;
    const more = top.length > shown.length ? [` +${top.length - shown.length} more`] : [];
    const none = items.length ? [] : [' nothing runs in view'];
    box.replaceChildren(head, ...items, ...more, ...none);
    box.dataset.frames = shown.join(',');
  }

  get byLateness() {
    return this.#select.value === 'lateness';
  }

  // A new timeline: the controls when it has several ranks; the order by
  // rank until the first lateness arrives.
  // maxDepth: the deepest depth of its lanes (the depths offered).
  show(severalRanks, allCollapsed, maxDepth = 0) {
    this.#asked++;
    this.#pending = null;
    this.#query = null;
    byId('tl-ranksbar').hidden = !severalRanks;
    this.collapsed(allCollapsed);
    this.#mark(null, null);
    this.#offerDepths(maxDepth);
    this.#legendKey = '';
    this.#showLegends();
    if (severalRanks) this.#drawLegend();
  }

  // The choices: the region at each rank's own depth, at depth 0 .. maxDepth,
  // or how busy; a depth chosen before stays when the run has it.
  #offerDepths(maxDepth) {
    const was = this.#mode.value;
    const options = [['auto', "regions (each rank's depth)"]];
    for (let d = 0; d <= maxDepth; d++) options.push([String(d), `regions at depth ${d}`]);
    options.push(['busy', 'how busy each rank is']);
    this.#mode.replaceChildren(
      ...options.map(([value, text]) => Object.assign(document.createElement('option'), { value, text })),
    );
    this.#mode.value = options.some(([v]) => v === was) ? was : 'auto';
  }

  #showLegends() {
    const busy = this.bandMode === 'busy';
    byId('tl-busy-legend').hidden = !busy;
    byId('tl-band-legend').hidden = busy;
    this.#legendKey = '';
  }

  clear() {
    this.#asked++;
    this.#pending = null;
    this.#query = null;
    byId('tl-ranksbar').hidden = true;
  }

  // Says what the collapse button does next.
  collapsed(allCollapsed) {
    byId('tl-bands-collapse').textContent = allCollapsed ? 'Expand all ranks' : 'Collapse all ranks';
  }

  // The Ranks panel's region and window: { timeline, frame, name, start, end }
  // (frame null: no region in the window).
  update(query) {
    this.#query = query;
    if (this.byLateness) this.#load(query);
  }

  // A pointer holds the chart (true) or let go (false): no reordering meanwhile.
  hold(on) {
    this.#held = on;
    if (on || !this.#pending) return;
    const { ranks, query } = this.#pending;
    this.#pending = null;
    this.#apply(ranks, query);
  }

  #orderChanged() {
    if (this.byLateness) {
      this.#load(this.#query);
      return;
    }
    this.#asked++;
    this.#pending = null;
    this.#apply(null, null);
  }

  async #load(query) {
    const asked = ++this.#asked;
    if (!query || query.frame === null) {
      byId('tl-rank-order-note').textContent = query ? 'no region in view: by rank' : '';
      return;
    }
    const { timeline, frame, start, end } = query;
    const reply = await this.#client.query('lateness', { timeline, frame, start, end });
    if (asked !== this.#asked || reply.type !== 'result' || !this.byLateness) return;
    const ranks = latestFirst(reply);
    if (this.#held) this.#pending = { ranks, query };
    else this.#apply(ranks, query);
  }

  #apply(ranks, query) {
    this.#onOrder(ranks);
    this.#mark(ranks, query);
  }

  // What the order is, on the control (for people, and the tests).
  #mark(ranks, query) {
    const s = this.#select.dataset;
    s.applied = ranks ? 'lateness' : 'rank';
    s.order = ranks ? ranks.join(',') : '';
    s.frame = query ? String(query.frame) : '';
    s.windowStart = query ? String(query.start) : '';
    s.windowEnd = query ? String(query.end) : '';
    byId('tl-rank-order-note').textContent = ranks
      ? `in ${query.name}, ${exactTime(query.start)} to ${exactTime(query.end)}`
      : '';
  }

  #drawLegend() {
    drawBusyScale(byId('tl-busy-scale'), this.#dark.matches);
  }
}
