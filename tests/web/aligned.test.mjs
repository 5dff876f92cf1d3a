// The Ranks panel's pure functions over an alignedCalls answer (the worker
// runs them, web/timeline/aligned.js), against models written from their
// definitions, on seeded random answers: the heatmap's grid, with steps
// grouped into columns, and each rank's mean lateness (the order latest
// first). No browser: the page's own tests (ranks.test.mjs) check them on
// real runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { gridOf, meanLateness, share } from '../../web/timeline/aligned.js';
import { rng } from '../js/seeded.mjs';

// An answer as alignedCalls gives it: `steps` steps k0, k0 + 1, ... on each
// of `ranks` (ascending), k then rank; durations small enough to tie and to
// be all excess (a median of 0).
function answerOf(random, ranks, steps) {
  const n = ranks.length * steps;
  const a = { ranks, counts: ranks.map(() => steps + 3), common: steps + 3 };
  for (const key of ['k', 'rank', 'start', 'end', 'lateness', 'excess']) a[key] = new Float64Array(n);
  const k0 = Math.floor(random() * 100);
  for (let j = 0; j < steps; j++) {
    for (let r = 0; r < ranks.length; r++) {
      const i = j * ranks.length + r;
      a.k[i] = k0 + j;
      a.rank[i] = ranks[r];
      a.start[i] = 1000 * j + Math.floor(random() * 50);
      a.end[i] = a.start[i] + Math.floor(random() * 4);
      a.lateness[i] = Math.floor(random() * 21) - 10;
      a.excess[i] = Math.floor(random() * 7) - 3;
    }
  }
  return a;
}

// The grid as defined: column c holds steps c * group onwards; a cell shows
// the step whose call on its rank strays furthest from its median duration
// (|excess / median|), the earliest of those that stray as far.
function gridModel(a, maxColumns) {
  const rows = a.ranks.length;
  const steps = rows ? a.k.length / rows : 0;
  const group = Math.max(1, Math.ceil(steps / Math.max(1, Math.floor(maxColumns))));
  const cols = Math.ceil(steps / group);
  const g = { rows, cols, group, ranks: [...a.ranks], counts: [...a.counts], common: a.common };
  for (const name of ['kFirst', 'kLast']) g[name] = new Float64Array(cols);
  for (const name of ['k', 'excess', 'duration', 'spanStart', 'spanEnd']) g[name] = new Float64Array(rows * cols);
  for (let c = 0; c < cols; c++) {
    const js = [];
    for (let j = c * group; j < Math.min(steps, (c + 1) * group); j++) js.push(j);
    g.kFirst[c] = a.k[js[0] * rows];
    g.kLast[c] = a.k[js.at(-1) * rows];
    for (let r = 0; r < rows; r++) {
      const strays = (j) => {
        const i = j * rows + r;
        return Math.abs(share(a.excess[i], a.end[i] - a.start[i] - a.excess[i]));
      };
      const best = js.reduce((b, j) => (strays(j) > strays(b) ? j : b));
      const i = best * rows + r;
      const cell = r * cols + c;
      const onAll = [...Array(rows).keys()].map((q) => best * rows + q);
      g.k[cell] = a.k[i];
      g.excess[cell] = a.excess[i];
      g.duration[cell] = a.end[i] - a.start[i];
      g.spanStart[cell] = Math.min(...onAll.map((q) => a.start[q]));
      g.spanEnd[cell] = Math.max(...onAll.map((q) => a.end[q]));
    }
  }
  return g;
}

// Per rank, the mean of its entries' lateness (NaN without entries).
function latenessModel(a) {
  return {
    ranks: [...a.ranks],
    lateness: a.ranks.map((rank) => {
      const mine = [...a.lateness].filter((_, i) => a.rank[i] === rank);
      return mine.length ? mine.reduce((x, y) => x + y, 0) / mine.length : NaN;
    }),
  };
}

describe("the Ranks panel's grid and lateness against their definitions", () => {
  it('gridOf, steps alone and grouped into columns', () => {
    const random = rng(20261203);
    let grouped = 0;
    for (let round = 0; round < 300; round++) {
      const rows = 1 + Math.floor(random() * 6);
      const ranks = [...Array(rows).keys()].map((r) => r * 2 + 1);
      const steps = Math.floor(random() * 40);
      const a = answerOf(random, ranks, steps);
      const maxColumns = 1 + Math.floor(random() * 12);
      const got = gridOf(a, maxColumns);
      if (got.group > 1) grouped++;
      assert.deepEqual(
        got,
        gridModel(a, maxColumns),
        `round ${round}: ${rows} ranks, ${steps} steps, ${maxColumns} columns`,
      );
    }
    assert.ok(grouped > 100, `${grouped} rounds grouped steps`);
  });

  it('meanLateness, and an answer without steps', () => {
    const random = rng(7);
    for (let round = 0; round < 100; round++) {
      const rows = 1 + Math.floor(random() * 6);
      const ranks = [...Array(rows).keys()].map((r) => r + 10);
      const a = answerOf(random, ranks, Math.floor(random() * 30));
      assert.deepEqual(meanLateness(a), latenessModel(a), `round ${round}`);
    }
    assert.deepEqual(meanLateness(answerOf(random, [0, 4], 0)), { ranks: [0, 4], lateness: [NaN, NaN] });
  });
});
