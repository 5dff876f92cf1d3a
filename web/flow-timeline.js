// The page's flow: the timeline of the current output's file, opened in the
// page's engine, drawn, and said when it fails.

import { $, el, nextFrame, plural } from './dom.js';
import { compareRuns, leaveComparison } from './flow-compare.js';
import { cancelled, limitFor } from './flow-convert.js';
import { linkShown } from './flow-link.js';
import { registerServiceWorker } from './offline.js';
import * as options from './options.js';
import { engine, params, timeline } from './parts.js';
import { SERVED } from './remote-engine.js';
import { flow, goodFiles, state, update } from './state.js';
import * as status from './status.js';

// Opened in the page's engine for the file of the current output; again only
// when the file, ranks or filters changed (narrowing is the download's and
// speedscope's, not the timeline's). With every rank chosen (All ranks), it
// opens every rank of its file.
export const timelineFile = () => goodFiles()[state.outputs.length === goodFiles().length ? state.current : 0]?.file;

// What a timeline of `file` with these options holds (timelineKey when shown);
// of a job's files, all of them.
export const timelineKeyOf = (file, opts) =>
  JSON.stringify([
    state.selection,
    flow.job ? flow.job.map((f) => f.name) : file.name,
    options.allRanks() ? 'all' : opts.ranks,
    opts.include,
    opts.exclude,
  ]);

// The name the timeline shows: the file's, or a job's first file's and how many more.
export const timelineName = (file) =>
  flow.job ? `${flow.job[0].name} + ${plural(flow.job.length - 1, 'more file')}` : file.name;

// Several files holding disjoint ranks (each at least one) are one job
// written one file per process: opened as one run (the core checks that
// they are one job's and says which files are not). Else null.
export function jobOf(files) {
  if (files.length < 2) return null;
  const seen = new Set();
  for (const { info } of files) {
    const ranks = (info?.ranks ?? []).map((r) => r.rank);
    if (!ranks.length) return null;
    for (const r of ranks) {
      if (seen.has(r)) return null;
      seen.add(r);
    }
  }
  return files.map((f) => f.file);
}

// The page's engine opens every rank in groups of its size (?open-calls=N:
// N calls a group, tests). (Asked when opening: parts.js imports this module.)
const openSlices = () => Number(params.get('open-calls')) || true;

// The timeline-open's options (docs/engine-protocol.md).
function openOptions(opts, ranks, { provisional, same }) {
  return {
    ranks,
    include: opts.include,
    exclude: opts.exclude,
    sourceLocations: true,
    ...(provisional ? { provisional } : {}),
    ...(same ? { sameFileAs: same } : {}),
    // A group of ranks a request in the page's engine (the same file again,
    // or every rank at once, as a link asks): zooming and a cancel go on
    // meanwhile.
    ...(!SERVED && !provisional ? { slices: openSlices() } : {}),
  };
}

export async function drawTimeline(opts, mine, { reveal = true } = {}) {
  const file = timelineFile();
  if (!state.features.timeline || !file) return null;
  const ranks = options.allRanks() ? 'all' : opts.ranks;
  const key = timelineKeyOf(file, opts);
  if (key === flow.timelineKey) return null;
  if (flow.comparing && flow.comparing.fileB === (flow.job ?? file)) {
    // Other ranks or filters: the same two runs compared with them.
    flow.timelineKey = key;
    await compareRuns(flow.comparing.fileA, flow.comparing.fileB);
    return flow.comparing ? 'drawn' : 'failed';
  }
  // The same file with other ranks or filters: the engine may read its
  // ranks a group at a time, with the open timeline's region order and
  // origin (docs/engine-protocol.md, sameFileAs).
  const same = !flow.comparing && flow.openedFrom === (flow.job ?? file) ? timeline.timeline : null;
  leaveComparison();
  flow.timelineKey = key;
  flow.timelineFailure = null;
  status.clearError('timeline');
  update({ phase: 'drawing', chart: 'opening' });
  const name = timelineName(file);
  status.showProgress({ phase: 'timeline', total: 0 }, { file: name });
  performance.mark('scope-speedscope:timeline-start');
  // Some ranks in the page: a provisional open (nothing of the other ranks
  // read, not even their first starts: most of a big job's bytes), made
  // exact once painted (completeTimeline). A served engine reads its own
  // disk: exact at once.
  const provisional = ranks !== 'all' && !SERVED;
  let answered;
  flow.opened = new Promise((done) => (answered = done));
  const reply = await engine.open(flow.job ?? file, openOptions(opts, ranks, { provisional, same }), {
    onProgress: (p) => {
      if (mine === flow.run) status.showProgress({ ...p, phase: 'timeline' }, { file: name });
    },
    limitMs: limitFor(flow.job ?? [file]),
  });
  answered();
  if (mine !== flow.run) return 'cancelled';
  status.hideProgress();
  flow.openedFrom = reply.type === 'result' ? (flow.job ?? file) : null;
  if (reply.type === 'cancelled') {
    flow.timelineKey = null;
    cancelled();
    return 'cancelled';
  }
  if (reply.type !== 'result') {
    // Said after converting, and only when the converter does not fail the
    // same way (its message is the one people get).
    flow.timelineKey = null;
    flow.timelineFailure = { reply, file };
    update({ chart: 'failed' });
    showTimelineBox(false);
    return 'failed';
  }
  showTimelineBox(true);
  $('fullscreen').hidden = false;
  flow.firstPaint = new Promise((done) => (flow.paintedNow = done));
  // A served engine checks its own disk's ranks (serve opens every rank ahead).
  flow.unchecked = SERVED ? 0 : (reply.unreadRanks?.length ?? 0);
  timeline.show({ ...reply, fileName: name });
  flow.completed = reply.provisional ? completeTimeline(reply.timeline, file, mine) : Promise.resolve();
  linkShown({ comparing: false });
  if (reveal) revealTimeline();
  return 'drawn';
}

