// The page's flow: a dropped or chosen file is inspected and converted at once
// with export_speedscope's defaults (rank 0, every region), and the flame chart
// fills the window. A run too big for the viewer waits, with the estimate and
// a way to narrow it. Changed options convert again. The modules:
//   state.js (the page state), dom.js (DOM helpers), picker.js (choosing files),
//   options.js (the options panel), files-view.js (what files hold),
//   worker-client.js + worker.js (the converter), budget.js (the viewer's budget),
//   viewer.js (speedscope in a sandboxed frame), downloads.js (the bar's links),
//   status.js (status line, progress, the error box), site.js (where the parts come from),
//   offline.js (the service worker), served-result.js (outputs `scope-speedscope view` serves).

import * as budget from './budget.js';
import { $, bytes, count, el, nextFrame, plural, seconds } from './dom.js';
import * as downloads from './downloads.js';
import * as filesView from './files-view.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { registerServiceWorker } from './offline.js';
import * as picker from './picker.js';
import { loadServedResults } from './served-result.js';
import * as site from './site.js';
import { goodFiles, state, update } from './state.js';
import * as status from './status.js';
import { Viewer, toggleFullscreen } from './viewer.js';
import { ConverterClient } from './worker-client.js';

const params = new URLSearchParams(window.location.search);
// How long the converter may go without a sign of progress before it is
// stopped and restarted (?stall-limit-ms= for tests). Conversions report
// progress as they go; reading what a file holds does not, so it gets twice
// as long; large files get longer.
const STALL_MS = Number(params.get('stall-limit-ms')) || 30_000;
const STALL_BYTES_PER_MS = 10_000;  // 10 MB/s

const converter = new ConverterClient(site.createWorker);
const viewer = new Viewer({ box: $('viewer-box'), load: site.loadViewer, onStatus: viewerStatus });
let run = 0;  // bumps with every selection and every conversion started; late replies are dropped

const limitFor = (files, { silent = false } = {}) =>
  Math.max(STALL_MS * (silent ? 2 : 1), files.reduce((n, f) => n + f.size, 0) / STALL_BYTES_PER_MS);
const fileList = (files) => files.map((f) => f.name).join(', ');

// ---- choosing files -----------------------------------------------------------

async function choose(files) {
  const mine = ++run;
  performance.mark('scope-speedscope:chosen');
  converter.cancel();
  options.cancelPending();
  clearResults();
  overviewView.clear();
  overviewKey = null;
  update({ selection: state.selection + 1, files: files.map((file) => ({ file, info: null, error: null })),
           phase: 'inspecting', estimate: null });
  $('work').hidden = false;
  $('bar-files').textContent = fileList(files);
  filesView.render(state.files);
  for (const entry of state.files) {
    status.showProgress({ phase: 'inspect', total: 0 }, { file: entry.file.name });
    const reply = await converter.request('inspect', { file: entry.file },
                                          { limitMs: limitFor([entry.file], { silent: true }) });
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
  await convertIfItFits({ automatic: true });
}

function clearResults() {
  downloads.release(state.outputs);
  update({ outputs: [], current: 0, viewer: 'none', viewerMessage: '' });
  downloads.render([], 0, site.viewerPage);
  viewer.clear(placeholder(''));
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
    file, calls: info.ranks.reduce((n, r) => n + (!ranks || ranks.has(r.rank) ? r.calls : 0), 0),
  }));
  const largest = files.reduce((a, b) => (b.calls > a.calls ? b : a), files[0]);
  const have = budget.budget();
  const need = budget.cost(largest?.calls ?? 0);
  const exact = !opts.include && !opts.exclude && !opts.minDuration && !opts.timeWindow;
  return { files, largest, calls: need.calls, exact, need, have, fits: budget.fits(need, have) };
}

function describeEstimate(e) {
  const what = `${e.exact ? '' : 'at most '}${plural(e.calls, 'call')}${e.files.length > 1 ? ' in the largest file' : ''}`;
  return `Selected: ${what}; speedscope needs ${seconds(e.need.seconds)} and ${bytes(e.need.bytes)} ` +
    'of memory to show them.';
}

