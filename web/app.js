// The page's flow: a dropped or chosen file is inspected, its timeline (every
// call, drawn from the core's columns: timeline/) fills the window at once,
// and then it is converted with export_speedscope's defaults (rank 0, every
// region) for the download. speedscope shows the visible window, or the whole
// run when it fits its budget, on a click (Open in speedscope). A run too big
// for speedscope waits for a click before converting, with the estimate and a
// way to narrow it. Changed options draw and convert again. The modules:
//   state.js (the page state), dom.js (DOM helpers), picker.js (choosing files),
//   options.js (the options panel), files-view.js (what files hold),
//   engine-client.js + worker.js (the page's one engine), budget.js (the viewer's budget),
//   viewer.js (speedscope in a sandboxed frame), downloads.js (the bar's links),
//   timeline/ (the timeline: its worker side, drawing, input and view),
//   status.js (status line, progress, the error box), actions-menu.js (the bar's actions,
//   a menu on phones), site.js (where the parts come from),
//   offline.js (the service worker), served-result.js (outputs `scope-speedscope view` serves).

import * as actionsMenu from './actions-menu.js';
import * as budget from './budget.js';
import { $, bytes, count, el, nextFrame, plural, seconds } from './dom.js';
import { exactTime } from './timeline/format.js';
import * as downloads from './downloads.js';
import * as filesView from './files-view.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { registerServiceWorker, registerServiceWorkerWhenIdle } from './offline.js';
import * as picker from './picker.js';
import { loadServedResults } from './served-result.js';
import * as site from './site.js';
import { goodFiles, state, update } from './state.js';
import * as status from './status.js';
import { Viewer, toggleFullscreen } from './viewer.js';
import { EngineClient } from './engine-client.js';
import { TimelineView } from './timeline/view.js';

const params = new URLSearchParams(window.location.search);
// How long the converter may go without a sign of progress before it is
// stopped and restarted (?stall-limit-ms= for tests). Conversions report
// progress as they go; reading what a file holds does not, so it gets twice
// as long; large files get longer.
const STALL_MS = Number(params.get('stall-limit-ms')) || 30_000;
const STALL_BYTES_PER_MS = 10_000; // 10 MB/s

// One engine (one worker, one wasm module) reads each file once, answers the
// timeline and writes the downloads.
const engine = new EngineClient(site.createWorker);
const viewer = new Viewer({ box: $('viewer-frame'), load: site.loadViewer, onStatus: viewerStatus });
const timeline = new TimelineView({ client: engine, onPainted: timelinePainted });
let timelineKey = null; // what the timeline shows: [selection, file, ranks, include, exclude]
let timelineFailure = null;
let converting = null; // the running conversion (a promise), for Open in speedscope to wait for
let run = 0; // bumps with every selection and every conversion started; late replies are dropped
let comparing = null; // two runs compared on the timeline: { fileA, fileB }
let firstPaint = null; // resolves when the timeline shown last has painted
let paintedNow = () => {};

const limitFor = (files, { silent = false } = {}) =>
  Math.max(STALL_MS * (silent ? 2 : 1), files.reduce((n, f) => n + f.size, 0) / STALL_BYTES_PER_MS);
const fileList = (files) => files.map((f) => f.name).join(', ');

// ---- choosing files -----------------------------------------------------------

// compare: two dropped files, compared once converted (the first is A).
async function choose(files, { compare = false } = {}) {
  const mine = ++run;
  performance.mark('scope-speedscope:chosen');
  engine.cancelAll();
  options.cancelPending();
  clearResults();
  overviewView.clear();
  overviewKey = null;
  update({
    selection: state.selection + 1,
    files: files.map((file) => ({ file, info: null, error: null })),
    phase: 'inspecting',
    estimate: null,
  });
  $('work').hidden = false;
  $('bar-files').textContent = fileList(files);
  filesView.render(state.files);
  for (const entry of state.files) {
    status.showProgress({ phase: 'inspect', total: 0 }, { file: entry.file.name });
    const reply = await engine.request(
      'inspect',
      { file: entry.file },
      { limitMs: limitFor([entry.file], { silent: true }) },
    );
    if (mine !== run) return;
    if (reply.type === 'result') {
      entry.info = reply.info;
    } else if (reply.type === 'cancelled') {
      cancelled();
      return;
    } else {
      entry.error = reply;
      reportFailure(reply, [entry.file], 'inspect');
    }
    filesView.render(state.files);
  }
  status.hideProgress();
  options.reset(goodFiles().map((f) => f.info));
  if (!goodFiles().length) {
    update({ phase: 'failed' });
    status.setStatus(files.length > 1 ? 'None of these files can be converted.' : 'This file cannot be converted.');
    return;
  }
  const selection = state.selection;
  await convertIfItFits({ automatic: true });
  if (compare && files.length === 2 && goodFiles().length === 2 && state.selection === selection) {
    if (state.outputs.length === 2) {
      update({ current: 1 });
      downloads.render(state.outputs, 1, site.viewerPage);
    }
    await compareRuns(files[0], files[1]);
  }
}

