// Two runs compared (the worker's timeline-compare-open): the regions of the
// visible window in run A (the baseline) and run B side by side
// (#tl-compare-table: A, B, Δ and Δ % of each region's total or self time:
// the core's rows of the window, RunComparison.regionsIn, which over the
// whole run are diff's; times to 4 digits, exact in the cells' titles), sortable by each column, largest Δ first; asked
// again a moment after the window stops changing. And the bar above the
// chart: which runs, the ratio scale's legend. Pure functions (sortedRows,
// rowTexts) for the tests.

import { el } from '../dom.js';
import { drawRatioScale } from './draw.js';
import { count, exactTime, tableTime } from './format.js';
import { WindowQuery, markRows, regionButton, sortButtons, stampWindow } from './window-table.js';

const COMPARE_ROWS = 200;
const byId = (id) => document.getElementById(id);

// A core row's change in `metric` ('total' or 'self'): [Δ ns, Δ % or null].
const deltaOf = (row, metric) =>
  metric === 'self' ? [row.deltaSelf, row.deltaSelfPct] : [row.deltaTotal, row.deltaTotalPct];

// The core's rows (in its order: largest Δ self first, then by name) sorted
// by a column of the table showing `metric`: 'delta' descending, stable, is
// the core's order for self and by Δ total for total.
export function sortedRows(rows, metric = 'total', sort = { key: 'delta', descending: true }) {
  const { key, descending } = sort;
  const value = {
    a: (r) => r.a[metric],
    b: (r) => r.b[metric],
    delta: (r) => deltaOf(r, metric)[0],
    pct: (r) => deltaOf(r, metric)[1] ?? Infinity,
  };
  return [...rows].sort((x, y) => {
    const c = key === 'name' ? x.name.localeCompare(y.name) : value[key](x) - value[key](y) || 0;
    return descending ? -c : c;
  });
}

const signed = (ns, time) => (ns > 0 ? `+${time(ns)}` : time(ns));

// A row as the table shows it: [name, A, B, Δ, Δ %], times to 4 digits.
export function rowTexts(row, metric = 'total') {
  const [delta, p] = deltaOf(row, metric);
  const pct = p === null ? (row.b.calls ? 'new in B' : '—') : `${p > 0 ? '+' : ''}${p.toFixed(1)} %`;
  return [row.name, tableTime(row.a[metric]), tableTime(row.b[metric]), signed(delta, tableTime), pct];
}

// The exact times of a row, the cells' titles: [A, B, Δ].
export function rowTitles(row, metric = 'total') {
  return [exactTime(row.a[metric]), exactTime(row.b[metric]), signed(deltaOf(row, metric)[0], exactTime)];
}

export class CompareTable {
  #query;
  #onPick;
  #rows = null; // the core's rows of the window
  #sort = { key: 'delta', descending: true };
  #dark = false;
  #frames = new Map(); // region name -> frame of the comparison
  #highlight = null; // Uint8Array over frames, or null

  // onPick(name): a region's button was pressed.
  constructor(client, onPick) {
    this.#query = new WindowQuery(client, 'compare-regions');
    this.#onPick = onPick;
    sortButtons('tl-compare-table', (key) => this.#sortBy(key));
    byId('tl-compare-metric').addEventListener('change', () => this.#render());
  }

  // A comparison shown (info: the worker's reply, with fileName and baselineName).
  show(info) {
    byId('tl-comparebar').hidden = false;
    byId('tl-compare').hidden = false;
    this.#frames = new Map(info.frames.map((name, i) => [name, i]));
    this.#highlight = null;
    byId('tl-compare-runs').textContent = `${info.fileName} (B) against ${info.baselineName} (A)`;
    this.theme(this.#dark);
  }

  clear() {
    this.#query.cancel();
    this.#rows = null;
    byId('tl-comparebar').hidden = true;
    byId('tl-compare').hidden = true;
    byId('tl-compare-rows').replaceChildren();
    byId('tl-compare-caption').textContent = '';
  }

  // Marks the rows of the highlighted frames (a Uint8Array over frames, or null).
  mark(highlight) {
    this.#highlight = highlight;
    markRows('tl-compare-rows', (tr) => !!highlight?.[this.#frames.get(tr.dataset.name)]);
  }

  // The legend in the colour scheme (dark: true).
  theme(dark) {
    this.#dark = dark;
    if (!byId('tl-comparebar').hidden) drawRatioScale(byId('tl-ratio-scale'), dark);
  }

  // Asks for the regions of `window` of the open comparison soon.
  soon(current, window) {
    this.#query.soon(current, window, (reply, w) => this.#show(reply, w));
  }

  #show(reply, { start, end }) {
    this.#rows = reply.rows;
    stampWindow('tl-compare-table', start, end);
    byId('tl-compare-caption').textContent =
      `From ${exactTime(start)} to ${exactTime(end)} of each run, each from its own start`;
    this.#render();
  }

  #sortBy(key) {
    this.#sort = { key, descending: this.#sort.key === key ? !this.#sort.descending : key !== 'name' };
    this.#render();
  }

  #render() {
    if (!this.#rows) return;
    const metric = byId('tl-compare-metric').value;
    const rows = sortedRows(this.#rows, metric, this.#sort);
    const { key, descending } = this.#sort;
    for (const th of document.querySelectorAll('#tl-compare-table th[data-sort]')) {
      th.setAttribute('aria-sort', th.dataset.sort === key ? (descending ? 'descending' : 'ascending') : 'none');
    }
    const fields = ['a', 'b', 'delta', 'pct'];
    byId('tl-compare-rows').replaceChildren(
      ...rows.slice(0, COMPARE_ROWS).map((r) => {
        const texts = rowTexts(r, metric);
        const titles = rowTitles(r, metric);
        const delta = deltaOf(r, metric)[0];
        const change = delta > 0 ? 'slower' : delta < 0 ? 'faster' : 'same';
        return el(
          'tr',
          { 'data-name': r.name, 'data-change': change },
          el(
            'td',
            { className: 'region' },
            regionButton(el, r.name, `Highlight ${r.name}`, () => this.#onPick(r.name)),
          ),
          ...fields.map((f, i) =>
            el('td', { className: `num ${f}`, 'data-field': f, text: texts[i + 1], title: titles[i] }),
          ),
        );
      }),
    );
    byId('tl-compare-more').textContent =
      rows.length > COMPARE_ROWS ? `and ${count(rows.length - COMPARE_ROWS)} more regions (sort to see others)` : '';
    this.mark(this.#highlight);
  }
}
