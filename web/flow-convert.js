// The page's flow: the estimate, the viewer's budget and converting for the
// download (written from the timeline's columns when it holds the file,
// else from the file), and the outputs shown.

import * as budget from './budget.js';
import { $, bytes, plural, seconds } from './dom.js';
import * as downloads from './downloads.js';
import { loadOverview, openOptions, overviewOf, stopStaleOverview } from './flow-bar.js';
import { drawTimeline, reportTimelineFailure, timelineKeyOf } from './flow-timeline.js';
import { holdViewer, openViewer, placeholder } from './flow-viewer.js';
import { closeViewerBox } from './flow-window.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { engine, params, timeline, viewer } from './parts.js';
import * as site from './site.js';
import { flow, goodFiles, state, update } from './state.js';
import * as status from './status.js';

// How long the converter may go without a sign of progress before it is
// stopped and restarted (?stall-limit-ms= for tests). Conversions report
// progress as they go; reading what a file holds does not, so it gets twice
// as long; large files get longer.
export const STALL_MS = Number(params.get('stall-limit-ms')) || 30_000;

export const STALL_BYTES_PER_MS = 10_000; // 10 MB/s

export const limitFor = (files, { silent = false } = {}) =>
  Math.max(STALL_MS * (silent ? 2 : 1), files.reduce((n, f) => n + f.size, 0) / STALL_BYTES_PER_MS);

export const fileList = (files) => files.map((f) => f.name).join(', ');

// The viewer shows one output at a time, and each input file gives one output:
// the budget applies to each file's calls. Before converting, the inspection
// gives them for the chosen ranks (exact without filters or narrowing, else
// an upper bound); after converting, the writer's count is exact.
export function estimate(opts) {
  const ranks = opts.ranks ? new Set(opts.ranks) : null;
  const each = goodFiles().map(({ file, info }) => ({
    file,
    calls: info.ranks.reduce((n, r) => n + (!ranks || ranks.has(r.rank) ? r.calls : 0), 0),
  }));
  // A job's files give one document: all their calls.
  const files = flow.job ? [{ file: each[0].file, calls: each.reduce((n, f) => n + f.calls, 0) }] : each;
  const largest = files.reduce((a, b) => (b.calls > a.calls ? b : a), files[0]);
  const have = budget.budget();
  const need = budget.cost(largest?.calls ?? 0);
  const exact = !opts.include && !opts.exclude && !opts.minDuration && !opts.timeWindow;
  return { files, largest, calls: need.calls, exact, need, have, fits: budget.fits(need, have) };
}

export function describeEstimate(e) {
  const what = `${e.exact ? '' : 'at most '}${plural(e.calls, 'call')}${e.files.length > 1 ? ' in the largest file' : ''}`;
  return (
    `Selected: ${what}; speedscope needs ${seconds(e.need.seconds)} and ${bytes(e.need.bytes)} ` +
    'of memory to show them.'
  );
}

// automatic: a new selection or changed options (waits when it surely is over
// the budget); otherwise the person asked: convert, and show what fits.
// reveal: scroll to the chart and move focus to it (not while someone edits an option).
export async function convertIfItFits({ automatic, reveal = true, show = false }) {
  const mine = ++flow.run;
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
    if (mine !== flow.run) return;
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
  if (drawn === 'cancelled' || mine !== flow.run) return;
  if (drawn === 'failed' && flow.job) {
    // A job's files that cannot open as one (the core names them): said
    // now; converting each file on its own is not what was asked.
    reportTimelineFailure();
    update({ phase: 'failed' });
    status.setStatus('These files cannot be opened as one job.');
    return;
  }
  // The engine answers one request at a time: the first paint's bars come
  // before the download is written (at most a second's wait: a hidden tab
  // paints nothing).
  if (drawn === 'drawn') await Promise.race([flow.firstPaint, new Promise((done) => setTimeout(done, 1000))]);
  if (mine !== flow.run) return;
  const e = estimate(opts);
  update({ estimate: e });
  options.setEstimate(describeEstimate(e));
  if (automatic && e.exact && !e.fits) {
    await showBudget(e, opts, mine);
    return;
  }
  await convert(opts, mine, { reveal, show });
}