function clearResults() {
  downloads.release(state.outputs);
  update({ outputs: [], current: 0, viewer: 'none', viewerMessage: '', chart: 'none' });
  downloads.render([], 0, site.viewerPage);
  viewer.clear(placeholder(''));
  closeViewerBox();
  timeline.clear();
  leaveComparison();
  timelineKey = null;
  timelineFailure = null;
  showTimelineBox(false);
  status.clearError();
  status.hideProgress();
  status.setStatus('');
  options.clearFieldErrors();
  options.setEstimate('');
  $('budget').hidden = true;
  $('fullscreen').hidden = true;
}

// ---- estimate, budget, converting ---------------------------------------------
// The viewer shows one output at a time, and each input file gives one output:
// the budget applies to each file's calls. Before converting, the inspection
// gives them for the chosen ranks (exact without filters or narrowing, else
// an upper bound); after converting, the writer's count is exact.

function estimate(opts) {
  const ranks = opts.ranks ? new Set(opts.ranks) : null;
  const files = goodFiles().map(({ file, info }) => ({
    file,
    calls: info.ranks.reduce((n, r) => n + (!ranks || ranks.has(r.rank) ? r.calls : 0), 0),
  }));
  const largest = files.reduce((a, b) => (b.calls > a.calls ? b : a), files[0]);
  const have = budget.budget();
  const need = budget.cost(largest?.calls ?? 0);
  const exact = !opts.include && !opts.exclude && !opts.minDuration && !opts.timeWindow;
  return { files, largest, calls: need.calls, exact, need, have, fits: budget.fits(need, have) };
}

function describeEstimate(e) {
  const what = `${e.exact ? '' : 'at most '}${plural(e.calls, 'call')}${e.files.length > 1 ? ' in the largest file' : ''}`;
  return (
    `Selected: ${what}; speedscope needs ${seconds(e.need.seconds)} and ${bytes(e.need.bytes)} ` +
    'of memory to show them.'
  );
}

// automatic: a new selection or changed options (waits when it surely is over
// the budget); otherwise the person asked: convert, and show what fits.
// reveal: scroll to the chart and move focus to it (not while someone edits an option).
async function convertIfItFits({ automatic, reveal = true, show = false }) {
  const mine = ++run;
  update({ phase: 'preparing', attempts: state.attempts + 1 });
  if (!options.hasRank()) {
    update({ phase: 'waiting' });
    status.setStatus('Choose at least one rank to convert.');
    return;
  }
  const opts = options.read();
  stopStaleOverview(opts);
  options.clearFieldErrors();
  status.clearError('convert');
  $('budget').hidden = true;
  if (state.features.checkPattern && (opts.include || opts.exclude)) {
    const reply = await engine.request('check', { include: opts.include, exclude: opts.exclude });
    if (mine !== run) return;
    if (reply.type === 'result' && reply.problems.length) {
      for (const p of reply.problems) options.showFieldError(p.field, `Line ${p.line + 1}: ${p.message}`);
      openOptions(true);
      options.focusField(reply.problems[0].field);
      update({ phase: 'failed' });
      status.setStatus('A filter is not a valid regular expression.');
      return;
    }
  }
  const drawn = await drawTimeline(opts, mine, { reveal });
  if (drawn === 'cancelled' || mine !== run) return;
  // The engine answers one request at a time: the first paint's bars come
  // before the download is written (at most a second's wait: a hidden tab
  // paints nothing).
  if (drawn === 'drawn') await Promise.race([firstPaint, new Promise((done) => setTimeout(done, 1000))]);
  if (mine !== run) return;
  const e = estimate(opts);
  update({ estimate: e });
  options.setEstimate(describeEstimate(e));
  if (automatic && e.exact && !e.fits) {
    await showBudget(e, opts, mine);
    return;
  }
  await convert(opts, mine, { reveal, show });
}

// ---- the timeline ------------------------------------------------------------------
// Opened in a worker of its own (the converter may be busy writing), for the
// file of the current output; again only when the file, ranks or filters
// changed (narrowing is the download's and speedscope's, not the timeline's).
// With every rank chosen (All ranks), it opens every rank of its file.

const timelineFile = () => goodFiles()[state.outputs.length === goodFiles().length ? state.current : 0]?.file;

// What a timeline of `file` with these options holds (timelineKey when shown).
const timelineKeyOf = (file, opts) =>
  JSON.stringify([state.selection, file.name, options.allRanks() ? 'all' : opts.ranks, opts.include, opts.exclude]);

