// Finding calls in the cached bars: an item is one bar, { lane, depth, start,
// end, frame, count } (count > 1: a merged block; comparing two runs, B's
// bars also carry `ratio`, their duration over A's, NaN without a partner). A lane's bars hold its
// items depth after depth, each row in time order (rows[d] .. rows[d + 1]),
// so a row is searched by binary search, never walked whole.

import { AXIS_H, HEADER_H, ROW_H, firstEndingAfter, rankLabelWidth, rankLabels } from './draw.js';

export function itemOf(lane, bars, i) {
  const item = {
    lane,
    depth: bars.depth[i],
    start: bars.start[i],
    end: bars.end[i],
    frame: bars.frame[i],
    count: bars.count[i],
  };
  if (bars.ratio) item.ratio = bars.ratio[i];
  return item;
}

export function sameItem(a, b) {
  if (!a || !b) return a === b;
  return a.lane === b.lane && a.depth === b.depth && a.start === b.start && a.end === b.end && a.count === b.count;
}

// The row of depth `depth` in a lane's bars: { bars, lo, hi }, or null.
export function rowOf(bars, depth) {
  if (!bars || depth >= bars.rows.length - 1) return null;
  return { bars, lo: bars.rows[depth], hi: bars.rows[depth + 1] };
}

// The index of `item` in its row (by its start), or -1.
export function indexOf(bars, item) {
  const row = rowOf(bars, item.depth);
  if (!row) return -1;
  const i = firstEndingAfter(row.bars, item.start, row.lo, row.hi);
  for (let j = Math.max(row.lo, i - 1); j < row.hi && row.bars.start[j] <= item.start; j++) {
    if (row.bars.start[j] === item.start) return j;
  }
  return -1;
}

// The rank row under (x, y) px of the chart: { rankRow, label } (label:
// on the label that toggles `rankRow`, which may be a row above when thin
// rows share one), or null.
export function rankUnder(x, y, bands) {
  const i = bands.rankIndexAt(y);
  if (i < 0) return null;
  const row = bands.ranks[i];
  const labels = rankLabels(row.height);
  const first = bands.ranks[i - (i % labels.every)];
  const cy = y - AXIS_H + bands.scrollY;
  if (x < rankLabelWidth(first.rank) && cy < first.top + labels.height) return { rankRow: first, label: true };
  return { rankRow: row, label: false };
}

// The item under (x, y) px of the chart: a bar, { header: band } on a band's
// header, { rankRow, label } on a rank's row (rankUnder), or null.
// chart: { bands (bands.js), barsOf(lane), viewport, width }.
export function itemUnder(x, y, { bands, barsOf, viewport, width }) {
  if (y < AXIS_H) return null;
  const rank = rankUnder(x, y, bands);
  if (rank) return rank;
  const band = bands.at(y);
  if (!band || band.collapsed) return null;
  const yInRows = y - AXIS_H + bands.scrollY - band.top - HEADER_H;
  if (yInRows < 0) return { header: band };
  const depth = Math.floor(yInRows / ROW_H);
  const bars = barsOf(band.lane);
  if (!bars || depth >= band.depths) return null;
  const nsPerPx = viewport.nsPerPx(width);
  const time = viewport.start + x * nsPerPx;
  const stop = bars.rows[depth + 1];
  // Bars are at least a pixel wide on screen: half a pixel either side.
  let best = null;
  for (
    let i = firstEndingAfter(bars, time - nsPerPx / 2, bars.rows[depth], stop);
    i < stop && bars.start[i] <= time + nsPerPx / 2;
    i++
  ) {
    const item = itemOf(band.lane, bars, i);
    const distance =
      time < item.start ? item.start - time : time > Math.max(item.end, item.start + 1) ? time - item.end : 0;
    if (!best || distance < best.distance) best = { distance, item };
  }
  return best?.item ?? null;
}
