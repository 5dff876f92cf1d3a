// The page's flow: the bar (outputs, options, full screen, cancel) and the
// options' overview (from the timeline's columns when it holds the selection).

import * as actionsMenu from './actions-menu.js';
import { $ } from './dom.js';
import * as downloads from './downloads.js';
import { cancelled, convertIfItFits, estimate, limitFor, showOutput } from './flow-convert.js';
import { drawTimeline, timelineKeyOf } from './flow-timeline.js';
import { placeholder } from './flow-viewer.js';
import { closeViewerBox, openInSpeedscope } from './flow-window.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { engine, params, timeline, viewer } from './parts.js';
import { SERVED } from './remote-engine.js';
import * as site from './site.js';
import { flow, goodFiles, state, update } from './state.js';
import { toggleFullscreen } from './viewer.js';

// Another output: its download, its file's timeline; speedscope closes.
export async function chooseOutput(index) {
  if (!state.outputs[index]) return;
  update({ current: index, viewer: 'none' });
  downloads.render(state.outputs, index, site.viewerPage);
  viewer.clear(placeholder(''));
  if ($('timeline-box').hidden && !flow.timelineKey && !flow.timelineFailure) {
    showOutput(index); // no timeline (served results): speedscope shows the output
    return;
  }
  closeViewerBox();
  const mine = flow.run;
  const phase = state.phase;
  await drawTimeline(options.read(), mine);
  if (mine === flow.run && state.phase === 'drawing') update({ phase });
}

export function openOptions(open) {
  $('options-panel').hidden = !open;
  $('stage').classList.toggle('with-options', open);
  $('options-toggle').setAttribute('aria-expanded', String(open));
  if (open) loadOverview();
}

export const overviewKeyOf = (opts) =>
  JSON.stringify([state.selection, estimate(opts).largest.file.name, opts.ranks, opts.include, opts.exclude]);

export async function loadOverview() {
  if (!state.features.narrowing || $('options-panel').hidden || engine.busy || !goodFiles().length) return;
  const opts = options.read();
  const { largest } = estimate(opts);
  // Served, the overview comes from the timeline's columns only: reading
  // the file there is the server reading all of it (a big job's gigabytes,
  // beside the timeline it holds), and the timeline of these options is
  // on its way (its export asks again once it is drawn).
  if (SERVED && !timelineHolds(largest.file, opts)) return;
  const key = overviewKeyOf(opts);
  if (key === flow.overviewKey) return;
  flow.overviewKey = key;
  flow.overviewRunning = key;
  const mine = flow.run;
  const reply = await overviewOf(largest.file, opts, null);
  if (flow.overviewRunning === key) flow.overviewRunning = null;
  if (mine !== flow.run || reply.type !== 'result') {
    flow.overviewKey = null;
    return;
  }
  overviewView.show(reply.overview);
  overviewView.mark(options.currentWindow());
}

// The core's overview of `file`'s selection (with the suggestion for
// maxEvents): from the timeline's columns when it holds that file, ranks and
// filters (the file is not read again), else read from the file.
const timelineHolds = (file, opts) =>
  timeline.timeline && !flow.comparing && flow.timelineKey === timelineKeyOf(file, opts);

// The timeline's overview comes in slices of the engine's size (?overview-calls=N: N calls, tests).
const OVERVIEW_SLICES = Number(params.get('overview-calls')) || true;

export async function overviewOf(file, opts, maxEvents) {
  await flow.opened; // then the timeline shown is the one opened for these options
  if (timelineHolds(file, opts)) {
    const options = maxEvents == null ? { slices: OVERVIEW_SLICES } : { maxEvents, slices: OVERVIEW_SLICES };
    const reply = await engine.overview(timeline.timeline, options);
    if (reply.type === 'result' || reply.type === 'cancelled') return reply;
  }
  const options = { ranks: opts.ranks, include: opts.include, exclude: opts.exclude };
  if (maxEvents != null) options.maxEvents = maxEvents;
  return engine.request('overview', { file, options }, { limitMs: limitFor([file], { silent: true }) });
}

// The overview of a selection the options have just left is of no use: its
// answer is dropped (one read from the file keeps the engine busy until it
// ends; an overview of what the timeline holds comes from its columns).
export function stopStaleOverview(opts) {
  if (flow.overviewRunning && flow.overviewRunning !== overviewKeyOf(opts)) engine.cancel();
}

export function wireBar() {
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
    flow.cancels += 1; // a conversion still waiting for the timeline's completion never starts
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
