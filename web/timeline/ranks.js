// The Ranks panel (#tl-ranks): who waits for whom in the visible window.
// Its table (#tl-imbalance-table) is the core's imbalance query: per region,
// its time on each rank (the region's covered time there) summed up as min,
// median, mean and max over the ranks, the imbalance (max − mean) / max and
// the slowest rank; asked again a moment after the window stops changing,
// as the regions table is, and sortable by each column. A region chosen in
// it (a click, or Enter on its button) is highlighted on the timeline and
// shown on the heatmap (heatmap.js) of its aligned calls in the window.
// The chosen region (else the table's first row) and the window are what
// the ranks' rows are ordered by when latest first (rank-controls.js).
// Only for timelines of more than one rank; otherwise a one-line note.

import { el } from '../dom.js';
import { exactTime, tableTime } from './format.js';
import { Heatmap } from './heatmap.js';
import { WindowQuery, markRows, regionButton, sortButtons, stampWindow } from './window-table.js';

const RANK_ROWS = 200;
const TIMES = ['min', 'median', 'mean', 'max'];

const byId = (id) => document.getElementById(id);

// 0.0682 -> "6.8 %"
export const imbalanceText = (x) => `${(x * 100).toFixed(1)} %`;

// A row of the table as text, column by column (the tests compare them):
// times to 4 digits; rowTitles: the exact times, the cells' titles.
export const rowTexts = (r) => [
  r.name,
  ...TIMES.map((k) => tableTime(r[k])),
  imbalanceText(r.imbalance),
  String(r.slowestRank),
];
export const rowTitles = (r) => [null, ...TIMES.map((k) => exactTime(r[k])), null, null];

export class RanksPanel {
  #client;
  #window;
  #onSelect;
  #onQuery;
  #heatmap;
  #asked = 0; // the query of the rows shown (WindowQuery's number)
  #rows = [];
  #sort = null; // { key, descending }, or null: the core's order (largest max − mean first)
  #selected = null; // the chosen region's frame, or null
  #active = false; // the timeline has more than one rank
  #frames = [];
  #query = null; // { timeline, start, end } of the rows shown