async function drawTimeline(opts, mine, { reveal = true } = {}) {
  const file = timelineFile();
  if (!state.features.timeline || !file) return null;
  const ranks = options.allRanks() ? 'all' : opts.ranks;
  const key = timelineKeyOf(file, opts);
  if (key === timelineKey) return null;
  if (comparing?.fileB === file) {
    // Other ranks or filters: the same two runs compared with them.
    timelineKey = key;
    await compareRuns(comparing.fileA, file);
    return comparing ? 'drawn' : 'failed';
  }
  leaveComparison();
  timelineKey = key;
  timelineFailure = null;
  status.clearError('timeline');
  update({ phase: 'drawing', chart: 'opening' });
  status.showProgress({ phase: 'timeline', total: 0 }, { file: file.name });
  performance.mark('scope-speedscope:timeline-start');
  const reply = await engine.open(
    file,
    { ranks, include: opts.include, exclude: opts.exclude },
    {
      onProgress: (p) => {
        if (mine === run) status.showProgress({ ...p, phase: 'timeline' }, { file: file.name });
      },
      limitMs: limitFor([file]),
    },
  );
  if (mine !== run) return 'cancelled';
  status.hideProgress();
  if (reply.type === 'cancelled') {
    timelineKey = null;
    cancelled();
    return 'cancelled';
  }
  if (reply.type !== 'result') {
    // Said after converting, and only when the converter does not fail the
    // same way (its message is the one people get).
    timelineKey = null;
    timelineFailure = { reply, file };
    update({ chart: 'failed' });
    showTimelineBox(false);
    return 'failed';
  }
  showTimelineBox(true);
  $('fullscreen').hidden = false;
  firstPaint = new Promise((done) => (paintedNow = done));
  timeline.show({ ...reply, fileName: file.name });
  if (reveal) revealTimeline();
  return 'drawn';
}

// The timeline and its controls (in the bar) show together.
function showTimelineBox(shown) {
  $('timeline-box').hidden = !shown;
  $('tl-toolbar').hidden = !shown;
}

function timelinePainted(info) {
  performance.mark('scope-speedscope:timeline-painted');
  paintedNow();
  update({ chart: 'painted' });
  registerServiceWorker(); // offline use, now that the first look is there (once)
  const calls = info.lanes.reduce((n, l) => n + l.calls, 0);
  if (state.phase === 'drawing') status.setStatus(`${info.fileName}: ${plural(calls, 'call')} on the timeline.`);
}

async function revealTimeline() {
  await nextFrame();
  const busy = document.activeElement;
  if (busy && (busy === $('options-toggle') || $('options-panel').contains(busy))) return;
  const besideOptions = $('options-panel').hidden || getComputedStyle($('options-panel')).gridColumnStart === '2';
  (besideOptions ? $('work') : $('timeline-box')).scrollIntoView({ block: 'start' });
  $('tl-chart').focus({ preventScroll: true });
}

function reportTimelineFailure() {
  if (!timelineFailure) return;
  const { reply, file } = timelineFailure;
  const words =
    reply.type === 'stalled'
      ? `it stopped responding (no progress for ${reply.seconds} s)`
      : (reply.wording ?? reply.message);
  status.showError({ file: file.name, message: `The timeline could not be drawn: ${words}` }, { origin: 'timeline' });
}

// ---- comparing two runs ----------------------------------------------------------------
// "Compare with…" (or two files dropped at once) opens run A, the baseline,
// and run B, the timeline's file, together in the timeline's worker
// (timeline-compare-open, with the options' ranks and filters): B's lanes
// coloured by their calls' ratios to A's, A's beneath, the regions of both.
// Other ranks or filters compare again with them; End comparison (or other
// files, or another output's) goes back to B alone.

async function compareRuns(fileA, fileB) {
  const mine = run;
  const phase = state.phase;
  const opts = options.read();
  const ranks = options.allRanks() ? 'all' : opts.ranks;
  const files = `${fileB.name} against ${fileA.name}`;
  status.clearError('compare');
  document.body.dataset.compare = 'opening';
  update({ phase: 'drawing', chart: 'opening' });
  status.showProgress({ phase: 'timeline', total: 0 }, { file: files });
  const reply = await engine.openComparison(
    fileA,
    fileB,
    { ranks, include: opts.include, exclude: opts.exclude },
    {
      onProgress: (p) => mine === run && status.showProgress({ ...p, phase: 'timeline' }, { file: files }),
      limitMs: limitFor([fileA, fileB]),
    },
  );
  if (mine !== run) return;
  status.hideProgress();
  if (state.phase === 'drawing') update({ phase });
  if (reply.type !== 'result') {
    comparingFailed(reply, fileA, opts, mine);
    return;
  }
  comparing = { fileA, fileB };
  document.body.dataset.compare = 'on';
  showTimelineBox(true);
  timeline.show({ ...reply, fileName: fileB.name, baselineName: fileA.name });
  status.setStatus(`Comparing ${fileB.name} (B) with ${fileA.name} (A).`);
  revealTimeline();
}