// Once painted, the provisional timeline made exact (timeline-complete: the
// other ranks' first starts read): the same timeline with the run's origin,
// or, when another rank changed its regions' order (rare), shown anew.
async function completeTimeline(id, file, mine) {
  await flow.firstPaint;
  if (mine !== flow.run || timeline.timeline !== id) return;
  const reply = await engine.query('complete', { timeline: id });
  if (mine !== flow.run || timeline.timeline !== id || reply.type !== 'result') return;
  if (reply.changed) {
    timeline.show({ ...reply, fileName: timelineName(file) });
    linkShown({ comparing: false });
  } else timeline.completed(reply);
}

// The timeline and its controls (in the bar) show together.
export function showTimelineBox(shown) {
  $('timeline-box').hidden = !shown;
  $('tl-toolbar').hidden = !shown;
  $('copy-link').hidden = !shown;
}

export function timelinePainted(info) {
  performance.mark('scope-speedscope:timeline-painted');
  flow.paintedNow();
  update({ chart: 'painted' });
  registerServiceWorker(); // offline use, now that the first look is there (once)
  const calls = info.lanes.reduce((n, l) => n + l.calls, 0);
  if (state.phase === 'drawing') status.setStatus(`${info.fileName}: ${plural(calls, 'call')} on the timeline.`);
}

export async function revealTimeline() {
  await nextFrame();
  const busy = document.activeElement;
  if (busy && (busy === $('options-toggle') || $('options-panel').contains(busy))) return;
  const besideOptions = $('options-panel').hidden || getComputedStyle($('options-panel')).gridColumnStart === '2';
  (besideOptions ? $('work') : $('timeline-box')).scrollIntoView({ block: 'start' });
  $('tl-chart').focus({ preventScroll: true });
}

export function reportTimelineFailure() {
  if (!flow.timelineFailure) return;
  const { reply, file } = flow.timelineFailure;
  const words =
    reply.type === 'stalled'
      ? `it stopped responding (no progress for ${reply.seconds} s)`
      : (reply.wording ?? reply.message);
  status.showError({ file: file.name, message: `The timeline could not be drawn: ${words}` }, { origin: 'timeline' });
}

// A served page whose server does not answer (stopped, or the SSH tunnel
// dropped): said once, with a button that loads the page again (its cookie
// opens it again from a server started anew with the same token, or the
// server says to open its new URL). Nothing was being written: a download
// is fetched whole from the server or not at all.
function serverGone() {
  if (document.querySelector('[data-origin=served]')) return;
  timeline.clear();
  flow.timelineKey = null;
  showTimelineBox(false);
  update({ chart: 'none' });
  status.setStatus('The server does not answer.');
  status.showError(
    {
      message:
        'The server does not answer: scope-speedscope serve stopped, or the SSH tunnel to it dropped. ' +
        'Start it (or the tunnel) again, then reconnect.',
    },
    { origin: 'served' },
  );
  document
    .querySelector('[data-origin=served]')
    .append(
      ' ',
      el('button', { type: 'button', 'data-testid': 'reconnect', text: 'Reconnect', onclick: () => location.reload() }),
    );
}

// The engine was replaced (a stall, a trap, a crash, or a cancelled open):
// the timeline it held is gone. Said once; the page shows the rest.
export function engineRestarted(reason) {
  if (SERVED && reason === 'crashed') {
    serverGone();
    return;
  }
  if (!timeline.timeline || reason === 'cancelled') return;
  timeline.clear();
  flow.timelineKey = null;
  leaveComparison();
  showTimelineBox(false);
  update({ chart: 'none' });
  // A failed conversion says more when it answers (reportFailure, later).
  status.setStatus(
    reason === 'stalled'
      ? 'The engine stopped responding and was restarted; the timeline was closed.'
      : 'The engine failed and was restarted; the timeline was closed.',
  );
}
