// The busy shares the ranks' summary bands draw, asked of the timeline
// worker (the core's tl.busy over a rank's lanes: per pixel, the share of
// its time the lanes' top-level calls cover, averaged over the lanes). As
// the bars (bars-cache.js): the visible window padded by its span on both
// sides, at a power-of-two number of nanoseconds a column, for the ranks
// whose rows are in view; one query in flight, the newest view wins. The
// drawing resamples the columns to the chart's pixels (resample). A hovered
// pixel's share is asked exactly (at), for the view at the chart's width.
// A module without tl.busy answers an error: the bands then stay blank.

import { covers, paddedWindow } from './bars-cache.js';

export class BusyCache {
  #client;
  #timeline = null;
  #maxWidth = 1;
  #cache = null; // { timeline, level, start, end, width, data: Map rank -> Float32Array }
  #inflight = false;
  #unsupported = false;
  #exact = null; // { key, values }: the hovered rank's shares at the view's pixels

  constructor(client) {
    this.#client = client;
  }

  show(timeline, maxWidth) {
    this.#timeline = timeline;
    this.#maxWidth = maxWidth;
    this.#cache = null;
    this.#exact = null;
    this.#inflight = false;
    this.#unsupported = false;
  }

  clear() {
    this.#timeline = null;
    this.#cache = null;
    this.#exact = null;
  }

  // False when the module has no busy query (the bands stay blank).
  get supported() {
    return !this.#unsupported;
  }

  // True when the shares of every one of `rows` ([{ rank }]) are at hand
  // (or never will be).
  has(rows) {
    if (this.#unsupported || !rows.length) return true;
    const c = this.#cache;
    return c !== null && c.timeline === this.#timeline && rows.every((r) => c.data.has(r.rank));
  }

  // Asks for the shares of `rows` ([{ rank, lanes }]) over `view` ({ start,
  // end, runEnd }) at `width` px unless the cache holds them; then arrived().
  ensure(view, rows, width, arrived) {
    if (this.#unsupported || this.#inflight || !rows.length) return;
    const pixels = Math.max(width, 1);
    const c = this.#cache;
    const same = c !== null && c.timeline === this.#timeline && covers(c, view, pixels);
    const missing = same ? rows.filter((r) => !c.data.has(r.rank)) : rows;
    if (!missing.length) return;
    const want = same ? c : paddedWindow(view, pixels, this.#maxWidth);
    this.#inflight = true;
    const timeline = this.#timeline;
    const groups = missing.map((r) => r.lanes);
    this.#client
      .query('busy', { timeline, groups, start: want.start, end: want.end, width: want.width })
      .then((reply) => {
        this.#inflight = false;
        if (this.#timeline !== timeline) return;
        if (reply.type === 'error') this.#unsupported = true;
        if (reply.type !== 'result') return;
        const keep = same && this.#cache === c;
        const data = keep ? c.data : new Map();
        missing.forEach((r, i) => data.set(r.rank, reply.busy[i]));
        if (!keep) this.#cache = { timeline, ...want, data };
        arrived();
      });
  }

  // The shares of `rank` at the `out.length` pixels of `view`, from the
  // cached columns (each pixel the mean of the columns under it, weighted
  // by how much of each it covers; NaN outside them); null without any.
  resample(rank, view, out) {
    const c = this.#cache;
    const values = c?.timeline === this.#timeline ? c.data.get(rank) : null;
    if (!values) return null;
    const perColumn = (c.end - c.start) / c.width;
    const perPixel = (view.end - view.start) / out.length;
    for (let x = 0; x < out.length; x++) {
      const a = Math.max(0, (view.start + x * perPixel - c.start) / perColumn);
      const b = Math.min(c.width, (view.start + (x + 1) * perPixel - c.start) / perColumn);
      if (b <= a) {
        out[x] = NaN;
        continue;
      }
      let sum = 0;
      for (let i = Math.floor(a); i < b; i++) sum += values[i] * (Math.min(b, i + 1) - Math.max(a, i));
      out[x] = sum / (b - a);
    }
    return out;
  }

  // The share of `row`'s ({ rank, lanes }) pixel `pixel` of `view` at
  // `width` px, as the core gives it for that view (one query a rank and
  // view, kept for the next pixels); null when it cannot be had.
  async at(row, view, width, pixel) {
    if (this.#unsupported) return null;
    const timeline = this.#timeline;
    const key = JSON.stringify([timeline, row.rank, view.start, view.end, width]);
    if (this.#exact?.key === key) return this.#exact.values[pixel];
    const { start, end } = view;
    const reply = await this.#client.query('busy', { timeline, groups: [row.lanes], start, end, width });
    if (reply.type !== 'result' || this.#timeline !== timeline) return null;
    this.#exact = { key, values: reply.busy[0] };
    return reply.busy[0][pixel];
  }
}