// The comparison could not be opened: said, and B's timeline again (opening
// the comparison closed it).
async function comparingFailed(reply, fileA, opts, mine) {
  leaveComparison();
  timelineKey = null;
  if (reply.type === 'cancelled') {
    cancelled();
    return;
  }
  const words =
    reply.type === 'stalled'
      ? `it stopped responding (no progress for ${reply.seconds} s)`
      : (reply.wording ?? reply.message);
  status.showError(
    { file: reply.file ?? fileA.name, message: `The comparison could not be opened: ${words}` },
    { origin: 'compare' },
  );
  const phase = state.phase;
  await drawTimeline(opts, mine, { reveal: false });
  if (mine === run && state.phase === 'drawing') update({ phase });
}

function leaveComparison() {
  comparing = null;
  delete document.body.dataset.compare;
}

// Back to B's timeline alone.
async function endComparison() {
  if (!comparing) return;
  const mine = run;
  const phase = state.phase;
  leaveComparison();
  status.clearError('compare');
  timelineKey = null;
  await drawTimeline(options.read(), mine);
  if (mine === run && state.phase === 'drawing') update({ phase });
}

function wireComparison() {
  $('compare-with').addEventListener('click', () => $('compare-input').click());
  $('compare-input').addEventListener('change', (e) => {
    const [fileA] = e.target.files;
    e.target.value = '';
    const fileB = timelineFile();
    if (fileA && fileB) compareRuns(fileA, fileB);
  });
  $('compare-end').addEventListener('click', () => endComparison());
}

// ---- Open in speedscope -------------------------------------------------------------
// The visible window (with the options' ranks, filters and minimum duration)
// as a speedscope document within the viewer's budget: the whole run's output
// when the window is the whole run and it fits; else the window, narrowed
// around its middle until it fits (the timeline counts its calls).

async function openInSpeedscope() {
  const file = timelineFile();
  if (!file || !timeline.timeline) return;
  const mine = run;
  const opts = options.read();
  const have = budget.budget();
  const maxCalls = budget.maxCalls(have);
  const button = $('open-in-speedscope');
  button.disabled = true;
  try {
    if (converting) await converting;
    if (mine !== run) return;
    const whole = timeline.isWholeRun && !opts.timeWindow;
    const output = state.outputs[state.current];
    if (whole && output && budget.fits(budget.cost(output.calls), have)) {
      await openViewer(state.current);
      return;
    }
    const w = timeline.window;
    const fit = await engine.query('fit', {
      timeline: timeline.timeline,
      start: w.start,
      end: w.end,
      maxCalls,
    });
    if (mine !== run || fit.type !== 'result') return;
    if (maxCalls < 1 || fit.calls > maxCalls) {
      status.setStatus(`speedscope's budget in this browser is too small for ${plural(fit.calls, 'call')}.`);
      return;
    }
    showViewerBox(`${file.name}: converting ${describeWindow(fit)} for speedscope…`);
    update({ viewer: 'starting' });
    // speedscope starts in a hidden frame while the window is converted.
    viewer.prepare(placeholder(`Converting ${describeWindow(fit)}…`));
    // Timeline times count from its origin; a time window from the run's first call.
    const origin = timeline.originInRun;
    const windowOptions = { ...opts, timeWindow: [`${origin + fit.start}ns`, `${origin + fit.end}ns`] };
    const { reply, from } = await writeWindow(file, windowOptions, mine);
    if (mine !== run) return;
    status.hideProgress();
    if (reply.type !== 'result' || !reply.outputs.length) {
      if (reply.type === 'result') status.setStatus('No call in that window.');
      else if (reply.type !== 'cancelled') reportFailure(reply, [file]);
      update({ viewer: 'none' });
      viewer.clear(placeholder(''));
      return;
    }
    const [result] = reply.outputs;
    $('viewer-title').textContent =
      `speedscope: ${file.name}, ${describeWindow(fit)} (${plural(result.calls, 'call')})`;
    // The window as the options would say it (from the run's first call), and
    // what wrote it ('timeline' or 'file'), for tests.
    $('viewer-title').dataset.timeWindow = windowOptions.timeWindow.join(':');
    $('viewer-title').dataset.writtenFrom = from;
    update({ viewer: 'starting', viewerMessage: '' });
    viewer.show({ fileName: result.fileName, blob: result.blob });
    await revealViewer();
  } finally {
    button.disabled = false;
  }
}

// The window's document: written from the open timeline's columns when it
// holds what the options select and every rank of its file (the file is not
// read again), else converted from the file (a timeline of some ranks of a
// multi-rank file refuses: the region order could depend on ranks it lacks).
// Resolves with the reply (convert's) and where it came from.
async function writeWindow(file, windowOptions, mine) {
  const watch = {
    onProgress: (p) => {
      if (mine === run) status.showProgress(p, { file: file.name });
    },
    limitMs: limitFor([file]),
  };
  if (timelineKey === timelineKeyOf(file, windowOptions)) {
    const { filepath, timeWindow, minDuration } = windowOptions;
    status.showProgress({ phase: 'window', done: 0, total: 0 }, { file: file.name });
    const reply = await engine.exportDocument(timeline.timeline, { filepath, timeWindow, minDuration }, watch);
    if (reply.type !== 'refused') return { reply, from: 'timeline' };
  }
  status.showProgress({ phase: 'read', done: 0, total: 0 }, { file: file.name });
  const reply = await engine.request('convert', { files: [file], options: windowOptions }, watch);
  return { reply, from: 'file' };
}

