// The page's flow: Open in speedscope, a window of the timeline as a
// document within the viewer's budget.

import * as budget from './budget.js';
import { $, nextFrame, plural } from './dom.js';
import { limitFor, reportFailure } from './flow-convert.js';
import { timelineFile, timelineKeyOf } from './flow-timeline.js';
import { openViewer, placeholder } from './flow-viewer.js';
import * as options from './options.js';
import { engine, timeline, viewer } from './parts.js';
import { flow, state, update } from './state.js';
import * as status from './status.js';
import { exactTime } from './timeline/format.js';

// The visible window (with the options' ranks, filters and minimum duration)
// as a speedscope document within the viewer's budget: the whole run's output
// when the window is the whole run and it fits; else the window, narrowed
// around its middle until it fits (the timeline counts its calls).
export async function openInSpeedscope() {
  const file = timelineFile();
  if (!file || !timeline.timeline) return;
  const cancels = flow.cancels;
  await flow.completed; // its origin in the run is the file's
  if (!timeline.timeline || flow.cancels !== cancels) return;
  const mine = flow.run;
  const opts = options.read();
  const have = budget.budget();
  const maxCalls = budget.maxCalls(have);
  const button = $('open-in-speedscope');
  button.disabled = true;
  try {
    if (flow.converting) await flow.converting;
    if (mine !== flow.run) return;
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
    if (mine !== flow.run || fit.type !== 'result') return;
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
    if (mine !== flow.run) return;
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
export async function writeWindow(file, windowOptions, mine) {
  const watch = {
    onProgress: (p) => {
      if (mine === flow.run) status.showProgress(p, { file: file.name });
    },
    limitMs: limitFor([file]),
  };
  if (flow.timelineKey === timelineKeyOf(file, windowOptions)) {
    const { filepath, timeWindow, minDuration, sourceLocations } = windowOptions;
    status.showProgress({ phase: 'window', done: 0, total: 0 }, { file: file.name });
    const reply = await engine.exportDocument(
      timeline.timeline,
      { filepath, timeWindow, minDuration, sourceLocations },
      watch,
    );
    if (reply.type !== 'refused') return { reply, from: 'timeline' };
  }
  status.showProgress({ phase: 'read', done: 0, total: 0 }, { file: file.name });
  const reply = await engine.request('convert', { files: [file], options: windowOptions }, watch);
  return { reply, from: 'file' };
}

export const describeWindow = (w) => `${exactTime(w.start)} to ${exactTime(w.end)}`;

export function showViewerBox(title) {
  $('viewer-box').hidden = false;
  $('viewer-title').textContent = title;
  delete $('viewer-title').dataset.timeWindow;
}

export function closeViewerBox() {
  $('viewer-box').hidden = true;
}

export async function revealViewer() {
  await nextFrame();
  $('viewer-box').scrollIntoView({ block: 'start' });
  viewer.frame?.focus();
}
