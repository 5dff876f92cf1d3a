// Paints the ranks' summary bands (draw.js's rank rows) pixel by pixel: each
// device pixel the colour of the busy share there on the busy scale
// (colors.js), or (mode 'region') the colour of the region running there
// (the frame busy-cache.js's band columns give; the band colour where
// none runs). Rows may be thinner than a pixel (a thousand ranks in one
// chart): a pixel row then shows the mean share of the ranks it holds, or
// the first of their regions. counts: after paint(), the CSS pixels each
// frame was drawn on (mode 'region'), for the legend.
// Written into an image (no path per pixel: the cost is the pixels, not the
// shares' changes), then drawn onto the chart.

import { busyLevel, rgbOf } from './colors.js';

// The gap below a rank row (rows of 8 px and more are drawn apart).
export const rowGap = (h) => (h >= 8 ? 1 : 0);

// A colour as the four bytes of a pixel in a Uint32Array over image data.
const LITTLE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const pixelOf = ([r, g, b]) =>
  (LITTLE ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;

export class BusyPainter {
  #canvas = document.createElement('canvas');
  #ctx = this.#canvas.getContext('2d');
  #image = null;
  #pixels = new Uint32Array(0); // over #image's data
  #pool = [];
  #mix = new Float32Array(0);
  #tallies = new Uint32Array(64); // #tally's, per frame (zero between paints)
  #count = new Uint32Array(0);
  #colours = new Uint32Array(0); // the busy scale's levels, as pixels
  #blank = 0; // a share not known yet: the band colour
  #mode = 'busy';
  #frameColours = new Uint32Array(0); // mode 'region': per frame
  counts = new Map(); // mode 'region': frame -> CSS pixels drawn

  // colors: palette()'s.
  setTheme(colors) {
    this.#colours = Uint32Array.from(colors.busy, (c) => pixelOf(c.match(/\d+/g).map(Number)));
    this.#blank = pixelOf(rgbOf(colors.band));
  }

  // mode: 'busy' or 'region'; colours: per frame a CSS colour ('#rrggbb' or
  // 'rgb(r g b)'), for 'region'.
  setMode(mode, colours = []) {
    this.#mode = mode;
    this.#frameColours = Uint32Array.from(colours, (c) =>
      pixelOf(c.startsWith('#') ? rgbOf(c) : c.match(/\d+/g).map(Number)),
    );
  }

  // Paints `rows` ([{ y, h }]: CSS px in the chart, top to bottom) onto `ctx`
  // between `top` and `bottom` CSS px, `width` CSS px wide at `dpr` device
  // pixels a CSS pixel; valuesOf(k, out) writes row k's shares at
  // out.length CSS pixels into out (NaN: not known) and returns it, or null.
  paint(ctx, rows, { width, top, bottom, dpr }, valuesOf) {
    if (!rows.length) return;
    const last = rows[rows.length - 1];
    const d0 = Math.max(Math.floor(top * dpr), Math.floor(rows[0].y * dpr));
    const d1 = Math.min(Math.ceil(bottom * dpr), Math.ceil((last.y + last.h) * dpr));
    if (d1 <= d0) return;
    const W = Math.max(1, Math.round(width));
    const wd = Math.max(1, Math.round(width * dpr));
    this.#imageOf(wd, d1 - d0);
    const pixels = this.#pixels;
    pixels.fill(0);
    this.counts = new Map();
    const values = rows.map((_, k) => valuesOf(k, this.#array(k, W)));
    if (this.#mode === 'region') this.#tally(values, rows, top, bottom);
    let first = 0;
    let lastKey = '';
    let lastAt = -1;
    for (let d = d0; d < d1; d++) {
      const ya = d / dpr;
      const yb = (d + 1) / dpr;
      while (first < rows.length && rows[first].y + rows[first].h <= ya) first++;
      const set = [];
      for (let k = first; k < rows.length && rows[k].y < yb; k++) {
        if (rows[k].y + rows[k].h - rowGap(rows[k].h) > ya) set.push(k);
      }
      if (!set.length) continue;
      const at = (d - d0) * wd;
      const key = set.join();
      if (key === lastKey) pixels.copyWithin(at, lastAt, lastAt + wd);
      else
        this.#fillRow(
          at,
          wd,
          dpr,
          this.#sharesOf(
            set.map((k) => values[k]),
            W,
          ),
        );
      lastKey = key;
      lastAt = at;
    }
    this.#ctx.putImageData(this.#image, 0, 0);
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.#canvas, 0, 0, wd, d1 - d0, 0, d0, wd, d1 - d0);
    ctx.restore();
  }

  // The frames drawn, CSS pixels each, over the rows in [top, bottom), in
  // the order first met (counted in a typed array: a Map's set a pixel was
  // most of a frame's time with 512 ranks in view).
  #tally(values, rows, top, bottom) {
    let tallies = this.#tallies;
    const met = [];
    values.forEach((frames, k) => {
      if (!frames || rows[k].y + rows[k].h <= top || rows[k].y >= bottom) return;
      for (let x = 0; x < frames.length; x++) {
        const f = frames[x];
        if (!(f >= 0)) continue;
        if (f >= tallies.length) {
          const more = new Uint32Array(Math.max(f + 1, 2 * tallies.length));
          more.set(tallies);
          tallies = this.#tallies = more;
        }
        if (tallies[f]++ === 0) met.push(f);
      }
    });
    this.counts = new Map(met.map((f) => [f, tallies[f]]));
    for (const f of met) tallies[f] = 0;
  }

  // The shares of one pixel row: a rank's, or the mean known share of
  // several (NaN where none is known); null without any. Regions: the first
  // rank's.
  #sharesOf(arrays, W) {
    const known = arrays.filter(Boolean);
    if (known.length <= 1 || this.#mode === 'region') return known[0] ?? null;
    if (this.#mix.length !== W) {
      this.#mix = new Float32Array(W);
      this.#count = new Uint32Array(W);
    }
    const mix = this.#mix.fill(0);
    const count = this.#count.fill(0);
    for (const a of known) {
      for (let x = 0; x < W; x++) {
        const v = a[x];
        if (v === v) {
          mix[x] += v;
          count[x]++;
        }
      }
    }
    for (let x = 0; x < W; x++) mix[x] = count[x] ? mix[x] / count[x] : NaN;
    return mix;
  }

  // One device row from `at`: each device pixel the colour of its CSS
  // pixel's share (the band colour where it is not known).
  #fillRow(at, wd, dpr, shares) {
    const pixels = this.#pixels;
    if (!shares) {
      pixels.fill(this.#blank, at, at + wd);
      return;
    }
    const last = shares.length - 1;
    // A device pixel a CSS pixel (the usual screen): no division a pixel.
    const same = dpr === 1 && wd <= shares.length;
    const blank = this.#blank;
    if (this.#mode === 'region') {
      const colours = this.#frameColours;
      for (let xd = 0; xd < wd; xd++) {
        const f = shares[same ? xd : Math.min(last, Math.floor(xd / dpr))];
        pixels[at + xd] = f >= 0 && f < colours.length ? colours[f] : blank;
      }
      return;
    }
    const colours = this.#colours;
    for (let xd = 0; xd < wd; xd++) {
      const v = shares[same ? xd : Math.min(last, Math.floor(xd / dpr))];
      pixels[at + xd] = v === v ? colours[busyLevel(v)] : blank;
    }
  }

  #imageOf(w, h) {
    if (!this.#image || this.#image.width !== w || this.#image.height !== h) {
      this.#canvas.width = w;
      this.#canvas.height = h;
      this.#image = this.#ctx.createImageData(w, h);
      this.#pixels = new Uint32Array(this.#image.data.buffer);
    }
  }

  #array(k, W) {
    if (this.#pool[k]?.length !== W) this.#pool[k] = new Float32Array(W);
    return this.#pool[k];
  }
}
