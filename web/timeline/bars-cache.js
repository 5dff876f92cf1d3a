// The bars the timeline draws, asked of the page's engine (engine-client.js): the
// visible window padded by its width on both sides, at a resolution rounded
// to a power of two of nanoseconds per pixel, so panning and small zooms
// redraw what is cached and a new query goes out only when the view leaves
// it or the resolution changes (one query in flight; the newest view wins).
// Per lane the bars hold the core's columns and `rows` (rows[d] .. rows[d +
// 1]: depth d's items in time order).

// The query for `view` ({ start, end, runEnd }) at `pixels` px: its level
// (log2 of ns a pixel), the window padded by its span on both sides, and the
// width that keeps the level (at most maxWidth). The bars and the busy
// shares (busy-cache.js) are asked for so.
export function paddedWindow(view, pixels, maxWidth) {
  const span = view.end - view.start;
  const level = Math.floor(Math.log2(span / pixels));
  const nsPerPixel = 2 ** level;
  const start = Math.max(0, Math.floor(view.start - span));
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

export class BarsCache {
  #client;
  #timeline = null; // the open timeline's id
  #maxWidth = 1; // the widest query (the core's limit)
  #cache = null; // { timeline, level, start, end, data: Map lane -> bars }
  #inflight = false;

  constructor(client) {
    this.#client = client;
  }

  // A newly opened timeline: nothing cached.
  show(timeline, maxWidth) {
    this.#timeline = timeline;
    this.#maxWidth = maxWidth;
    this.#cache = null;
    this.#inflight = false;
  }

  clear() {
    this.#timeline = null;
    this.#cache = null;
  }

  // The cached bars of the open timeline, lane -> bars (empty before any).
  get data() {
    return this.#cache?.timeline === this.#timeline ? this.#cache.data : new Map();
  }

  // True when the cache holds the open timeline's bars of every one of `lanes`.
  has(lanes) {
    const c = this.#cache;
    if (!lanes.length) return true;
    return c !== null && c.timeline === this.#timeline && lanes.every((l) => c.data.has(l));
  }

  // Asks for the bars of `view` ({ start, end, runEnd }) on `lanes` at
  // `width` px unless the cache holds them; then arrived() or, when the
  // worker failed, failed(reply).
  ensure(view, lanes, width, { arrived, failed }) {
    const pixels = Math.max(width, 1);
    const cached = this.#cache;
    if (
      cached &&
      cached.timeline === this.#timeline &&
      covers(cached, view, pixels) &&
      lanes.every((l) => cached.data.has(l))
    )
      return;
    if (this.#inflight || !lanes.length) return;
    const want = paddedWindow(view, pixels, this.#maxWidth);
    this.#inflight = true;
    const timeline = this.#timeline;
    this.#client
      .query('bars', { timeline, lanes, start: want.start, end: want.end, width: want.width })
      .then((reply) => {
        this.#inflight = false;
        if (this.#timeline !== timeline) return;
        if (reply.type !== 'result') {
          if (reply.type !== 'cancelled') failed(reply);
          return;
        }
        this.#cache = {
          timeline,
          level: want.level,
          start: want.start,
          end: want.end,
          data: new Map(reply.bars.map((b) => [b.lane, b])),
        };
        arrived();
      });
  }
}