// automatic: a new selection or changed options (waits when it surely is over
// the budget); otherwise the person asked: convert, and show what fits.
// reveal: scroll to the chart and move focus to it (not while someone edits an option).
async function convertIfItFits({ automatic, reveal = true }) {
  const mine = ++run;
  update({ phase: 'preparing', attempts: state.attempts + 1 });
  if (!options.hasRank()) {
    update({ phase: 'waiting' });
    status.setStatus('Choose at least one rank to convert.');
    return;
  }
  const opts = options.read();
  options.clearFieldErrors();
  status.clearError('convert');
  $('budget').hidden = true;
  if (state.features.checkPattern && (opts.include || opts.exclude)) {
    const reply = await converter.request('check', { include: opts.include, exclude: opts.exclude });
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
  const e = estimate(opts);
  update({ estimate: e });
  options.setEstimate(describeEstimate(e));
  if (automatic && e.exact && !e.fits) {
    await showBudget(e, opts, mine);
    return;
  }
  await convert(opts, mine, { reveal });
}

async function showBudget(e, opts, mine) {
  update({ phase: 'waiting' });
  status.hideProgress();
  $('budget-text').textContent = `${e.largest.file.name}: the selection holds ${plural(e.calls, 'call')}. ` +
    `Showing them would take speedscope ${seconds(e.need.seconds)} and ${bytes(e.need.bytes)} of memory; ` +
    `in this browser it can show about ${plural(budget.maxCalls(e.have), 'call')}. ` +
    'Show less of the run, or convert it all to download.';
  $('budget-suggestion').hidden = true;
  $('budget-apply').hidden = true;
  $('budget').hidden = false;
  status.setStatus('Waiting: the run is too big to show at once.');
  $('budget').scrollIntoView({ block: 'nearest' });
  if (state.features.narrowing) await suggest(e, opts, mine);
}

// The core's suggestion for the largest file: a minimum duration or a time
// window that keeps a quick first look's worth of calls
// (budget.suggestedEvents), whichever keeps more (the core's `preferred`).
async function suggest(e, opts, mine) {
  status.showProgress({ phase: 'suggest', total: 0 });
  const reply = await converter.request('overview', {
    file: e.largest.file,
    options: { ranks: opts.ranks, include: opts.include, exclude: opts.exclude,
               maxEvents: budget.suggestedEvents(e.have) },
  }, { limitMs: limitFor([e.largest.file], { silent: true }) });
  if (mine !== run) return;
  status.hideProgress();
  status.setStatus('Waiting: the run is too big to show at once.');
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
  const setting = byDuration ? { minDuration: choice.value }
    : { timeWindow: { start: choice.value[0], end: choice.value[1] } };
  const words = byDuration ? `leave out calls shorter than ${choice.value}`
    : `show ${choice.value[0]} s to ${choice.value[1]} s of the run`;
  $('budget-suggestion').textContent = `Suggested: ${words}, which keeps ${plural(choice.calls, 'call')}.`;
  $('budget-suggestion').hidden = false;
  const apply = $('budget-apply');
  apply.textContent = byDuration ? `Show calls of ${choice.value} or longer` : 'Show that time window';
  apply.hidden = false;
  apply.onclick = () => {
    options.apply(setting);
    convertIfItFits({ automatic: false });
  };
}

async function convert(opts, mine, { reveal }) {
  const files = goodFiles().map((f) => f.file);
  downloads.release(state.outputs);
  update({ phase: 'converting', outputs: [], current: 0, viewer: 'none' });
  downloads.render([], 0, site.viewerPage);
  $('fullscreen').hidden = true;
  viewer.clear(placeholder('Converting…'));
  status.showProgress({ phase: 'read', done: 0, total: 0 }, { file: fileList(files) });
  const started = performance.now();
  performance.mark('scope-speedscope:convert-start');
  const reply = await converter.request('convert', { files, options: opts }, {
    onProgress: (p) => { if (mine === run) status.showProgress(p, { file: fileList(files) }); },
    limitMs: limitFor(files),
  });
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
  showReadyOutputs(reply.outputs, `Converted in ${took} s`, { reveal });
  loadOverview();
}

// Shows outputs that exist: [{ fileName, blob, size, calls }] (the worker's,
// or ones converted elsewhere and handed to the page): the bar's links, and
// the first one in the viewer when it fits the budget. `what` starts the
// status line.
export function showReadyOutputs(results, what, { reveal = true } = {}) {
  downloads.release(state.outputs);
  const outputs = downloads.makeOutputs(results);
  update({ outputs, current: 0, phase: 'done' });
  $('work').hidden = false;
  downloads.render(outputs, 0, site.viewerPage);
  status.setStatus(`${what}: ${outputs.map((o) => `${o.fileName} (${bytes(o.size)})`).join(', ')}.`);
  showOutput(0, { reveal });
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
  update({ phase: 'cancelled' });
  status.setStatus('Cancelled.');
  viewer.clear(placeholder(''));
}

// A failed request, said once: the core's message (or its words for people),
// the file named once; a problem with an option on its field.
function reportFailure(reply, files, origin = 'convert') {
  const file = reply.file ?? (files.length === 1 ? files[0].name : null);
  if (reply.type === 'stalled') {
    status.showError({ file, message: `${file ?? 'The file'} made the converter stop responding ` +
      `(no progress for ${reply.seconds} s), so it was stopped and restarted. The file is probably damaged.` },
    { origin });
    status.setStatus('The converter was restarted.');
    return;
  }
  if (reply.trap) {
    status.showError({ file, message: `${file ?? 'The file'} is damaged: the converter failed while reading it ` +
      '(the converter was restarted).' }, { origin });
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
  return el('div', { className: 'placeholder', 'data-testid': 'viewer-placeholder' },
    text ? el('p', { text }) : null, ...more);
}

async function openViewer(index, { reveal = true } = {}) {
  const output = state.outputs[index];
  if (!output) return;
  update({ current: index, viewer: 'starting', viewerMessage: '' });
  downloads.render(state.outputs, index, site.viewerPage);
  viewer.show(output);
  $('fullscreen').hidden = false;
  if (!reveal) return;
  await nextFrame();
  // Someone who opened the options meanwhile is working there: the page must
  // not scroll away under their pointer.
  const busy = document.activeElement;
  if (busy && (busy === $('options-toggle') || $('options-panel').contains(busy))) return;
  // The bar and the chart fill the window; on a narrow screen with the
  // options open above the chart, the chart alone does.
  const besideOptions = $('options-panel').hidden || getComputedStyle($('options-panel')).gridColumnStart === '2';
  (besideOptions ? $('work') : $('viewer-box')).scrollIntoView({ block: 'start' });
  viewer.frame?.focus();
}

function holdViewer(index) {
  const output = state.outputs[index];
  const need = budget.cost(output.calls);
  update({ current: index, viewer: 'held' });
  downloads.render(state.outputs, index, site.viewerPage);
  $('fullscreen').hidden = true;
  viewer.clear(placeholder(`${output.fileName} holds ${plural(output.calls, 'call')}: more than the viewer's ` +
    `budget. Showing it would take speedscope ${seconds(need.seconds)} and ${bytes(need.bytes)} of memory. ` +
    'The download has the complete file.',
  el('button', { type: 'button', className: 'button', 'data-testid': 'show-anyway', text: 'Show anyway',
                 onclick: () => openViewer(index) })));
  status.setStatus(`${output.fileName} converted; not shown (too big for the viewer).`);
}

function viewerStatus(status_, { fileName, reason, message, ms }) {
  if (status_ === 'painted') {
    performance.mark('scope-speedscope:painted');
    update({ viewer: 'painted' });
    status.setStatus(`${fileName}: flame chart shown${ms != null ? ` (speedscope took ${(ms / 1000).toFixed(1)} s)` : ''}.`);
    return;
  }
  if (status_ !== 'failed') {
    update({ viewer: status_ });
    if (status_ === 'importing') status.setStatus(`Opening ${fileName} in speedscope…`);
    return;
  }
  let text;
  if (reason === 'too-deep') {
    text = `speedscope cannot show ${fileName}: its calls nest deeper than speedscope can draw ` +
      '(some thousands of levels). The download has the complete file; excluding the deeply nested region may help.';
  } else if (reason === 'dead') {
    text = `The viewer stopped while showing ${fileName}${message ? ` (${message})` : ', most likely out of memory'}. ` +
      'The download has the complete file; fewer ranks, a filter or narrowing make it smaller.';
  } else {
    text = `speedscope cannot show ${fileName}: ${message}. The download has the complete file.`;
  }
  update({ viewer: 'failed', viewerMessage: text });
  $('fullscreen').hidden = true;
  const note = el('p', { className: 'viewer-failed', role: 'alert', 'data-testid': 'viewer-note', text });
  viewer.clear(placeholder('', note, el('button', { type: 'button', className: 'button', text: 'Try again',
                                                   onclick: () => openViewer(state.current) })));
  status.setStatus('The flame chart could not be shown; the download works.');
}

// ---- the bar ----------------------------------------------------------------------

function openOptions(open) {
  $('options-panel').hidden = !open;
  $('stage').classList.toggle('with-options', open);
  $('options-toggle').setAttribute('aria-expanded', String(open));
  if (open) loadOverview();
}

// The overview of the largest file's selection, for picking a time window.
// It reads the file, so only when the options are open and the converter idle.
let overviewKey = null;
async function loadOverview() {
  if (!state.features.narrowing || $('options-panel').hidden || converter.busy || !goodFiles().length) return;
  const opts = options.read();
  const { largest } = estimate(opts);
  const key = JSON.stringify([state.selection, largest.file.name, opts.ranks, opts.include, opts.exclude]);
  if (key === overviewKey) return;
  overviewKey = key;
  const mine = run;
  const reply = await converter.request('overview', {
    file: largest.file, options: { ranks: opts.ranks, include: opts.include, exclude: opts.exclude },
  }, { limitMs: limitFor([largest.file], { silent: true }) });
  if (mine !== run || reply.type !== 'result') {
    overviewKey = null;
    return;
  }
  overviewView.show(reply.overview);
  overviewView.mark(options.currentWindow());
}

function wireBar() {
  $('options-toggle').addEventListener('click', () => openOptions($('options-panel').hidden));
  $('output-select').addEventListener('change', (e) => showOutput(Number(e.target.value)));
  $('fullscreen').addEventListener('click', () => toggleFullscreen($('viewer-box')).catch(() => {}));
  document.addEventListener('fullscreenchange', () => {
    $('fullscreen').setAttribute('aria-pressed', String(document.fullscreenElement === $('viewer-box')));
  });
  $('cancel').addEventListener('click', () => {
    converter.cancel();
    cancelled();
    $('options-toggle').focus();
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
  registerServiceWorker();
  // Outputs that `scope-speedscope view` converted and serves (?result=).
  loadServedResults((outputs) => showReadyOutputs(outputs, 'Converted by scope-speedscope view')).catch((err) => {
    $('work').hidden = false;
    status.showError({ message: err.message });
  });
  picker.setUp({
    chosen: (files) => choose(files),
    example: site.exampleFile,
    failed: (message) => {
      $('work').hidden = false;
      status.clearError();
      status.showError({ message });
    },
  });
  options.setUp({ changed: ({ explicit = false } = {}) => {
    if (!goodFiles().length) return;
    convertIfItFits({ automatic: !explicit, reveal: explicit });
  } });
  wireBar();
  overviewView.setUp({ picked: (range) => {
    options.setWindow(range);
    overviewView.mark(range);
    convertIfItFits({ automatic: true, reveal: false });
  } });
  const init = await converter.start();
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
