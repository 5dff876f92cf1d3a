// The page's state, in one place. Modules read `state` and change it only
// through update(), which tells every subscriber which keys changed. The
// current phase is mirrored on <body data-phase=...> (the viewer's status on
// data-viewer, the timeline's on data-chart, the counters on data-selection and data-attempts) so styles,
// tests and the benchmark can follow the flow.
//
//   phase    'start'       nothing chosen yet
//            'inspecting'  reading what the chosen files hold
//            'drawing'     opening the timeline of the file (the worker reads its calls)
//            'preparing'   checking options and estimating, before converting
//            'waiting'     read; too big to show at once: the estimate and a suggestion wait for a click
//            'converting'  the worker is converting
//            'done'        outputs exist (the viewer may still be importing)
//            'failed'      no output: an error is shown
//            'cancelled'   the person pressed Cancel
//   viewer   'none' | 'starting' | 'importing' | 'painted' | 'held' (over budget, not opened) | 'failed'
//   chart    the timeline: 'none' | 'opening' | 'painted' (drawn for the current file) | 'failed'

export const state = {
  version: null,
  features: {}, // what the converter offers: { overview, checkPattern, narrowing }
  selection: 0, // bumps with every new selection
  attempts: 0, // bumps with every conversion asked for (a selection, changed options, a click)
  files: [], // [{ file, info, error }]
  phase: 'start',
  estimate: null, // see budget.js
  outputs: [], // [{ fileName, size, blob, url }]
  current: 0, // index of the output in the viewer
  viewer: 'none',
  viewerMessage: '',
  chart: 'none',
};

// What the page's flows (flow-*.js) share beside `state`: nothing here is
// rendered or subscribed to.
export const flow = {
  timelineKey: null, // what the timeline shows: [selection, file, ranks, include, exclude]
  timelineFailure: null, // { reply, file } of a timeline that could not be drawn, said after converting
  converting: null, // the running conversion (a promise), for Open in speedscope to wait for
  run: 0, // bumps with every selection and every conversion started; late replies are dropped
  cancels: 0, // bumps with every Cancel: work that was waiting to start when it came does not start
  unchecked: 0, // the ranks the shown timeline did not read and no timeline-check read yet
  comparing: null, // two runs compared on the timeline: { fileA, fileB }
  // Several files holding disjoint ranks of one job (scope-profiler's C API
  // writes one a process): their Files, opened on the timeline as one run.
  job: null,
  openedFrom: null, // the File (a job: its Files) of the timeline the engine holds
  // Resolves when the open under way is answered: until then the timeline
  // shown (and the engine may keep answering for it, a sliced open going
  // on) is not the selection's.
  opened: Promise.resolve(),
  firstPaint: null, // resolves when the timeline shown last has painted
  // Resolves when the timeline shown last is exact: a provisional open (the
  // first view, its own ranks' order and origin) completed, or none was.
  completed: Promise.resolve(),
  paintedNow: () => {},
  overviewKey: null, // the options' overview shown: [selection, file, ranks, include, exclude]
  overviewRunning: null, // the key of the overview the engine reads, while it does
};

const listeners = new Set();

export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function update(patch) {
  const changed = new Set();
  for (const [key, value] of Object.entries(patch)) {
    if (state[key] !== value) changed.add(key);
    state[key] = value;
  }
  if (!changed.size) return;
  const data = document.body.dataset;
  data.phase = state.phase;
  data.viewer = state.viewer;
  data.chart = state.chart;
  data.selection = String(state.selection);
  data.attempts = String(state.attempts);
  for (const fn of listeners) fn(state, changed);
}

export const goodFiles = () => state.files.filter((f) => f.info);
