// The words and colours of the rank × step grid of one region's aligned
// calls. The grid itself is the core's (tl.alignedGrid, asked through the
// worker, so a long window sends the page a few hundred columns, never every
// call), as is each rank's mean lateness (tl.meanLateness); the page colours
// and names its cells. Pure functions, imported by the tests in Node.
//
// A column holds one step k, or a group of consecutive steps when there are
// more steps than columns; a cell (rank r, column c) then shows the step of
// the group whose call on rank r strays furthest from that step's median
// duration (relative to it). Steps count from 0, as the core's k.

// excess / median duration: +0.5 is a call 50 % longer than the median
// (the core's stray_share, for a cell's words and colour).
export function share(excess, median) {
  if (median > 0) return excess / median;
  return excess > 0 ? Infinity : excess < 0 ? -Infinity : 0;
}

// Ranks in order of lateness, latest first (ties and ranks without a value
// by rank number, the latter last).
export function latestFirst({ ranks, lateness }) {
  const key = (i) => (Number.isNaN(lateness[i]) ? -Infinity : lateness[i]);
  return ranks
    .map((_, i) => i)
    .sort((i, j) => key(j) - key(i) || ranks[i] - ranks[j])
    .map((i) => ranks[i]);
}

export const cellShare = (g, cell) => share(g.excess[cell], g.duration[cell] - g.excess[cell]);

// The share that takes the scale's full colour: the largest in the grid,
// at least 10 % (so calls within a few percent of the median stay pale),
// at most 100 %.
export function scaleOf(g) {
  let most = 0;
  for (let cell = 0; cell < g.rows * g.cols; cell++) {
    const s = Math.abs(cellShare(g, cell));
    if (Number.isFinite(s)) most = Math.max(most, s);
  }
  return Math.min(1, Math.max(0.1, most));
}

// "+50 %", "−4.2 %", "0 %": whole percents from 10 % on, one decimal below.
export function percentText(s) {
  if (!Number.isFinite(s)) return s > 0 ? '+∞ %' : '−∞ %';
  const p = s * 100;
  const digits = Math.abs(p) < 10 ? 1 : 0;
  const text = Math.abs(p).toFixed(digits).replace(/\.0$/, '');
  if (text === '0') return '0 %';
  return `${p > 0 ? '+' : '−'}${text} %`;
}

// What a cell says: "step 3 of solve, rank 2: +50 % (900 ns against a median
// of 600 ns)"; a column of several steps names them and the one shown.
// time(ns) formats a duration.
export function cellText(g, name, r, c, time) {
  const cell = r * g.cols + c;
  const median = g.duration[cell] - g.excess[cell];
  const what = `${percentText(cellShare(g, cell))} (${time(g.duration[cell])} against a median of ${time(median)})`;
  if (g.kFirst[c] === g.kLast[c]) return `step ${g.k[cell]} of ${name}, rank ${g.ranks[r]}: ${what}`;
  return (
    `steps ${g.kFirst[c]} to ${g.kLast[c]} of ${name}, rank ${g.ranks[r]}: ` +
    `furthest from the median at step ${g.k[cell]}, ${what}`
  );
}

// A colour-blind-safe diverging scale around 0 (blue: shorter than the
// median, orange: longer; ColorBrewer's blue-orange), pale or dark in the
// middle to match the page's light or dark theme.
const STOPS = {
  light: ['#2166ac', '#92c5de', '#f7f7f7', '#fdb863', '#b35806'],
  dark: ['#8cc2e8', '#3b6ea5', '#2a2f37', '#a8641c', '#fdb863'],
};

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

// t in [-1, 1] (clamped) -> 'rgb(r g b)'.
export function divergingColour(t, dark) {
  const stops = STOPS[dark ? 'dark' : 'light'].map(rgb);
  const x = (Math.max(-1, Math.min(1, Number.isNaN(t) ? 0 : t)) + 1) * 2; // 0 .. 4
  const i = Math.min(3, Math.floor(x));
  const f = x - i;
  const [a, b] = [stops[i], stops[i + 1]];
  return `rgb(${a.map((v, n) => Math.round(v + (b[n] - v) * f)).join(' ')})`;
}
