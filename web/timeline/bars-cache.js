// The bars the timeline draws, asked of the page's engine (engine-client.js): the
// visible window padded by its width on both sides, at a resolution rounded
// to a power of two of nanoseconds per pixel, so panning and small zooms
// redraw what is cached and a new query goes out only when the view leaves
// it or the resolution changes (one query in flight; the newest view wins).
// Per lane the bars hold the core's columns and `rows` (rows[d] .. rows[d +
// 1]: depth d's items in time order). Comparing two runs lined up at a
// call, run A's lanes are drawn `shift` ns later than their own times: their
// bars are asked for the window moved back by it, and held moved by it (so
// drawing, pointing and keys see one time axis).

// The query for `view` ({ start, end, runEnd }) at `pixels` px: its level
// (log2 of ns a pixel), the window padded by its span on both sides, and the
// width that keeps the level (at most maxWidth). The bars and the busy
// shares (busy-cache.js) are asked for so.
// The view may start before 0 (view.runStart) when run A is drawn earlier.
export function paddedWindow(view, pixels, maxWidth) {
  const span = view.end - view.start;
  const level = Math.floor(Math.log2(span / pixels));
  const nsPerPixel = 2 ** level;
  const start = Math.max(view.runStart ?? 0, Math.floor(view.start - span));
  let end = Math.min(view.runEnd, Math.ceil(view.end + span));
  if (end <= start) end = start + 1;
  const width = Math.max(1, Math.min(maxWidth, Math.ceil((end - start) / nsPerPixel)));
  return { level, start, end, width };
}

// True when a cache of `level` over [start, end) covers `view` at `pixels` px.
export function covers(cache, view, pixels) {
  const level = Math.floor(Math.log2((view.end - view.start) / pixels));
  return cache.level === level && cache.start <= view.start && cache.end >= view.end;
}

// The query of a padded window `want` (paddedWindow's) for lanes whose own
// times are the chart's less `shift`: { start, end, width } in their own
// times, from 0.
export function ownWindow(want, shift, maxWidth) {
  const start = Math.max(0, want.start - shift);
  const end = Math.max(start + 1, want.end - shift);
  const width = Math.max(1, Math.min(maxWidth, Math.ceil((end - start) / 2 ** want.level)));
  return { start, end, width };
}

// A lane's bars moved `shift` ns later (a copy of its times).
function moved(bars, shift) {
  if (!shift) return bars;
  return { ...bars, start: bars.start.map((t) => t + shift), end: bars.end.map((t) => t + shift) };
}

export class BarsCache {
  #client;
  #timeline = null; // the open timeline's id
  #maxWidth = 1; // the widest query (the core's limit)
  #cache = null; // { timeline, shift, level, start, end, data: Map lane -> bars }
  #inflight = false;
  #firstA = Infinity; // comparing: the first lane of run A
  #shift = 0; // ns run A's lanes are drawn later than their own times

  constructor(client) {
    this.#client = client;
  }

  // A newly opened timeline: nothing cached.
  show(timeline, maxWidth) {
    this.#timeline = timeline;
    this.#maxWidth = maxWidth;
    this.#cache = null;
    this.#inflight = false;
    this.#firstA = Infinity;
    this.#shift = 0;
  }

  // Comparing: run A's lanes (from `firstA` on) drawn `shift` ns later.
  align(firstA, shift) {
    this.#firstA = firstA;
    this.#shift = shift;
  }

  clear() {
    this.#timeline = null;
    this.#cache = null;
  }

  // The cached bars of the open timeline, lane -> bars (empty before any).
  get data() {
    return this.#current(this.#cache) ? this.#cache.data : new Map();
  }

  #current(c) {
    return c !== null && c.timeline === this.#timeline && c.shift === this.#shift;
  }

  // True when the cache holds the open timeline's bars of every one of `lanes`.
  has(lanes) {
    const c = this.#cache;
    if (!lanes.length) return true;
    return this.#current(c) && lanes.every((l) => c.data.has(l));
  }

  // Asks for the bars of `view` ({ start, end, runEnd }) on `lanes` at
  // `width` px unless the cache holds them; then arrived() or, when the
  // worker failed, failed(reply).
  ensure(view, lanes, width, { arrived, failed }) {
    const pixels = Math.max(width, 1);
    const cached = this.#cache;
    if (this.#current(cached) && covers(cached, view, pixels) && lanes.every((l) => cached.data.has(l))) return;
    if (this.#inflight || !lanes.length) return;
    const want = paddedWindow(view, pixels, this.#maxWidth);
    this.#inflight = true;
    const timeline = this.#timeline;
    const shift = this.#shift;
    // One query a time axis: B's lanes (and any lane when A is not moved), A's.
    const groups = [lanes.filter((l) => !shift || l < this.#firstA), lanes.filter((l) => shift && l >= this.#firstA)];
    const asked = groups.map((group, g) => {
      if (!group.length) return Promise.resolve({ type: 'result', bars: [] });
      const own = ownWindow(want, g ? shift : 0, this.#maxWidth);
      return this.#client.query('bars', { timeline, lanes: group, ...own });
    });
    Promise.all(asked).then((replies) => {
      this.#inflight = false;
      if (this.#timeline !== timeline || this.#shift !== shift) return;
      const wrong = replies.find((r) => r.type !== 'result');
      if (wrong) {
        if (wrong.type !== 'cancelled') failed(wrong);
        return;
      }
      const data = new Map();
      replies.forEach((reply, g) => {
        for (const b of reply.bars) data.set(b.lane, moved(b, g ? shift : 0));
      });
      this.#cache = { timeline, shift, level: want.level, start: want.start, end: want.end, data };
      arrived();
    });
  }
}