  // onSelect(frame | null): a region was chosen (or let go) in the table.
  // onZoom(start, end): a heatmap cell was chosen.
  // onQuery(query): new rows, or another region chosen (orderQuery).
  constructor(client, { onSelect, onZoom, onQuery }) {
    this.#client = client;
    this.#window = new WindowQuery(client, 'imbalance');
    this.#onSelect = onSelect;
    this.#onQuery = onQuery;
    this.#heatmap = new Heatmap(onZoom);
    sortButtons('tl-imbalance-table', (key) => this.#sortBy(key));
    byId('tl-imbalance').addEventListener('keydown', (e) => this.#rowKey(e));
  }

  // A new timeline (the worker's open reply): the panel, or the note.
  show(info) {
    this.clear();
    this.#frames = info.frames;
    const ranks = new Set(info.lanes.map((l) => l.rank ?? 0));
    this.#active = ranks.size > 1;
    byId('tl-ranks-body').hidden = !this.#active;
    byId('timeline-box').classList.toggle('several-ranks', this.#active);
    byId('tl-ranks-note').textContent = this.#active
      ? ''
      : 'One rank on this timeline: choose All ranks (or several) in Options to compare ranks.';
  }

  clear() {
    this.#window.cancel();
    this.#rows = [];
    this.#selected = null;
    this.#query = null;
    byId('tl-imbalance').replaceChildren();
    byId('tl-ranks-caption').textContent = '';
    byId('tl-ranks-more').textContent = '';
    this.#heatmap.clear();
  }

  // The region the ranks are ordered by (the chosen one, else the table's
  // first row: the widest spread) and the window of the rows shown:
  // { timeline, frame, name, start, end } (frame null: no region), or null.
  get orderQuery() {
    if (!this.#query) return null;
    const frame = this.#selected ?? this.#rows[0]?.frame ?? null;
    return { ...this.#query, frame, name: frame === null ? '' : this.#frames[frame] };
  }

  // Asks for the window's rows soon (as RegionsTable.soon).
  soon(current, window) {
    if (!this.#active) return;
    this.#window.soon(current, window, (reply, w) => this.#show(reply, w));
  }

  #show(reply, { timeline, start, end, asked }) {
    this.#asked = asked;
    this.#rows = reply.rows;
    this.#query = { timeline, start, end };
    stampWindow('tl-imbalance-table', start, end);
    const ranks = reply.rows[0]?.ranks;
    byId('tl-ranks-caption').textContent =
      `From ${exactTime(start)} to ${exactTime(end)}` +
      (ranks
        ? `: each region's covered time (the union of its calls) on ${ranks} ranks, the widest spread first.`
        : ': no call.');
    this.#render();
    if (this.#selected !== null) this.#loadHeatmap(asked);
    this.#onQuery(this.orderQuery);
  }

  async #loadHeatmap(asked) {
    const frame = this.#selected;
    const { timeline, start, end } = this.#query;
    const maxColumns = this.#heatmap.maxColumns;
    const reply = await this.#client.query('aligned', { timeline, frame, start, end, maxColumns });
    if (!this.#window.isNewest(asked) || frame !== this.#selected || reply.type !== 'result') return;
    this.#heatmap.show(reply.grid, this.#frames[frame]);
  }

  #sortBy(key) {
    const same = this.#sort?.key === key;
    this.#sort = { key, descending: same ? !this.#sort.descending : !['name', 'slowestRank'].includes(key) };
    this.#render();
  }

  // Chooses a region (null: none): its row pressed, its heatmap asked for.
  #select(frame) {
    this.#selected = frame;
    this.#onSelect(frame);
    if (frame === null) this.#heatmap.clear();
    this.#mark();
  }

  // A region chosen from elsewhere (a link's view; null: none): marked, its
  // heatmap shown with the window's rows, as a click but not told back.
  select(frame) {
    this.#selected = frame;
    if (frame === null) this.#heatmap.clear();
    this.#mark();
    if (frame !== null && this.#query) this.#loadHeatmap(this.#asked);
  }

  #choose(frame) {
    this.#select(this.#selected === frame ? null : frame);
    if (this.#selected !== null && this.#query) this.#loadHeatmap(this.#asked);
    if (this.#query) this.#onQuery(this.orderQuery);
  }

  #mark() {
    markRows('tl-imbalance', (tr) => Number(tr.dataset.frame) === this.#selected);
  }

  #sorted() {
    if (!this.#sort) return this.#rows;
    const { key, descending } = this.#sort;
    return [...this.#rows].sort((a, b) => {
      const c = key === 'name' ? a.name.localeCompare(b.name) : a[key] - b[key];
      return (descending ? -c : c) || a.frame - b.frame;
    });
  }

  #render() {
    const rows = this.#sorted();
    for (const th of document.querySelectorAll('#tl-imbalance-table th[data-sort]')) {
      const on = th.dataset.sort === this.#sort?.key;
      th.setAttribute('aria-sort', on ? (this.#sort.descending ? 'descending' : 'ascending') : 'none');
    }
    byId('tl-imbalance').replaceChildren(...rows.slice(0, RANK_ROWS).map((r) => this.#row(r)));
    byId('tl-ranks-more').textContent =
      rows.length > RANK_ROWS ? `and ${rows.length - RANK_ROWS} more regions (sort to see others)` : '';
    this.#mark();
  }

  #row(r) {
    const [name, ...numbers] = rowTexts(r);
    const titles = rowTitles(r).slice(1);
    const fields = [...TIMES, 'imbalance', 'slowestRank'];
    const button = regionButton(el, name, `Show ${name} on each rank`, () => this.#choose(r.frame));
    return el(
      'tr',
      { 'data-frame': String(r.frame), onclick: (e) => e.target !== button && this.#choose(r.frame) },
      el('td', { className: 'region' }, button),
      ...numbers.map((text, i) => el('td', { className: 'num', 'data-field': fields[i], text, title: titles[i] })),
    );
  }

  // Up and down move between the rows' buttons.
  #rowKey(e) {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const buttons = [...byId('tl-imbalance').querySelectorAll('button')];
    const i = buttons.indexOf(document.activeElement);
    if (i < 0) return;
    e.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))].focus();
  }
}
