// Draws the timeline on a canvas (2D): the time axis on top, then one band
// per lane (a header with the lane's name, then one row per depth), calls as
// bars coloured by region name with their names inside when they fit,
// merged blocks (calls too short to draw apart) grey and hatched (comparing
// two runs, B's bars by their ratio to A's instead: colors.js; A's bars in
// their region colours, a call without a partner in B hatched as B's
// without one in A, and A's merged blocks never hatched: their region's
// colour, or plain grey for several regions); with
// several ranks, a row per rank above its lanes (or alone, collapsed): its
// label, and its busy share pixel by pixel on the busy scale. The work
// per frame is the bars the core returned for the view (at most about two a
// pixel per row) that fall into it, found by binary search: never the calls.
// Rects are filled per colour to keep state changes few, on whole pixels.

import { BusyPainter, rowGap } from './busy-paint.js';
import { BUSY_LEVELS, HUES, RATIO_LEVELS, busyColour, palette, ratioColour, ratioLevel } from './colors.js';
import { tickLabel, ticks } from './format.js';

export const AXIS_H = 26;
export const HEADER_H = 22;
export const ROW_H = 18;
export const BAND_GAP = 6;
export const RANK_H = 16; // a rank's row, when the chart has room for every rank at it
export const MIN_RANK_H = 0.25; // thinner rank rows (4 ranks a pixel) leave the chart to scroll
const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif';
const LABEL_MIN_PX = 24;

