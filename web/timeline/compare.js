// Two runs compared (the worker's timeline-compare-open): the regions of the
// visible window in run A (the baseline) and run B side by side
// (#tl-compare-table: A, B, Δ and Δ % of each region's total or self time,
// each run's regions() of the window from its own origin, joined by name),
// sortable by each column, largest Δ first; asked again a moment after the
// window stops changing. And the bar above the chart: which runs, the ratio
// scale's legend. Pure functions (compareRows, rowTexts) for the tests.

import { el } from '../dom.js';
import { drawRatioScale } from './draw.js';
import { count, exactTime } from './format.js';
import { WindowQuery, markRows, regionButton, sortButtons, stampWindow } from './window-table.js';

const COMPARE_ROWS = 200;
const NONE = { calls: 0, total: 0, self: 0 };

const byId = (id) => document.getElementById(id);

// Each run's regions of a window ([{ name, calls, total, self }]) joined by
// name: [{ name, a, b, delta, pct }] with `metric` ('total' or 'self'): delta
// = b - a, pct = 100 × delta / a (null when a is 0); largest delta first,
// then by name.
export function compareRows(a, b, metric = 'total') {
  const byName = new Map();
  for (const r of a) byName.set(r.name, { name: r.name, a: r, b: NONE });
  for (const r of b) byName.set(r.name, { name: r.name, a: byName.get(r.name)?.a ?? NONE, b: r });
  const rows = [...byName.values()].map((r) => {
    const delta = r.b[metric] - r.a[metric];
    return { ...r, delta, pct: r.a[metric] ? (100 * delta) / r.a[metric] : null };
  });
  return rows.sort((x, y) => y.delta - x.delta || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
}

const signed = (ns) => (ns > 0 ? `+${exactTime(ns)}` : exactTime(ns));

// A row as the table shows it: [name, A, B, Δ, Δ %].
export function rowTexts(row, metric = 'total') {
  const pct = row.pct === null ? (row.b.calls ? 'new in B' : '—') : `${row.pct > 0 ? '+' : ''}${row.pct.toFixed(1)} %`;
  return [row.name, exactTime(row.a[metric]), exactTime(row.b[metric]), signed(row.delta), pct];
}

export class CompareTable {
  #query;
  #onPick;
  #replies = null; // { a, b } regions of the window
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
    this.#replies = null;
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
    this.#replies = { a: reply.a, b: reply.b };
    stampWindow('tl-compare-table', start, end);
    byId('tl-compare-caption').textContent =
      `From ${exactTime(start)} to ${exactTime(end)} of each run, each from its own start`;
    this.#render();
  }

  #sortBy(key) {
    this.#sort = { key, descending: this.#sort.key === key ? !this.#sort.descending : key !== 'name' };
    this.#render();
  }

  #sorted(metric) {
    const rows = compareRows(this.#replies.a, this.#replies.b, metric);
    const { key, descending } = this.#sort;
    const value = { name: null, a: (r) => r.a[metric], b: (r) => r.b[metric], delta: (r) => r.delta };
    value.pct = (r) => r.pct ?? Infinity;
    if (key === 'delta' && descending) return rows;
    const sorted = rows.sort((x, y) => {
      const c = key === 'name' ? x.name.localeCompare(y.name) : value[key](x) - value[key](y) || 0;
      return descending ? -c : c;
    });
    return sorted;
  }

  #render() {
    if (!this.#replies) return;
    const metric = byId('tl-compare-metric').value;
    const rows = this.#sorted(metric);
    const { key, descending } = this.#sort;
    for (const th of document.querySelectorAll('#tl-compare-table th[data-sort]')) {
      th.setAttribute('aria-sort', th.dataset.sort === key ? (descending ? 'descending' : 'ascending') : 'none');
    }
    const fields = ['a', 'b', 'delta', 'pct'];
    byId('tl-compare-rows').replaceChildren(
      ...rows.slice(0, COMPARE_ROWS).map((r) => {
        const texts = rowTexts(r, metric);
        const change = r.delta > 0 ? 'slower' : r.delta < 0 ? 'faster' : 'same';
        return el(
          'tr',
          { 'data-name': r.name, 'data-change': change },
          el(
            'td',
            { className: 'region' },
            regionButton(el, r.name, `Highlight ${r.name}`, () => this.#onPick(r.name)),
          ),
          ...fields.map((f, i) => el('td', { className: `num ${f}`, 'data-field': f, text: texts[i + 1] })),
        );
      }),
    );
    byId('tl-compare-more').textContent =
      rows.length > COMPARE_ROWS ? `and ${count(rows.length - COMPARE_ROWS)} more regions (sort to see others)` : '';
    this.mark(this.#highlight);
  }
}
