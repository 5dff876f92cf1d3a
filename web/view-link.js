// A link to the view: the page keeps its view in the address's fragment
// (#…, which a browser never sends to a server), so the address, copied,
// opens the same view of the same file (docs/web-page.md, "A link to the
// view"). Pure functions, imported by the tests in Node: a view to a
// fragment and back, every field checked.
//
//   #v=1&file=run.h5&size=1234&origin=1700000000123456789&ranks=0-3,5
//    &t=100-2000&lanes=1&rows=0-63&region=solve&call=3.1.500.900.2&vs=a.h5
//    &align=0.1.3600.2.600
//   #v=1&file=job_rank00000.h5&size=5678&origin=…&files=64&ranks=all&…
//
//   v       the format's version (1)
//   file    the file's name; size its bytes; origin its run's first call
//           (absolute ns, the engine's runOrigin): the three identify it
//           (a job written one file per process: its first file, the one
//           holding its lowest rank, and the job's first call)
//   files   how many files the run is: a job's (1 to 4096; absent: 1)
//   ranks   the ranks on the timeline: 'all', or numbers and ranges
//   t       the time window, start-end in ns from the timeline's origin
//           (lined up at a call, run A may start before it: -600-5400)
//   lanes   the collapsed lanes; rows the collapsed ranks (empty: none)
//   region  the region chosen in a table
//   call    the selected call: lane.depth.start.end.frame (a call of run
//           A in A's own times)
//   vs      the run compared with (run A's file name)
//   align   the comparison lined up at a call of B: lane.depth.start.frame
//           of that call, then the shift (ns run A is drawn later, maybe
//           negative); none: both runs from their origins

export const LINK_VERSION = '1';
const MAX_LIST = 1 << 20; // numbers a list may expand to
const MAX_FILES = 4096; // files of one job (the engine's limit)
const INTEGER = /^\d{1,16}$/;
const SIGNED = /^-?\d{1,16}$/;

// [0, 1, 2, 3, 5] -> "0-3,5" (ascending, no repeats).
export function rangesText(numbers) {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j;
  }
  return parts.join(',');
}

// "0-3,5" -> [0, 1, 2, 3, 5]; "" -> []. Throws on anything else.
export function parseRanges(text, what) {
  if (text === '') return [];
  const out = [];
  for (const part of text.split(',')) {
    const [a, b = a, extra] = part.split('-');
    if (extra !== undefined || !INTEGER.test(a) || !INTEGER.test(b)) throw new Error(`${what} "${text}"`);
    const [lo, hi] = [Number(a), Number(b)];
    if (hi < lo || out.length + hi - lo >= MAX_LIST) throw new Error(`${what} "${text}"`);
    for (let n = lo; n <= hi; n++) out.push(n);
  }
  return out;
}

// A view ({ file: { name, size, origin }, files, ranks, window, collapsed:
// { lanes, ranks }, region, call, partner }) as a fragment, without the
// '#' (files: 1 or absent is not written).
export function viewToFragment(view) {
  const p = new URLSearchParams();
  p.set('v', LINK_VERSION);
  p.set('file', view.file.name);
  p.set('size', String(view.file.size));
  p.set('origin', view.file.origin);
  if ((view.files ?? 1) !== 1) p.set('files', String(view.files));
  p.set('ranks', view.ranks === 'all' ? 'all' : rangesText(view.ranks));
  p.set('t', `${view.window.start}-${view.window.end}`);
  p.set('lanes', rangesText(view.collapsed.lanes));
  p.set('rows', rangesText(view.collapsed.ranks));
  if (view.region !== null) p.set('region', view.region);
  const c = view.call;
  if (c) p.set('call', [c.lane, c.depth, c.start, c.end, c.frame].join('.'));
  if (view.partner) p.set('vs', view.partner);
  const a = view.align;
  if (a && view.partner) p.set('align', [a.lane, a.depth, a.start, a.frame, a.shift].join('.'));
  return p.toString();
}

function required(p, key) {
  const value = p.get(key);
  if (value === null || value === '') throw new Error(`no ${key}`);
  return value;
}

function integerOf(text, what, pattern = INTEGER) {
  if (!pattern.test(text) || !Number.isSafeInteger(Number(text))) throw new Error(`${what} "${text}"`);
  return Number(text);
}

function filesOf(text) {
  const files = integerOf(text, 'files');
  if (files < 1 || files > MAX_FILES) throw new Error(`files "${text}"`);
  return files;
}

function windowOf(text) {
  const m = /^(-?\d+)-(-?\d+)$/.exec(text);
  if (!m) throw new Error(`window "${text}"`);
  const start = integerOf(m[1], 'window', SIGNED);
  const end = integerOf(m[2], 'window', SIGNED);
  if (end <= start) throw new Error(`window "${text}"`);
  return { start, end };
}

function alignOf(text) {
  const parts = text.split('.');
  const numbers = parts.map((n, i) => (i < 4 ? INTEGER : SIGNED).test(n) && Number(n));
  if (parts.length !== 5 || !numbers.every(Number.isSafeInteger)) throw new Error(`align "${text}"`);
  const [lane, depth, start, frame, shift] = numbers;
  return { lane, depth, start, frame, shift };
}

function callOf(text) {
  const parts = text.split('.');
  if (parts.length !== 5) throw new Error(`call "${text}"`);
  const [lane, depth, start, end, frame] = parts.map((n) => integerOf(n, 'call'));
  if (end < start) throw new Error(`call "${text}"`);
  return { lane, depth, start, end, frame };
}

// The fragment (location.hash, with or without '#'): { view }, { none:
// true } when there is none or it names an element of the page (the
// skip link's #work), or { error: what is wrong } for anything else.
export function fragmentToView(hash, isElementId = () => false) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '' || (!text.includes('=') && isElementId(text))) return { none: true };
  try {
    const p = new URLSearchParams(text);
    if (p.get('v') !== LINK_VERSION) throw new Error(p.has('v') ? `version "${p.get('v')}"` : 'no version');
    const origin = required(p, 'origin');
    if (!/^-?\d{1,20}$/.test(origin)) throw new Error(`origin "${origin}"`);
    const ranks = required(p, 'ranks');
    return {
      view: {
        file: { name: required(p, 'file'), size: integerOf(required(p, 'size'), 'size'), origin },
        files: p.has('files') ? filesOf(p.get('files')) : 1,
        ranks: ranks === 'all' ? 'all' : parseRanges(ranks, 'ranks'),
        window: windowOf(required(p, 't')),
        collapsed: {
          lanes: parseRanges(p.get('lanes') ?? '', 'lanes'),
          ranks: parseRanges(p.get('rows') ?? '', 'rows'),
        },
        region: p.get('region') || null,
        call: p.has('call') ? callOf(p.get('call')) : null,
        partner: p.get('vs') || null,
        align: p.get('vs') && p.has('align') ? alignOf(p.get('align')) : null,
      },
    };
  } catch (err) {
    return { error: err.message };
  }
}