// First index in [lo, hi) whose end is after t (a zero-length call covers the
// nanosecond at its start, so it counts as ending 1 ns later).
export function firstEndingAfter(bars, t, lo, hi) {
  const { start, end } = bars;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (Math.max(end[mid], start[mid] + 1) > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// The width of a rank row's label (what a click toggles), in px.
export const rankLabelWidth = (rank) => 44 + 7 * String(rank).length;

// Rank rows `h` px high are labelled every `every` rows (each row from 10
// px on, else every 12 px), the label `height` px high from its row's top.
export function rankLabels(h) {
  const every = h >= 10 ? 1 : Math.ceil(12 / h);
  return { every, height: Math.max(h - rowGap(h), Math.min(12, h * every)) };
}

// A colour scale as a legend, on a small canvas (CSS px wide and high):
// colourAt(x, 0 at the left to 1 at the right) pixel column by column.
function drawScale(canvas, dark, colourAt) {
  const w = canvas.clientWidth || canvas.width;
  const h = canvas.clientHeight || canvas.height;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  for (let x = 0; x < w; x++) {
    ctx.fillStyle = colourAt(x / Math.max(1, w - 1));
    ctx.fillRect(x, 0, 1, h);
  }
  ctx.strokeStyle = dark ? '#a7b0bd' : '#596170';
  ctx.strokeRect(0.5, 0.5, w - 1, h - 1);
}

// The busy scale as a legend: idle at the left, busy at the right.
export function drawBusyScale(canvas, dark) {
  drawScale(canvas, dark, (f) => busyColour(Math.round(f * BUSY_LEVELS) / BUSY_LEVELS, dark));
}

// The ratio scale as a legend: ×RATIO_MIN at the left, ×1 in the middle,
// ×RATIO_MAX at the right.
export function drawRatioScale(canvas, dark) {
  drawScale(canvas, dark, (f) => ratioColour(Math.round(f * (RATIO_LEVELS - 1)), dark));
}

// A 6 px tile of diagonal stripes: `stripe` over `base`.
export function stripes(base, stripe) {
  const tile = document.createElement('canvas');
  tile.width = 6;
  tile.height = 6;
  const t = tile.getContext('2d');
  t.fillStyle = base;
  t.fillRect(0, 0, 6, 6);
  t.strokeStyle = stripe;
  t.lineWidth = 1.5;
  t.beginPath();
  t.moveTo(-1, 7);
  t.lineTo(7, -1);
  t.moveTo(5, 7);
  t.lineTo(7, 5);
  t.moveTo(-1, 1);
  t.lineTo(1, -1);
  t.stroke();
  return tile;
}

export class Renderer {
  #canvas;
  #ctx;
  #width = 0;
  #height = 0;
  #dpr = 1;
  #colors = null;
  #pattern = null;
  #widths = new Map(); // name -> text width
  #charWidth = 6;
  #fills = Array.from({ length: HUES }, () => []);
  #faded = Array.from({ length: HUES }, () => []);
  #merged = [];
  #mergedPlain = [];
  #ratio = Array.from({ length: RATIO_LEVELS }, () => []);
  #noPartner = [];
  #noPartnerPattern = null;
  #labels = [];
  #busy = new BusyPainter();
  #regionKey = { hue: null, colors: null }; // what the painter's region colours were made of

  constructor(canvas) {
    this.#canvas = canvas;
    this.#ctx = canvas.getContext('2d', { alpha: false });
    this.setTheme(false);
  }

  get width() {
    return this.#width;
  }
  get height() {
    return this.#height;
  }

  // The frames the rank rows showed at the last draw (bands by region):
  // frame -> CSS pixels.
  get bandCounts() {
    return this.#busy.counts;
  }

  setTheme(dark) {
    this.#colors = palette(dark);
    this.#busy.setTheme(this.#colors);
    const c = this.#colors;
    this.#pattern = this.#ctx.createPattern(stripes(c.merged, c.mergedStripe), 'repeat');
    this.#noPartnerPattern = this.#ctx.createPattern(stripes(c.noPartner, c.noPartnerStripe), 'repeat');
  }

  resize(width, height, dpr) {
    this.#width = width;
    this.#height = height;
    this.#dpr = dpr;
    this.#canvas.width = Math.max(1, Math.round(width * dpr));
    this.#canvas.height = Math.max(1, Math.round(height * dpr));
    this.#ctx.font = FONT;
    this.#charWidth = this.#ctx.measureText('dbpqaouk').width / 8 || 6;
    this.#widths.clear();
  }

  #textWidth(name) {
    let w = this.#widths.get(name);
    if (w === undefined) {
      w = this.#ctx.measureText(name).width;
      this.#widths.set(name, w);
    }
    return w;
  }

  // The text that fits in `room` px, or null.
  #fit(name, room) {
    if (room < LABEL_MIN_PX) return null;
    const full = this.#textWidth(name);
    if (full <= room) return name;
    const per = full / Math.max(name.length, 1);
    const chars = Math.floor(room / per) - 1;
    if (chars < 2) return null;
    return `${name.slice(0, chars)}…`;
  }

  // scene: { view: { start, end }, scrollY, bands, ranks (rank rows, bands.js), data (lane -> bars),
  //          busyOf(rank, out) (its shares at out.length pixels, or null;
  //          bandMode 'region': its frames), bandMode ('busy' or 'region'), frames,
  //          firstA (comparing: the first lane of run A, else Infinity),
  //          hue (frame -> hue index), highlight (Uint8Array or null),
  //          hover, focus, selected (items), hoverRank (a rank row or null),
  //          range ({ a, b } ns or null), focused (chart has focus) }
  draw(scene) {
    const ctx = this.#ctx;
    const { view } = scene;
    const W = this.#width;
    const H = this.#height;
    const pxPerNs = W / (view.end - view.start);
    const geometry = { W, H, xOf: (t) => (t - view.start) * pxPerNs, ticks: ticks(view.start, view.end, W) };
    ctx.setTransform(this.#dpr, 0, 0, this.#dpr, 0, 0);
    ctx.fillStyle = this.#colors.background;
    ctx.fillRect(0, 0, W, H);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    // Grid lines under everything.
    ctx.fillStyle = this.#colors.grid;
    for (let t = geometry.ticks.first; t <= view.end; t += geometry.ticks.step) {
      ctx.fillRect(Math.round(geometry.xOf(t)), AXIS_H, 1, H - AXIS_H);
    }

    for (const list of this.#fills) list.length = 0;
    for (const list of this.#faded) list.length = 0;
    for (const list of this.#ratio) list.length = 0;
    this.#merged.length = 0;
    this.#mergedPlain.length = 0;
    this.#noPartner.length = 0;
    this.#labels.length = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, AXIS_H, W, H - AXIS_H);
    ctx.clip();
    for (const band of scene.bands) this.#band(band, scene, geometry);
    this.#rankRows(scene, geometry);
    this.#paintGathered(scene);
    this.#outlines(scene, geometry);
    this.#range(scene, geometry, AXIS_H, H - AXIS_H);
    ctx.restore();
    this.#axis(scene, geometry);
  }

  // The rank rows in view: the busy shares (busy-paint.js), then the labels
  // (rankLabels), the hovered row outlined.
  #rankRows(scene, geometry) {
    const ranks = scene.ranks ?? [];
    const inView = [];
    ranks.forEach((row, i) => {
      const top = AXIS_H + row.top - scene.scrollY;
      if (top < geometry.H && top + row.height > AXIS_H) inView.push(i);
    });
    if (!inView.length) return;
    const rows = inView.map((i) => ({ y: AXIS_H + ranks[i].top - scene.scrollY, h: ranks[i].height }));
    const area = { width: geometry.W, top: AXIS_H, bottom: geometry.H, dpr: this.#dpr };
    if (scene.bandMode === 'region') {
      if (this.#regionKey.hue !== scene.hue || this.#regionKey.colors !== this.#colors) {
        this.#regionKey = { hue: scene.hue, colors: this.#colors };
        this.#busy.setMode(
          'region',
          Array.from(scene.hue, (h) => this.#colors.fillRgb[h]),
        );
      }
    } else if (this.#regionKey.hue !== null) {
      this.#regionKey = { hue: null, colors: null };
      this.#busy.setMode('busy');
    }
    this.#busy.paint(this.#ctx, rows, area, (k, out) => scene.busyOf(ranks[inView[k]].rank, out));
    const { every, height: lh } = rankLabels(ranks[inView[0]].height);
    const ctx = this.#ctx;
    ctx.font = `${Math.min(11, Math.max(9, lh - 4))}px ${FONT.slice(FONT.indexOf(' ') + 1)}`;
    for (const i of inView) {
      if (i % every) continue;
      const top = AXIS_H + ranks[i].top - scene.scrollY;
      ctx.fillStyle = this.#colors.band;
      ctx.fillRect(0, top, rankLabelWidth(ranks[i].rank), lh);
      ctx.fillStyle = this.#colors.bandText;
      ctx.fillText(`${ranks[i].collapsed ? '▸' : '▾'} rank ${ranks[i].rank}`, 4, top + lh / 2);
    }
    ctx.font = FONT;
    const hovered = scene.hoverRank && ranks.find((r) => r.rank === scene.hoverRank.rank);
    if (hovered) {
      const top = AXIS_H + hovered.top - scene.scrollY;
      ctx.strokeStyle = this.#colors.bandText;
      ctx.lineWidth = 1;
      ctx.strokeRect(0.5, Math.round(top) + 0.5, geometry.W - 1, Math.max(1, Math.round(hovered.height) - 2));
    }
  }

  // One band: its header, and its rows' bars gathered by colour (drawn by #paintGathered).
  #band(band, scene, geometry) {
    const ctx = this.#ctx;
    const colors = this.#colors;
    const top = AXIS_H + band.top - scene.scrollY;
    if (band.hidden || top > geometry.H || top + band.height < AXIS_H) return;
    // The header: the lane's name, and whether it is open.
    ctx.fillStyle = colors.band;
    ctx.fillRect(0, top, geometry.W, HEADER_H);
    ctx.fillStyle = colors.bandText;
    ctx.fillText(`${band.collapsed ? '▸' : '▾'} ${band.name}`, 6, top + HEADER_H / 2);
    if (band.collapsed) return;
    const bars = scene.data.get(band.lane);
    if (!bars) return;
    const rowsTop = top + HEADER_H;
    const first = Math.max(0, Math.floor((AXIS_H - rowsTop) / ROW_H));
    const last = Math.min(band.depths - 1, Math.floor((geometry.H - rowsTop) / ROW_H));
    for (let d = first; d <= last; d++) {
      if (bars.rows[d] !== bars.rows[d + 1])
        this.#row(bars, d, Math.round(rowsTop + d * ROW_H), scene, geometry, band.lane >= scene.firstA);
    }
  }

  // The bars of depth `d` in view, on the row at `y` px (ofA: of run A, compared).
  #row(bars, d, y, scene, geometry, ofA = false) {
    const { W, xOf } = geometry;
    const hi = bars.rows[d + 1];
    let lastX = -Infinity;
    for (
      let i = firstEndingAfter(bars, scene.view.start, bars.rows[d], hi);
      i < hi && bars.start[i] < scene.view.end;
      i++
    ) {
      let x0 = xOf(bars.start[i]);
      let x1 = xOf(Math.max(bars.end[i], bars.start[i] + 1));
      if (x1 <= lastX) continue; // inside a pixel already drawn on this row
      if (x0 < lastX) x0 = lastX;
      if (x0 < -2) x0 = -2;
      if (x1 > W + 2) x1 = W + 2;
      const w = x1 - x0;
      lastX = x0 + Math.max(w, 1);
      // Whole pixels: a rect on pixel edges fills without anti-aliasing,
      // which is what keeps a software-rastered canvas fast (a path of
      // fractional rects cost 20-70 ms a frame at 20 M calls). Bars wider
      // than 3 px keep a 1 px gap before the next.
      const px0 = Math.round(x0);
      const px1 = Math.round(x0 + w) - (w > 3 ? 1 : 0);
      const drawn = px1 > px0 ? px1 - px0 : 1;
      const frame = bars.frame[i];
      const faded = !!scene.highlight && !scene.highlight[frame];
      if (ofA) {
        this.#barOfA(bars, i, faded, scene, [px0, y, drawn]);
        if (bars.count[i] === 1 && w >= LABEL_MIN_PX)
          this.#labels.push(frame, Math.max(x0, 0), Math.min(x1, W), y, +faded);
        continue;
      }
      // Comparing: B's bars by their ratio (-1: no partner in A), unless faded.
      const level = bars.ratio && !faded ? ratioLevel(bars.ratio[i]) : null;
      if (bars.count[i] > 1) {
        (level >= 0 && level !== null ? this.#ratio[level] : this.#merged).push(px0, y, drawn);
        continue;
      }
      let style = faded ? 1 : 0; // the label's: text, faded text, or on ratio level style - 2
      if (level === null) (faded ? this.#faded : this.#fills)[scene.hue[frame]].push(px0, y, drawn);
      else if (level < 0) this.#noPartner.push(px0, y, drawn);
      else {
        this.#ratio[level].push(px0, y, drawn);
        style = level + 2;
      }
      if (w >= LABEL_MIN_PX) this.#labels.push(frame, Math.max(x0, 0), Math.min(x1, W), y, style);
    }
  }

  // A bar of run A compared (rect: [x, y, width]): its region's colour; a
  // call without a partner in B (ratio NaN) hatched; a merged block never
  // hatched (its region's colour, plain grey for several).
  #barOfA(bars, i, faded, scene, rect) {
    const frame = bars.frame[i];
    const hues = faded ? this.#faded : this.#fills;
    if (bars.count[i] > 1) (frame >= 0 ? hues[scene.hue[frame]] : this.#mergedPlain).push(...rect);
    else if (!faded && bars.ratio && Number.isNaN(bars.ratio[i])) this.#noPartner.push(...rect);
    else hues[scene.hue[frame]].push(...rect);
  }

  // The gathered bars, one fill style at a time, then their names.
  #paintGathered(scene) {
    const ctx = this.#ctx;
    const colors = this.#colors;
    const fill = (list, style) => {
      if (!list.length) return;
      ctx.fillStyle = style;
      for (let k = 0; k < list.length; k += 3) ctx.fillRect(list[k], list[k + 1], list[k + 2], ROW_H - 2);
    };
    for (let h = 0; h < HUES; h++) {
      fill(this.#faded[h], colors.faded[h]);
      fill(this.#fills[h], colors.fill[h]);
    }
    for (let l = 0; l < RATIO_LEVELS; l++) fill(this.#ratio[l], colors.ratio[l]);
    fill(this.#merged, this.#pattern);
    fill(this.#mergedPlain, colors.merged);
    fill(this.#noPartner, this.#noPartnerPattern);
    // Labels: frame, x0, x1, y, style (0 text, 1 faded, else on ratio level style - 2), five numbers each.
    const labels = this.#labels;
    for (let k = 0; k < labels.length; k += 5) {
      const text = this.#fit(scene.frames[labels[k]], labels[k + 2] - labels[k + 1] - 6);
      if (!text) continue;
      const style = labels[k + 4];
      ctx.fillStyle = style === 0 ? colors.text : style === 1 ? colors.fadedText : colors.ratioText[style - 2];
      ctx.fillText(text, labels[k + 1] + 3, labels[k + 3] + (ROW_H - 2) / 2);
    }
  }

  // Selected, focused and hovered calls: outlines.
  #outlines(scene, geometry) {
    const ctx = this.#ctx;
    const colors = this.#colors;
    const outline = (item, style, width) => {
      if (!item) return;
      const band = scene.bands[item.lane];
      if (!band || band.collapsed || band.hidden) return;
      const y = AXIS_H + band.top - scene.scrollY + HEADER_H + item.depth * ROW_H;
      const x0 = Math.max(geometry.xOf(item.start), -4);
      const x1 = Math.min(geometry.xOf(Math.max(item.end, item.start + 1)), geometry.W + 4);
      ctx.strokeStyle = style;
      ctx.lineWidth = width;
      ctx.strokeRect(x0 + width / 2, y + width / 2 - 1, Math.max(x1 - x0, 2) - width, ROW_H - width);
    };
    outline(scene.selected, colors.selected, 2);
    outline(scene.hover, colors.bandText, 1);
    if (scene.focused) outline(scene.focus, colors.focus, 3);
  }

  // The range being dragged, shaded from `top` down `height` px.
  #range(scene, geometry, top, height) {
    if (!scene.range) return;
    const a = geometry.xOf(Math.min(scene.range.a, scene.range.b));
    const b = geometry.xOf(Math.max(scene.range.a, scene.range.b));
    this.#ctx.fillStyle = this.#colors.range;
    this.#ctx.fillRect(a, top, b - a, height);
  }

  // The axis: ticks and times from the run's origin.
  #axis(scene, geometry) {
    const ctx = this.#ctx;
    ctx.fillStyle = this.#colors.band;
    ctx.fillRect(0, 0, geometry.W, AXIS_H);
    ctx.fillStyle = this.#colors.axis;
    ctx.fillRect(0, AXIS_H - 1, geometry.W, 1);
    const { first, step } = geometry.ticks;
    for (let t = first; t <= scene.view.end; t += step) {
      const x = Math.round(geometry.xOf(t));
      ctx.fillRect(x, AXIS_H - 7, 1, 6);
      ctx.fillText(tickLabel(t, step), x + 3, AXIS_H / 2 - 2);
    }
    this.#range(scene, geometry, 0, AXIS_H);
  }
}