const describeWindow = (w) => `${exactTime(w.start)} to ${exactTime(w.end)}`;

function showViewerBox(title) {
  $('viewer-box').hidden = false;
  $('viewer-title').textContent = title;
  delete $('viewer-title').dataset.timeWindow;
}

function closeViewerBox() {
  $('viewer-box').hidden = true;
}

async function revealViewer() {
  await nextFrame();
  $('viewer-box').scrollIntoView({ block: 'start' });
  viewer.frame?.focus();
}

async function showBudget(e, opts, mine) {
  update({ phase: 'waiting' });
  status.hideProgress();
  $('budget-text').textContent =
    `${e.largest.file.name}: the selection holds ${plural(e.calls, 'call')}. ` +
    `Showing them would take speedscope ${seconds(e.need.seconds)} and ${bytes(e.need.bytes)} of memory; ` +
    `in this browser it can show about ${plural(budget.maxCalls(e.have), 'call')}. ` +
    `${state.chart === 'painted' ? 'The timeline above shows every call. ' : ''}` +
    'Show less of the run in speedscope, or convert it all to download.';
  $('budget-suggestion').hidden = true;
  $('budget-apply').hidden = true;
  $('budget').hidden = false;
  status.setStatus(waitingText());
  if (state.chart !== 'painted') $('budget').scrollIntoView({ block: 'nearest' });
  if (state.features.narrowing) await suggest(e, opts, mine);
}

// The core's suggestion for the largest file: a minimum duration or a time
// window that keeps a quick first look's worth of calls
// (budget.suggestedEvents), whichever keeps more (the core's `preferred`).
const waitingText = () =>
  state.chart === 'painted'
    ? 'The timeline shows every call; too big to convert for speedscope at once: see below the timeline.'
    : 'Waiting: the run is too big to show at once.';

async function suggest(e, opts, mine) {
  status.showProgress({ phase: 'suggest', total: 0 });
  const reply = await overviewOf(e.largest.file, opts, budget.suggestedEvents(e.have));
  if (mine !== run) return;
  status.hideProgress();
  status.setStatus(waitingText());
  if (reply.type !== 'result') {
    if (reply.type !== 'cancelled') reportFailure(reply, [e.largest.file]);
    return;
  }
  overviewView.show(reply.overview);
  overviewKey = JSON.stringify([state.selection, e.largest.file.name, opts.ranks, opts.include, opts.exclude]);
  const s = reply.overview.suggestion;
  const byDuration = s?.preferred === 'minDuration';
  const choice = byDuration ? s.minDuration : s?.preferred === 'timeWindow' ? s.timeWindow : null;
  if (!choice) return;
  const setting = byDuration
    ? { minDuration: choice.value }
    : { timeWindow: { start: choice.value[0], end: choice.value[1] } };
  const words = byDuration
    ? `leave out calls shorter than ${choice.value}`
    : `show ${choice.value[0]} s to ${choice.value[1]} s of the run`;
  $('budget-suggestion').textContent = `Suggested: ${words}, which keeps ${plural(choice.calls, 'call')}.`;
  $('budget-suggestion').hidden = false;
  const apply = $('budget-apply');
  apply.textContent = byDuration ? `Show calls of ${choice.value} or longer` : 'Show that time window';
  apply.hidden = false;
  apply.onclick = () => {
    options.apply(setting);
    convertIfItFits({ automatic: false, show: true });
  };
}

async function convert(opts, mine, { reveal, show = false }) {
  const files = goodFiles().map((f) => f.file);
  const current = state.current;
  downloads.release(state.outputs);
  update({ phase: 'converting', outputs: [], viewer: 'none' });
  downloads.render([], 0, site.viewerPage);
  viewer.clear(placeholder(''));
  closeViewerBox();
  status.showProgress({ phase: 'read', done: 0, total: 0 }, { file: fileList(files) });
  const started = performance.now();
  performance.mark('scope-speedscope:convert-start');
  const job = writeDownload(files, opts, {
    onProgress: (p) => {
      if (mine === run) status.showProgress(p, { file: fileList(files) });
    },
    limitMs: limitFor(files),
  });
  converting = job;
  const reply = await job;
  if (converting === job) converting = null;
  if (mine !== run) return;
  status.hideProgress();
  if (reply.type === 'cancelled') {
    cancelled();
    return;
  }
  if (reply.type !== 'result') {
    reportFailure(reply, files);
    update({ phase: 'failed' });
    viewer.clear(placeholder(''));
    return;
  }
  performance.mark('scope-speedscope:converted');
  const took = ((performance.now() - started) / 1000).toFixed(1);
  showReadyOutputs(reply.outputs, `Converted in ${took} s`, { reveal, show, current });
  reportTimelineFailure();
  loadOverview();
}