export async function showBudget(e, opts, mine) {
  // The outputs of the selection before are not this one's: no Download of
  // them, and Open in speedscope writes this selection's window (their
  // blobs, a whole rank's document, given back).
  downloads.release(state.outputs);
  update({ phase: 'waiting', outputs: [], current: 0 });
  downloads.render([], 0, site.viewerPage);
  if (state.viewer !== 'none') {
    viewer.clear(placeholder(''));
    closeViewerBox();
    update({ viewer: 'none' });
  }
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
export const waitingText = () =>
  state.chart === 'painted'
    ? 'The timeline shows every call; too big to convert for speedscope at once: see below the timeline.'
    : 'Waiting: the run is too big to show at once.';

export async function suggest(e, opts, mine) {
  status.showProgress({ phase: 'suggest', total: 0 });
  const reply = await overviewOf(e.largest.file, opts, budget.suggestedEvents(e.have));
  if (mine !== flow.run) return;
  status.hideProgress();
  status.setStatus(waitingText());
  if (reply.type !== 'result') {
    if (reply.type !== 'cancelled') reportFailure(reply, [e.largest.file]);
    return;
  }
  overviewView.show(reply.overview);
  flow.overviewKey = JSON.stringify([state.selection, e.largest.file.name, opts.ranks, opts.include, opts.exclude]);
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

export async function convert(opts, mine, { reveal, show = false }) {
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
      if (mine === flow.run) status.showProgress(p, { file: fileList(files) });
    },
    limitMs: limitFor(files),
  });
  flow.converting = job;
  const reply = await job;
  if (flow.converting === job) flow.converting = null;
  if (mine !== flow.run) return;
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
// The ranks the timeline did not read, which its download must read to
// check them (the file's export fails on damage there), are read a slice
// of about CHECK_CALLS calls at a time (timeline-check): between slices the
// engine answers the timeline's requests, so zooming goes on while a big
// job's first download is prepared. A failed check stops the slices: the
// export reads them all and says why, as the file's export would. False
// when Cancel came meanwhile. (?check-calls=N sets the slice: tests.)
const CHECK_CALLS = Number(params.get('check-calls')) || 4_000_000;

async function checkRest(watch, cancels) {
  const total = flow.unchecked;
  while (flow.unchecked > 0) {
    const reply = await engine.query('check', { timeline: timeline.timeline, calls: CHECK_CALLS });
    if (flow.cancels !== cancels) return false;
    if (reply.type !== 'result' || !reply.ok) return true;
    flow.unchecked = reply.left;
    watch.onProgress?.({ phase: 'check', done: total - reply.left, total });
  }
  return true;
}

export async function writeDownload(files, opts, watch) {
  const [file] = files;
  let reply = null;
  const cancels = flow.cancels;
  await flow.completed; // the timeline's order is the file's
  if (flow.cancels !== cancels) return { type: 'cancelled' }; // Cancel came while it waited
  // (A job's files: its one document, written from the job's timeline.)
  const one = files.length === 1 || flow.job?.length === files.length;
  if (one && timeline.timeline && flow.timelineKey === timelineKeyOf(file, opts)) {
    if (!(await checkRest(watch, cancels))) return { type: 'cancelled' };
    const { filepath, timeWindow, minDuration, sourceLocations } = opts;
    reply = await engine.exportDocument(
      timeline.timeline,
      { filepath, timeWindow, minDuration, sourceLocations },
      watch,
    );
  }
  const from = reply && reply.type !== 'refused' ? 'timeline' : 'file';
  if (from === 'file') reply = await engine.request('convert', { files, options: opts }, watch);
  $('bar').dataset.downloadFrom = from;
  return reply;
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
export function showOutput(index, { reveal = true } = {}) {
  const output = state.outputs[index];
  if (!output) return;
  if (budget.fits(budget.cost(output.calls), budget.budget())) openViewer(index, { reveal });
  else holdViewer(index);
}

export function cancelled() {
  status.hideProgress();
  update({ phase: 'cancelled', ...(state.chart === 'opening' ? { chart: 'none' } : {}) });
  status.setStatus('Cancelled.');
  viewer.clear(placeholder(''));
  if (state.viewer !== 'none') update({ viewer: 'none' });
}

// A failed request, said once: the core's message (or its words for people),
// the file named once; a problem with an option on its field.
export function reportFailure(reply, files, origin = 'convert') {
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
