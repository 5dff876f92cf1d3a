// The timeline's bands, stacked top to bottom, and the vertical scroll over
// them; the lanes list (#tl-lanes) whose buttons collapse them. A lane's
// band is a header with its name over one row per depth (none while
// collapsed). With several ranks, each rank's lanes come under a row of its
// own, the rank's summary band (its busy share per pixel, drawn by
// draw.js): collapsed, the rank is that row alone; expanded, its lanes
// follow it. Ranks are collapsed at first when there are more than
// COLLAPSE_ABOVE, so that many fit the chart; their rows are RANK_H px high,
// thinner when the chart needs it (to a fraction of a pixel), and come in rank
// order or in an order given (latest first: rank-order.js). Each rank row
// is also a positioned element over the chart ([data-testid=rank-band] in
// #tl-rank-rows, hidden from assistive technology: the lanes list holds the
// ranks' buttons), so that its place can be read.

import { el } from '../dom.js';
import { count } from './format.js';
import { AXIS_H, BAND_GAP, HEADER_H, MIN_RANK_H, RANK_H, ROW_H } from './draw.js';

export const COLLAPSE_ABOVE = 8;

const byId = (id) => document.getElementById(id);
const callsText = (n) => ` ${count(n)} ${n === 1 ? 'call' : 'calls'}`;

// The lanes' ranks, ascending: [{ rank, lanes, calls }].
function groupsOf(lanes) {
  const byRank = new Map();
  lanes.forEach((lane, i) => {
    const rank = lane.rank ?? 0;
    if (!byRank.has(rank)) byRank.set(rank, { rank, lanes: [], calls: 0 });
    byRank.get(rank).lanes.push(i);
    byRank.get(rank).calls += lane.calls;
  });
  return [...byRank.values()].sort((a, b) => a.rank - b.rank);
}

export class Bands {
  list = []; // by lane: [{ lane, name, rank, top, height, depths, collapsed, hidden }]
  shown = []; // the bands of lanes on the chart (not under a collapsed rank), top to bottom
  ranks = []; // several ranks: their rows, top to bottom: [{ rank, lanes, calls, top, height, collapsed }]
  scrollY = 0;
  #contentHeight = 0;
  #collapsed = new Set(); // lanes
  #collapsedRanks = new Set();
  #order = null; // rank numbers top to bottom, or null: ascending
  #groups = [];
  #lanes = [];
  #rankHeight = RANK_H;
  #onToggle;
  #onToggleRank;

  // onToggle(lane), onToggleRank(rank): a button of the lanes list was pressed.
  constructor({ onToggle, onToggleRank }) {
    this.#onToggle = onToggle;
    this.#onToggleRank = onToggleRank;
  }

  // A new run's lanes ([{ name, calls, maxDepth, rank }]), at the top: every
  // band open, the ranks collapsed when there are more than COLLAPSE_ABOVE.
  show(lanes) {
    this.#lanes = lanes;
    this.#collapsed = new Set();
    const groups = groupsOf(lanes);
    this.#groups = groups.length > 1 ? groups : [];
    this.#collapsedRanks = new Set(groups.length > COLLAPSE_ABOVE ? groups.map((g) => g.rank) : []);
    this.#order = null;
    this.scrollY = 0;
    this.#changed();
  }

  clear() {
    this.#lanes = [];
    this.#groups = [];
    this.#layout();
    byId('tl-lanes').replaceChildren();
    byId('tl-rank-rows').replaceChildren();
  }

  // More than one rank: the lanes come under their ranks' rows.
  get severalRanks() {
    return this.#groups.length > 1;
  }

  get allRanksCollapsed() {
    return this.#groups.every((g) => this.#collapsedRanks.has(g.rank));
  }