// The download of one file whose timeline is open with these ranks and
// filters: written from the timeline's columns, the file is not read again
// (the engine refuses only a narrowing whose region order depends on ranks
// it does not hold); else converted from the files. data-download-from on
// the bar says which ('timeline' or 'file'), for tests.
async function writeDownload(files, opts, watch) {
  const [file] = files;
  let reply = null;
  if (files.length === 1 && timeline.timeline && timelineKey === timelineKeyOf(file, opts)) {
    const { filepath, timeWindow, minDuration } = opts;
    reply = await engine.exportDocument(timeline.timeline, { filepath, timeWindow, minDuration }, watch);
  }
  const from = reply && reply.type !== 'refused' ? 'timeline' : 'file';
  if (from === 'file') reply = await engine.request('convert', { files, options: opts }, watch);
  $('bar').dataset.downloadFrom = from;
  return reply;
}

// The engine was replaced (a stall, a trap, a crash, or a cancelled open):
// the timeline it held is gone. Said once; the page shows the rest.
function engineRestarted(reason) {
  if (!timeline.timeline || reason === 'cancelled') return;
  timeline.clear();
  timelineKey = null;
  leaveComparison();
  showTimelineBox(false);
  update({ chart: 'none' });
}

// Shows outputs that exist: [{ fileName, blob, size, calls }] (the worker's,
// or ones converted elsewhere and handed to the page): the bar's links, and
// the first one in the viewer when it fits the budget. `what` starts the
// status line.
// show: open the output in speedscope (outputs that come without a timeline,
// and a conversion asked for to be shown); else the timeline stays the view.
export function showReadyOutputs(results, what, { reveal = true, show = true, current = 0 } = {}) {
  downloads.release(state.outputs);
  const outputs = downloads.makeOutputs(results);
  const index = current < outputs.length ? current : 0;
  update({ outputs, current: index, phase: 'done' });
  $('work').hidden = false;
  downloads.render(outputs, index, site.viewerPage);
  status.setStatus(`${what}: ${outputs.map((o) => `${o.fileName} (${bytes(o.size)})`).join(', ')}.`);
  if (show) showOutput(index, { reveal });
}

// Opens the viewer on an output that fits the budget; holds it otherwise.
function showOutput(index, { reveal = true } = {}) {
  const output = state.outputs[index];
  if (!output) return;
  if (budget.fits(budget.cost(output.calls), budget.budget())) openViewer(index, { reveal });
  else holdViewer(index);
}

function cancelled() {
  status.hideProgress();
  update({ phase: 'cancelled', ...(state.chart === 'opening' ? { chart: 'none' } : {}) });
  status.setStatus('Cancelled.');
  viewer.clear(placeholder(''));
  if (state.viewer !== 'none') update({ viewer: 'none' });
}

// A failed request, said once: the core's message (or its words for people),
// the file named once; a problem with an option on its field.
function reportFailure(reply, files, origin = 'convert') {
  const file = reply.file ?? (files.length === 1 ? files[0].name : null);
  if (reply.type === 'stalled') {
    status.showError(
      {
        file,
        message:
          `${file ?? 'The file'} made the converter stop responding ` +
          `(no progress for ${reply.seconds} s), so it was stopped and restarted. The file is probably damaged.`,
      },
      { origin },
    );
    status.setStatus('The converter was restarted.');
    return;
  }
  if (reply.trap) {
    status.showError(
      {
        file,
        message:
          `${file ?? 'The file'} is damaged: the converter failed while reading it ` + '(the converter was restarted).',
      },
      { origin },
    );
    status.setStatus('The converter was restarted.');
    return;
  }
  const line = reply.index != null && ['include', 'exclude'].includes(reply.field) ? `Line ${reply.index + 1}: ` : '';
  if (reply.field && options.showFieldError(reply.field, `${line}${reply.wording ?? reply.message}`)) {
    openOptions(true);
    options.focusField(reply.field);
    status.setStatus('Check the option marked below.');
    return;
  }
  status.showError({ ...reply, file }, { origin });
  status.setStatus(origin === 'inspect' ? 'Could not read a file.' : 'Conversion failed.');
}

// ---- the viewer -----------------------------------------------------------------

function placeholder(text, ...more) {
  return el(
    'div',
    { className: 'placeholder', 'data-testid': 'viewer-placeholder' },
    text ? el('p', { text }) : null,
    ...more,
  );
}

