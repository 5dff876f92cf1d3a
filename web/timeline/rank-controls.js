// The ranks' controls above the chart (#tl-ranksbar, only for timelines of
// several ranks): collapse or expand every rank's band (#tl-bands-collapse),
// the order of the ranks' rows (#tl-rank-order: by rank number, or latest
// first), and the legend of the busy scale (#tl-busy-legend).
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
import { drawBusyScale } from './draw.js';
import { exactTime } from './format.js';

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

  // onOrder(ranks | null): the ranks top to bottom (null: by rank number).
  // onCollapseAll(): the collapse/expand-all button was pressed.
  constructor(client, { onOrder, onCollapseAll }) {
    this.#client = client;
    this.#onOrder = onOrder;
    this.#select = byId('tl-rank-order');
    this.#select.addEventListener('change', () => this.#orderChanged());
    byId('tl-bands-collapse').addEventListener('click', () => onCollapseAll());
    this.#dark.addEventListener('change', () => this.#drawLegend());
  }

  get byLateness() {
    return this.#select.value === 'lateness';
  }

  // A new timeline: the controls when it has several ranks; the order by
  // rank until the first lateness arrives.
  show(severalRanks, allCollapsed) {
    this.#asked++;
    this.#pending = null;
    this.#query = null;
    byId('tl-ranksbar').hidden = !severalRanks;
    this.collapsed(allCollapsed);
    this.#mark(null, null);
    if (severalRanks) this.#drawLegend();
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