  toggle(lane) {
    if (this.#collapsed.has(lane)) this.#collapsed.delete(lane);
    else this.#collapsed.add(lane);
    this.#changed();
  }

  toggleRank(rank) {
    if (this.#collapsedRanks.has(rank)) this.#collapsedRanks.delete(rank);
    else this.#collapsedRanks.add(rank);
    this.#changed();
  }

  // Every rank collapsed (true) or expanded (false).
  setAllRanks(collapsed) {
    this.#collapsedRanks = new Set(collapsed ? this.#groups.map((g) => g.rank) : []);
    this.#changed();
  }

  // What is collapsed, for a link to the view: { lanes, ranks } (ascending
  // numbers; ranks only with several).
  get collapsedState() {
    const sorted = (set) => [...set].sort((a, b) => a - b);
    return { lanes: sorted(this.#collapsed), ranks: this.severalRanks ? sorted(this.#collapsedRanks) : [] };
  }

  // Collapses these lanes and ranks (the others open); numbers the run does
  // not have are left out.
  setCollapsed({ lanes, ranks }) {
    this.#collapsed = new Set(lanes.filter((l) => l < this.#lanes.length));
    const known = new Set(this.#groups.map((g) => g.rank));
    this.#collapsedRanks = new Set(ranks.filter((r) => known.has(r)));
    this.#changed();
  }

  // The ranks top to bottom (rank numbers; null: ascending). False when
  // that is the order already.
  setOrder(ranks) {
    const now = this.ranks.map((r) => r.rank).join();
    this.#order = ranks;
    this.#layout();
    if (this.ranks.map((r) => r.rank).join() === now) return false;
    this.#renderList();
    return true;
  }

  // The rank rows' height for a chart `height` px high: every rank in it
  // when RANK_H to MIN_RANK_H px a rank allows (whole pixels from 3 px on,
  // else a fraction of a pixel). True when it changed.
  fit(height) {
    const fits = (height - AXIS_H - 1) / Math.max(1, this.#groups.length);
    const h = fits >= 3 ? Math.min(RANK_H, Math.floor(fits)) : Math.max(MIN_RANK_H, fits);
    if (h === this.#rankHeight) return false;
    this.#rankHeight = h;
    this.#layout();
    return true;
  }

  // The lanes whose rows are shown.
  get expandedLanes() {
    return this.shown.filter((b) => !b.collapsed).map((b) => b.lane);
  }

  // The lane's band at `y` px of the chart (below the axis), or null.
  at(y) {
    const cy = y - AXIS_H + this.scrollY;
    return this.shown.find((b) => cy >= b.top && cy < b.top + b.height) ?? null;
  }

  // The index in `ranks` of the rank row at `y` px of the chart, or -1.
  rankIndexAt(y) {
    const cy = y - AXIS_H + this.scrollY;
    let lo = 0;
    let hi = this.ranks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ranks[mid].top + this.ranks[mid].height <= cy) lo = mid + 1;
      else hi = mid;
    }
    const row = this.ranks[lo];
    return row && cy >= row.top ? lo : -1;
  }

  // The rank rows in view when `visible` px of the bands show.
  ranksInView(visible) {
    const top = this.scrollY;
    return this.ranks.filter((r) => r.top + r.height > top && r.top < top + visible);
  }

  // Scrolls by `dy` px within the bands, `visible` px of them in view.
  scrollBy(dy, visible) {
    const max = Math.max(0, this.#contentHeight - visible + ROW_H);
    this.scrollY = Math.min(max, Math.max(0, this.scrollY + dy));
    byId('tl-rank-rows').style.transform = `translateY(${-this.scrollY}px)`;
  }

  // Scrolls so that the row of `item` ({ lane, depth }) is in view.
  scrollTo(item, visible) {
    const band = this.list[item.lane];
    if (!band || band.hidden) return;
    const y = band.top + HEADER_H + item.depth * ROW_H;
    if (y < this.scrollY + HEADER_H) this.scrollBy(y - HEADER_H - this.scrollY, visible);
    else if (y + ROW_H > this.scrollY + visible) this.scrollBy(y + 2 * ROW_H - visible - this.scrollY, visible);
  }

  #changed() {
    this.#layout();
    this.#renderList();
  }

  #groupsInOrder() {
    if (!this.#order) return this.#groups;
    const byRank = new Map(this.#groups.map((g) => [g.rank, g]));
    const first = this.#order.filter((r) => byRank.has(r)).map((r) => byRank.get(r));
    const placed = new Set(first);
    return [...first, ...this.#groups.filter((g) => !placed.has(g))];
  }

  #layout() {
    this.list = this.#lanes.map((lane, i) => {
      const collapsed = this.#collapsed.has(i);
      const depths = lane.maxDepth + 1;
      const height = HEADER_H + (collapsed ? 0 : depths * ROW_H) + BAND_GAP;
      return { lane: i, name: lane.name, rank: lane.rank ?? 0, top: 0, height, depths, collapsed, hidden: false };
    });
    let y = 0;
    const place = (band) => {
      band.top = y;
      y += band.height;
      return band;
    };
    if (!this.#groups.length) {
      this.ranks = [];
      this.shown = this.list.map(place);
    } else {
      this.shown = [];
      this.ranks = this.#groupsInOrder().map((g) => {
        const row = { ...g, top: y, height: this.#rankHeight, collapsed: this.#collapsedRanks.has(g.rank) };
        y += row.height;
        for (const lane of g.lanes) {
          if (row.collapsed) this.list[lane].hidden = true;
          else this.shown.push(place(this.list[lane]));
        }
        return row;
      });
    }
    this.#contentHeight = y;
    this.#renderRows();
  }

  // The rank rows over the chart, for reading their places.
  #renderRows() {
    const box = byId('tl-rank-rows');
    box.replaceChildren(
      ...this.ranks.map((r) => {
        const row = el('div', {
          className: 'tl-rank-row',
          'data-testid': 'rank-band',
          'data-rank': String(r.rank),
          'data-collapsed': String(r.collapsed),
        });
        row.style.top = `${r.top}px`;
        row.style.height = `${r.height}px`;
        return row;
      }),
    );
    box.style.transform = `translateY(${-this.scrollY}px)`;
  }

  #laneButton(i) {
    const lane = this.#lanes[i];
    const collapsed = this.#collapsed.has(i);
    return el(
      'li',
      {},
      el(
        'button',
        {
          type: 'button',
          className: 'tl-lane',
          'aria-expanded': String(!collapsed),
          'data-lane': String(i),
          onclick: () => this.#onToggle(i),
          title: collapsed ? 'Show this band' : 'Collapse this band',
        },
        el('span', { className: 'tl-lane-name', text: lane.name }),
        el('span', { className: 'tl-lane-calls', text: callsText(lane.calls) }),
      ),
    );
  }

  #rankItem(row) {
    const button = el(
      'button',
      {
        type: 'button',
        className: 'tl-lane tl-rank',
        'aria-expanded': String(!row.collapsed),
        'data-rank': String(row.rank),
        onclick: () => this.#onToggleRank(row.rank),
        title: row.collapsed ? "Show this rank's lanes" : 'Collapse this rank to one band',
      },
      el('span', { className: 'tl-rank-name', text: `rank ${row.rank}` }),
      el('span', { className: 'tl-lane-calls', text: callsText(row.calls) }),
    );
    const lanes = row.collapsed
      ? null
      : el('ul', { className: 'tl-lanes tl-rank-lanes' }, ...row.lanes.map((i) => this.#laneButton(i)));
    return el('li', { className: 'tl-rank-item' }, button, lanes);
  }

  #renderList() {
    const items = this.ranks.length
      ? this.ranks.map((row) => this.#rankItem(row))
      : this.#lanes.map((_, i) => this.#laneButton(i));
    byId('tl-lanes').replaceChildren(...items);
  }
}