async function openViewer(index, { reveal = true } = {}) {
  const output = state.outputs[index];
  if (!output) return;
  update({ current: index, viewer: 'starting', viewerMessage: '' });
  downloads.render(state.outputs, index, site.viewerPage);
  showViewerBox(`speedscope: ${output.fileName}${state.chart === 'painted' ? ', the whole run' : ''}`);
  viewer.show(output);
  $('fullscreen').hidden = false;
  if (!reveal) return;
  await nextFrame();
  // Someone who opened the options meanwhile is working there: the page must
  // not scroll away under their pointer.
  const busy = document.activeElement;
  if (busy && (busy === $('options-toggle') || $('options-panel').contains(busy))) return;
  // Without a timeline (results served by `scope-speedscope view`) the bar
  // and speedscope fill the window; below a timeline, speedscope does.
  const besideOptions = $('options-panel').hidden || getComputedStyle($('options-panel')).gridColumnStart === '2';
  ($('timeline-box').hidden && besideOptions ? $('work') : $('viewer-box')).scrollIntoView({ block: 'start' });
  viewer.frame?.focus();
}

function holdViewer(index) {
  const output = state.outputs[index];
  const need = budget.cost(output.calls);
  update({ current: index, viewer: 'held' });
  downloads.render(state.outputs, index, site.viewerPage);
  showViewerBox(`speedscope: ${output.fileName}`);
  viewer.clear(
    placeholder(
      `${output.fileName} holds ${plural(output.calls, 'call')}: more than the viewer's ` +
        `budget. Showing it would take speedscope ${seconds(need.seconds)} and ${bytes(need.bytes)} of memory. ` +
        'The download has the complete file.',
      el('button', {
        type: 'button',
        className: 'button',
        'data-testid': 'show-anyway',
        text: 'Show anyway',
        onclick: () => openViewer(index),
      }),
    ),
  );
  status.setStatus(`${output.fileName} converted; not shown (too big for the viewer).`);
}

function viewerStatus(status_, { fileName, reason, message, ms }) {
  if (status_ === 'painted') {
    performance.mark('scope-speedscope:painted');
    update({ viewer: 'painted' });
    status.setStatus(
      `${fileName}: flame chart shown${ms != null ? ` (speedscope took ${(ms / 1000).toFixed(1)} s)` : ''}.`,
    );
    return;
  }
  if (status_ !== 'failed') {
    update({ viewer: status_ });
    if (status_ === 'importing') status.setStatus(`Opening ${fileName} in speedscope…`);
    return;
  }
  let text;
  if (reason === 'too-deep') {
    text =
      `speedscope cannot show ${fileName}: its calls nest deeper than speedscope can draw ` +
      '(some thousands of levels). The download has the complete file; excluding the deeply nested region may help.';
  } else if (reason === 'dead') {
    text =
      `The viewer stopped while showing ${fileName}${message ? ` (${message})` : ', most likely out of memory'}. ` +
      'The download has the complete file; fewer ranks, a filter or narrowing make it smaller.';
  } else {
    text = `speedscope cannot show ${fileName}: ${message}. The download has the complete file.`;
  }
  update({ viewer: 'failed', viewerMessage: text });
  const note = el('p', { className: 'viewer-failed', role: 'alert', 'data-testid': 'viewer-note', text });
  viewer.clear(
    placeholder(
      '',
      note,
      el('button', {
        type: 'button',
        className: 'button',
        text: 'Try again',
        onclick: () => openViewer(state.current),
      }),
    ),
  );
  status.setStatus('The flame chart could not be shown; the download works.');
}

// ---- the bar ----------------------------------------------------------------------

// Another output: its download, its file's timeline; speedscope closes.
async function chooseOutput(index) {
  if (!state.outputs[index]) return;
  update({ current: index, viewer: 'none' });
  downloads.render(state.outputs, index, site.viewerPage);
  viewer.clear(placeholder(''));
  if ($('timeline-box').hidden && !timelineKey && !timelineFailure) {
    showOutput(index); // no timeline (served results): speedscope shows the output
    return;
  }
  closeViewerBox();
  const mine = run;
  const phase = state.phase;
  await drawTimeline(options.read(), mine);
  if (mine === run && state.phase === 'drawing') update({ phase });
}

function openOptions(open) {
  $('options-panel').hidden = !open;
  $('stage').classList.toggle('with-options', open);
  $('options-toggle').setAttribute('aria-expanded', String(open));
  if (open) loadOverview();
}

// The overview of the largest file's selection, for picking a time window.
// It reads the file, so only when the options are open and the converter idle.
let overviewKey = null;
let overviewRunning = null; // the key of the overview the converter reads, while it does
const overviewKeyOf = (opts) =>
  JSON.stringify([state.selection, estimate(opts).largest.file.name, opts.ranks, opts.include, opts.exclude]);

async function loadOverview() {
  if (!state.features.narrowing || $('options-panel').hidden || engine.busy || !goodFiles().length) return;
  const opts = options.read();
  const { largest } = estimate(opts);
  const key = overviewKeyOf(opts);
  if (key === overviewKey) return;
  overviewKey = key;
  overviewRunning = key;
  const mine = run;
  const reply = await overviewOf(largest.file, opts, null);
  if (overviewRunning === key) overviewRunning = null;
  if (mine !== run || reply.type !== 'result') {
    overviewKey = null;
    return;
  }
  overviewView.show(reply.overview);
  overviewView.mark(options.currentWindow());
}

