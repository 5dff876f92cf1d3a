// The table of regions over the visible window (#tl-regions-table): calls,
// total and self time per region, the core's regions query (times to 4
// digits, exact in each cell's title), sortable by each column; asked again
// a moment after the window stops changing. A click on a region highlights
// it (the view decides what that means). A region whose file records its
// source shows file:line and its line of code under its name (monospace,
// one line, the whole on hover).

import { el } from '../dom.js';
import { count, exactTime, sourceText, tableTime } from './format.js';
import { WindowQuery, markRows, regionButton, sortButtons, stampWindow } from './window-table.js';

const REGION_ROWS = 200;

const byId = (id) => document.getElementById(id);

// A region's source under its name: file:line and the code, or null.
function sourceLine(frameSource) {
  const source = sourceText(frameSource);
  if (!source) return null;
  const line = el('div', { className: 'source', 'data-field': 'source', title: source.full });
  line.append(el('span', { className: 'where', text: source.where }));
  if (source.text) line.append(el('code', { text: source.text }));
  return line;
}

export class RegionsTable {
  #query;
  #onPick;
  #regions = [];
  #sort = { key: 'total', descending: true };
  #highlight = null; // Uint8Array over frames, or null
  #sources = []; // the open's frameSources: per frame { file, line, text }

  // onPick(frame): a region's button was pressed.
  constructor(client, onPick) {
    this.#query = new WindowQuery(client, 'regions');
    this.#onPick = onPick;
    sortButtons('tl-regions-table', (key) => this.#sortBy(key));
  }

  // Asks for the regions of `window` ({ start, end } whole ns) of the open
  // timeline soon; current() gives the open timeline's id then.
  soon(current, window) {
    this.#query.soon(current, window, (reply, w) => this.#show(reply, w));
  }

  // The open timeline's frameSources (absent: none known).
  setSources(sources) {
    this.#sources = sources ?? [];
  }

  clear() {
    byId('tl-regions').replaceChildren();
    byId('tl-regions-caption').textContent = '';
  }

  // Marks the rows of the highlighted frames (a Uint8Array over frames, or null).
  mark(highlight) {
    this.#highlight = highlight;
    markRows('tl-regions', (tr) => !!highlight?.[Number(tr.dataset.frame)]);
  }

  #show(reply, { start, end }) {
    this.#regions = reply.regions;
    stampWindow('tl-regions-table', start, end);
    const calls = reply.regions.reduce((n, r) => n + r.calls, 0);
    byId('tl-regions-caption').textContent =
      `Regions from ${exactTime(start)} to ${exactTime(end)}: ` + `${count(calls)} ${calls === 1 ? 'call' : 'calls'}`;
    this.#render();
  }

  #sortBy(key) {
    this.#sort = { key, descending: this.#sort.key === key ? !this.#sort.descending : key !== 'name' };
    this.#render();
  }

  #render() {
    const { key, descending } = this.#sort;
    const rows = [...this.#regions].sort((a, b) => {
      const c = key === 'name' ? a.name.localeCompare(b.name) : a[key] - b[key];
      return (descending ? -c : c) || a.frame - b.frame;
    });
    for (const th of document.querySelectorAll('#tl-regions-table th[data-sort]')) {
      th.setAttribute('aria-sort', th.dataset.sort === key ? (descending ? 'descending' : 'ascending') : 'none');
    }
    byId('tl-regions').replaceChildren(
      ...rows.slice(0, REGION_ROWS).map((r) =>
        el(
          'tr',
          { 'data-frame': String(r.frame) },
          el(
            'td',
            { className: 'region' },
            regionButton(el, r.name, `Highlight ${r.name}`, () => this.#onPick(r.frame)),
            sourceLine(this.#sources[r.frame]),
          ),
          el('td', { className: 'num', 'data-field': 'calls', text: count(r.calls) }),
          el('td', { className: 'num', 'data-field': 'total', text: tableTime(r.total), title: exactTime(r.total) }),
          el('td', { className: 'num', 'data-field': 'self', text: tableTime(r.self), title: exactTime(r.self) }),
        ),
      ),
    );
    byId('tl-regions-more').textContent =
      rows.length > REGION_ROWS ? `and ${count(rows.length - REGION_ROWS)} more regions (sort to see others)` : '';
    this.mark(this.#highlight);
  }
}
