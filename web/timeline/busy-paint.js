// Paints the ranks' summary bands (draw.js's rank rows) pixel by pixel: each
// device pixel the colour of the busy share there on the busy scale
// (colors.js). Rows may be thinner than a pixel (a thousand ranks in one
// chart): a pixel row then shows the mean share of the ranks it holds.
// Written into an image (no path per pixel: the cost is the pixels, not the
// shares' changes), then drawn onto the chart.

import { busyLevel, rgbOf } from './colors.js';

// The gap below a rank row (rows of 8 px and more are drawn apart).
export const rowGap = (h) => (h >= 8 ? 1 : 0);

export class BusyPainter {
  #canvas = document.createElement('canvas');
  #ctx = this.#canvas.getContext('2d');
  #image = null;
  #pool = [];
  #rgb = new Uint8Array(0); // the busy scale's levels, 3 bytes each
  #blank = [0, 0, 0]; // a share not known yet: the band colour

  // colors: palette()'s.
  setTheme(colors) {
    this.#rgb = Uint8Array.from(colors.busy.flatMap((c) => c.match(/\d+/g).map(Number)));
    this.#blank = rgbOf(colors.band);
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
    const data = this.#imageOf(wd, d1 - d0).data;
    data.fill(0);
    const values = rows.map((_, k) => valuesOf(k, this.#array(k, W)));
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
      const at = (d - d0) * wd * 4;
      const key = set.join();
      if (key === lastKey) data.copyWithin(at, lastAt, lastAt + wd * 4);
      else
        this.#fillRow(
          data,
          at,
          wd,
          dpr,
          W,
          set.map((k) => values[k]),
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

  // One device row: per device pixel, the mean known share of `arrays` there.
  #fillRow(data, at, wd, dpr, W, arrays) {
    const rgb = this.#rgb;
    for (let xd = 0; xd < wd; xd++) {
      const x = Math.min(W - 1, Math.floor(xd / dpr));
      let sum = 0;
      let n = 0;
      for (const a of arrays) {
        const v = a ? a[x] : NaN;
        if (v === v) {
          sum += v;
          n++;
        }
      }
      const o = at + xd * 4;
      const l = n ? busyLevel(sum / n) * 3 : -1;
      data[o] = l < 0 ? this.#blank[0] : rgb[l];
      data[o + 1] = l < 0 ? this.#blank[1] : rgb[l + 1];
      data[o + 2] = l < 0 ? this.#blank[2] : rgb[l + 2];
      data[o + 3] = 255;
    }
  }

  #imageOf(w, h) {
    if (!this.#image || this.#image.width !== w || this.#image.height !== h) {
      this.#canvas.width = w;
      this.#canvas.height = h;
      this.#image = this.#ctx.createImageData(w, h);
    }
    return this.#image;
  }

  #array(k, W) {
    if (this.#pool[k]?.length !== W) this.#pool[k] = new Float32Array(W);
    return this.#pool[k];
  }
}
