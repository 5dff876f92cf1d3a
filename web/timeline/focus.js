// Keyboard focus among the calls of the cached bars: which call the arrows,
// PageUp and PageDown move to, where focus enters, and where it goes when
// new bars draw a focused merged block apart. Items as in hit-test.js;
// barsOf(lane) gives a lane's cached bars.

import { firstEndingAfter } from './draw.js';
import { indexOf, itemOf, rowOf, sameItem } from './hit-test.js';

// The first call in [start, end): band by band (`bands` top to bottom),
// depth by depth; or null.
export function firstInView(bands, barsOf, start, end) {
  for (const band of bands) {
    if (band.collapsed) continue;
    const bars = barsOf(band.lane);
    if (!bars) continue;
    for (let d = 0; d < band.depths; d++) {
      const i = firstEndingAfter(bars, start, bars.rows[d], bars.rows[d + 1]);
      if (i < bars.rows[d + 1] && bars.start[i] < end) return itemOf(band.lane, bars, i);
    }
  }
  return null;
}

// The call before or after `f` in its row.
function besideInRow(f, bars, step) {
  const row = rowOf(bars, f.depth);
  const i = indexOf(bars, f);
  if (!row || i < 0) return null;
  const j = i + step;
  return j >= row.lo && j < row.hi ? itemOf(f.lane, row.bars, j) : null;
}

// The call holding `f` one depth up (up: true), or the first one it holds.
function aboveOrBelow(f, bars, band, up) {
  const depth = f.depth + (up ? -1 : 1);
  if (depth < 0 || depth >= band.depths) return null;
  const row = rowOf(bars, depth);
  if (!row) return null;
  const i = firstEndingAfter(row.bars, f.start, row.lo, row.hi);
  if (i >= row.hi) return null;
  const candidate = itemOf(f.lane, row.bars, i);
  const inside = up
    ? candidate.start <= f.start
    : candidate.start >= f.start && candidate.start < Math.max(f.end, f.start + 1);
  return inside ? candidate : null;
}

// The first call in view at depth 0 of the next open band with bars
// (step 1: below, -1: above; `shown`: the bands on the chart, top to bottom).
function inNextBand(f, shown, barsOf, step, viewStart) {
  for (let at = shown.findIndex((b) => b.lane === f.lane) + step; at >= 0 && at < shown.length; at += step) {
    const { lane } = shown[at];
    const bars = barsOf(lane);
    if (shown[at].collapsed || !bars) continue;
    const i = firstEndingAfter(bars, viewStart, bars.rows[0], bars.rows[1]);
    if (i < bars.rows[1]) return itemOf(lane, bars, i);
  }
  return null;
}

// Where focus moves from `f`: how is 'previous', 'next', 'parent', 'child',
// 'lane-previous' or 'lane-next'; null when there is no such call.
// bands: bands.js's (list: by lane; shown: top to bottom).
export function neighbour(f, how, { list, shown }, barsOf, viewStart) {
  const bars = barsOf(f.lane);
  switch (how) {
    case 'previous':
      return besideInRow(f, bars, -1);
    case 'next':
      return besideInRow(f, bars, 1);
    case 'parent':
      return aboveOrBelow(f, bars, list[f.lane], true);
    case 'child':
      return aboveOrBelow(f, bars, list[f.lane], false);
    default:
      return inNextBand(f, shown, barsOf, how === 'lane-next' ? 1 : -1, viewStart);
  }
}

// A focused merged block that the new bars draw apart: its first call; null
// when the focus stays.
export function refocused(f, barsOf) {
  if (!f || f.count <= 1) return null;
  const row = rowOf(barsOf(f.lane), f.depth);
  if (!row) return null;
  const i = firstEndingAfter(row.bars, f.start, row.lo, row.hi);
  if (i >= row.hi || row.bars.start[i] > f.end) return null;
  const item = itemOf(f.lane, row.bars, i);
  return sameItem(item, f) ? null : item;
}