// The core's overview of `file`'s selection (with the suggestion for
// maxEvents): from the timeline's columns when it holds that file, ranks and
// filters (the file is not read again), else read from the file.
async function overviewOf(file, opts, maxEvents) {
  if (timeline.timeline && !comparing && timelineKey === timelineKeyOf(file, opts)) {
    const options = maxEvents == null ? {} : { maxEvents };
    const reply = await engine.query('overview', { timeline: timeline.timeline, options });
    if (reply.type === 'result') return reply;
  }
  const options = { ranks: opts.ranks, include: opts.include, exclude: opts.exclude };
  if (maxEvents != null) options.maxEvents = maxEvents;
  return engine.request('overview', { file, options }, { limitMs: limitFor([file], { silent: true }) });
}

// The overview of a selection the options have just left is of no use, and it
// reads the whole file beside the timeline's worker opening the new one (All
// ranks of the 96 M-call job painted 28.6 s after the pick with it, 20.9 s
// without): the converter stops it.
function stopStaleOverview(opts) {
  if (overviewRunning && overviewRunning !== overviewKeyOf(opts)) engine.cancel();
}

function wireBar() {
  $('options-toggle').addEventListener('click', () => openOptions($('options-panel').hidden));
  $('output-select').addEventListener('change', (e) => chooseOutput(Number(e.target.value)));
  // Full screen: the timeline, or speedscope where there is no timeline.
  // The timeline's controls live in the bar: its full screen is the bar and the chart.
  const fullscreenTarget = () => ($('timeline-box').hidden ? $('viewer-box') : $('work'));
  $('fullscreen').addEventListener('click', () => toggleFullscreen(fullscreenTarget()).catch(() => {}));
  document.addEventListener('fullscreenchange', () => {
    actionsMenu.markPressed(
      $('fullscreen'),
      !!document.fullscreenElement && document.fullscreenElement === fullscreenTarget(),
    );
    timeline.invalidate();
  });
  actionsMenu.setUp();
  $('cancel').addEventListener('click', () => {
    engine.cancelAll(); // an open replaces the engine; a conversion or export is dropped
    cancelled();
    $('options-toggle').focus();
  });
  $('open-in-speedscope').addEventListener('click', () => openInSpeedscope());
  $('back-to-timeline').addEventListener('click', () => {
    $('timeline-box').scrollIntoView({ block: 'start' });
    $('tl-chart').focus({ preventScroll: true });
  });
  $('budget-convert').addEventListener('click', () => convertIfItFits({ automatic: false }));
  $('budget-narrow').addEventListener('click', () => {
    openOptions(true);
    $('options-panel').scrollIntoView({ block: 'start' });
    document.querySelector('#ranks input, #min-duration')?.focus();
  });
  // The bar's height, for the viewer to fill the rest of the window.
  new ResizeObserver(([entry]) => {
    $('work').style.setProperty('--bar-height', `${Math.ceil(entry.borderBoxSize[0].blockSize)}px`);
  }).observe($('bar'));
}

// ---- start ------------------------------------------------------------------------

async function boot() {
  // Offline use: once the first chart is painted (timelinePainted), or when
  // idle; the service worker's first install would slow the first file down.
  registerServiceWorkerWhenIdle(() => ['inspecting', 'preparing', 'drawing'].includes(state.phase));
  // Outputs that `scope-speedscope view` converted and serves (?result=).
  loadServedResults((outputs) => showReadyOutputs(outputs, 'Converted by scope-speedscope view')).catch((err) => {
    $('work').hidden = false;
    status.showError({ message: err.message });
  });
  picker.setUp({
    chosen: (files, how) => choose(files, how),
    example: site.exampleFile,
    failed: (message) => {
      $('work').hidden = false;
      status.clearError();
      status.showError({ message });
    },
  });
  options.setUp({
    changed: ({ explicit = false } = {}) => {
      if (!goodFiles().length) return;
      convertIfItFits({ automatic: !explicit, reveal: explicit });
    },
  });
  wireBar();
  wireComparison();
  overviewView.setUp({
    picked: (range) => {
      options.setWindow(range);
      overviewView.mark(range);
      convertIfItFits({ automatic: true, reveal: false });
    },
  });
  engine.onRestart = engineRestarted;
  const init = await engine.start();
  if (init.type === 'result') {
    update({ version: init.version, features: init.features });
    options.setFeatures(init.features);
    document.body.dataset.narrowing = String(!!init.features.narrowing);
    $('version-line').textContent = `scope-speedscope ${init.version}, running in your browser.`;
  } else {
    $('version-line').textContent = 'The converter failed to load.';
    $('work').hidden = false;
    status.showError(init);
  }
}

boot();
