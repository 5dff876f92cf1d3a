// The busy shares the ranks' summary bands draw, asked of the timeline
// worker (the core's tl.busy over a rank's lanes: per pixel, the share of
// its time the lanes' top-level calls cover, averaged over the lanes). As
// the bars (bars-cache.js): the visible window padded by its span on both
// sides, at a power-of-two number of nanoseconds a column, for the ranks
// whose rows are in view; one query in flight, the newest view wins. The
// drawing resamples the columns to the chart's pixels (resample). A hovered
// pixel's share is asked exactly (at), for the view at the chart's width.
// A module without tl.busy answers an error: the bands then stay blank.
//
// The same cache holds what the bands show by region (kind 'band': the
// core's bandFrames, timeline-band, at `depth` or each rank's own): the
// frame of the pixel at each column; resampled, a pixel takes the column
// holding its middle (a band shows one call a pixel, not a mix), -1 where
// none runs, NaN outside the columns.

import { covers, paddedWindow } from './bars-cache.js';

export class BusyCache {
  #client;
  #kind; // 'busy' or 'band'
  #depth = null; // band: a depth, or null for each rank's own
  depths = new Map(); // band: rank -> the depth its band shows
  #timeline = null;
  #maxWidth = 1;
  #cache = null; // { timeline, level, start, end, width, data: Map rank -> Float32Array }
  #inflight = false;
  #unsupported = false;
  #exact = null; // { key, values }: the hovered rank's shares at the view's pixels
  #plan = null; // #planOf's last

  constructor(client, kind = 'busy') {
    this.#client = client;
    this.#kind = kind;
  }

  // band: the depth the bands show (null: each rank's own); forgets the columns.
  setDepth(depth) {
    if (depth === this.#depth) return;
    this.#depth = depth;
    this.#cache = null;
    this.#exact = null;
    this.depths = new Map();
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
    const depth = this.#depth;
    this.#ask({ timeline, groups, start: want.start, end: want.end, width: want.width, depth }).then((reply) => {
      this.#inflight = false;
      if (this.#timeline !== timeline || this.#depth !== depth) return;
      if (reply.type === 'error') this.#unsupported = true;
      if (reply.type !== 'result') return;
      const keep = same && this.#cache === c;
      const data = keep ? c.data : new Map();
      missing.forEach((r, i) => {
        data.set(r.rank, this.#kind === 'band' ? reply.frames[i] : reply.busy[i]);
        if (this.#kind === 'band') this.depths.set(r.rank, reply.depths[i]);
      });
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
    const { lo, hi, first, last, scale, mid } = this.#planOf(c, view, out.length);
    if (this.#kind === 'band') {
      for (let x = 0; x < out.length; x++) out[x] = mid[x] < 0 ? NaN : values[mid[x]];
      return out;
    }
    for (let x = 0; x < out.length; x++) {
      const i = lo[x];
      const n = hi[x] - i;
      if (n <= 0) {
        out[x] = NaN;
      } else if (n === 1) {
        out[x] = values[i];
      } else {
        let sum = values[i] * first[x] + values[i + n - 1] * last[x];
        for (let k = i + 1; k < i + n - 1; k++) sum += values[k];
        out[x] = sum * scale[x];
      }
    }
    return out;
  }

  // Per pixel of `view` at `width` px, the cache's columns under it, the
  // same for every rank (kept for the frame's ranks): [lo, hi), the weights
  // of the first and the last (how much of them it covers) and 1 / its
  // width in columns.
  #planOf(c, view, width) {
    const p = this.#plan;
    if (p && p.cache === c && p.start === view.start && p.end === view.end && p.lo.length === width) return p;
    const plan = { cache: c, start: view.start, end: view.end, lo: new Int32Array(width), hi: new Int32Array(width) };
    plan.first = new Float32Array(width);
    plan.last = new Float32Array(width);
    plan.scale = new Float32Array(width);
    plan.mid = new Int32Array(width).fill(-1); // the column holding the pixel's middle
    const perColumn = (c.end - c.start) / c.width;
    const perPixel = (view.end - view.start) / width;
    for (let x = 0; x < width; x++) {
      const m = Math.floor((view.start + (x + 0.5) * perPixel - c.start) / perColumn);
      if (m >= 0 && m < c.width) plan.mid[x] = m;
      const a = Math.max(0, (view.start + x * perPixel - c.start) / perColumn);
      const b = Math.min(c.width, (view.start + (x + 1) * perPixel - c.start) / perColumn);
      if (b <= a) continue;
      const i = Math.floor(a);
      const j = Math.ceil(b);
      plan.lo[x] = i;
      plan.hi[x] = j;
      plan.first[x] = Math.min(b, i + 1) - a;
      plan.last[x] = b - Math.max(a, j - 1);
      plan.scale[x] = 1 / (b - a);
    }
    this.#plan = plan;
    return plan;
  }

  // The engine's answer for this cache's kind (timeline-busy or timeline-band).
  #ask(payload) {
    return this.#kind === 'band' ? this.#client.query('band', payload) : this.#client.query('busy', payload);
  }

  // band: the depth `rank`'s band shows (the one asked, else the rank's own
  // as the engine said it); null before it is known.
  depthOf(rank) {
    return this.#depth ?? this.depths.get(rank) ?? null;
  }

  // The share of `row`'s ({ rank, lanes }) pixel `pixel` of `view` at
  // `width` px, as the core gives it for that view (one query a rank and
  // view, kept for the next pixels); null when it cannot be had.
  async at(row, view, width, pixel) {
    if (this.#unsupported) return null;
    const timeline = this.#timeline;
    const key = JSON.stringify([timeline, row.rank, view.start, view.end, width, this.#depth]);
    if (this.#exact?.key === key) return this.#exact.values[pixel];
    const { start, end } = view;
    const depth = this.#depth;
    const reply = await this.#ask({ timeline, groups: [row.lanes], start, end, width, depth });
    if (reply.type !== 'result' || this.#timeline !== timeline || this.#depth !== depth) return null;
    const values = this.#kind === 'band' ? reply.frames[0] : reply.busy[0];
    this.#exact = { key, values, depth: reply.depths?.[0] };
    return values[pixel];
  }
}
