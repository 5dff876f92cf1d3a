// What the side tables of the timeline (Regions, Ranks, the comparison's)
// share: a query of the visible window asked a moment after the view
// settles, of which only the newest answer counts; the region cell of a
// row; the sort buttons of a header; marking the highlighted rows.

const DELAY_MS = 150;
const byId = (id) => document.getElementById(id);

export class WindowQuery {
  #client;
  #type;
  #timer = 0;
  #asked = 0; // bumps with every query, so only the newest answer counts

  // type: the timeline client's query ('regions', 'imbalance', ...).
  constructor(client, type) {
    this.#client = client;
    this.#type = type;
  }

  // Asks for `window()` ({ start, end } whole ns) of the open timeline
  // (current() gives its id then) soon; onReply(reply, { timeline, start,
  // end, asked }) gets the answer when it is still the newest.
  soon(current, window, onReply) {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#ask(current, window(), onReply), DELAY_MS);
  }

  // Drops what is pending: no answer asked before counts any more.
  cancel() {
    clearTimeout(this.#timer);
    this.#asked++;
  }

  // Whether the query numbered `asked` is still the newest.
  isNewest(asked) {
    return asked === this.#asked;
  }

  async #ask(current, { start, end }, onReply) {
    const timeline = current();
    if (timeline === null) return;
    const asked = ++this.#asked;
    const reply = await this.#client.query(this.#type, { timeline, start, end });
    if (asked !== this.#asked || current() !== timeline || reply.type !== 'result') return;
    onReply(reply, { timeline, start, end, asked });
  }
}

// The window a table shows, for the tests (data-window-start/-end).
export function stampWindow(tableId, start, end) {
  const table = byId(tableId);
  table.dataset.windowStart = String(start);
  table.dataset.windowEnd = String(end);
}

// A header's sort buttons (th[data-sort] > button) call sortBy(key).
export function sortButtons(tableId, sortBy) {
  for (const th of document.querySelectorAll(`#${tableId} th[data-sort]`)) {
    th.querySelector('button').addEventListener('click', () => sortBy(th.dataset.sort));
  }
}

// Marks the rows of `tbody` that isOn(tr) says are highlighted.
export function markRows(tbody, isOn) {
  for (const tr of byId(tbody).children) {
    const on = isOn(tr);
    tr.classList.toggle('highlighted', on);
    tr.querySelector('button')?.setAttribute('aria-pressed', String(on));
  }
}

// A row's region: its name as a button.
export function regionButton(el, name, title, onclick) {
  return el('button', { type: 'button', className: 'tl-region', text: name, title, onclick });
}
