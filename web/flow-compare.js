// The page's flow: two runs compared on the timeline (Compare with…).

import { $, plural } from './dom.js';
import { cancelled, limitFor } from './flow-convert.js';
import { linkShown } from './flow-link.js';
import { drawTimeline, revealTimeline, showTimelineBox, timelineFile } from './flow-timeline.js';
import * as options from './options.js';
import { engine, timeline } from './parts.js';
import { flow, state, update } from './state.js';
import * as status from './status.js';

// "Compare with…" (or two files dropped at once) opens run A, the baseline,
// and run B, the timeline's file, together in the page's engine
// (timeline-compare-open, with the options' ranks and filters): B's lanes
// coloured by their calls' ratios to A's, A's beneath, the regions of both.
// Other ranks or filters compare again with them; End comparison (or other
// files, or another output's) goes back to B alone.
// A run's name: its file's, or a job's first file's and how many more.
const runName = (run) => (Array.isArray(run) ? `${run[0].name} + ${plural(run.length - 1, 'more file')}` : run.name);

// Either run may be one job's files (an array, opened as one run).
export async function compareRuns(fileA, fileB) {
  const mine = flow.run;
  const phase = state.phase;
  const opts = options.read();
  const ranks = options.allRanks() ? 'all' : opts.ranks;
  const files = `${runName(fileB)} against ${runName(fileA)}`;
  status.clearError('compare');
  document.body.dataset.compare = 'opening';
  update({ phase: 'drawing', chart: 'opening' });
  status.showProgress({ phase: 'timeline', total: 0 }, { file: files });
  const reply = await engine.openComparison(
    fileA,
    fileB,
    { ranks, include: opts.include, exclude: opts.exclude, sourceLocations: true },
    {
      onProgress: (p) => mine === flow.run && status.showProgress({ ...p, phase: 'timeline' }, { file: files }),
      limitMs: limitFor([fileA, fileB].flat()),
    },
  );
  if (mine !== flow.run) return;
  status.hideProgress();
  if (state.phase === 'drawing') update({ phase });
  if (reply.type !== 'result') {
    comparingFailed(reply, fileA, opts, mine);
    return;
  }
  flow.comparing = { fileA, fileB };
  document.body.dataset.compare = 'on';
  showTimelineBox(true);
  flow.unchecked = 0; // a comparison's download is converted from the files
  timeline.show({ ...reply, fileName: runName(fileB), baselineName: runName(fileA) });
  linkShown({ comparing: true });
  status.setStatus(`Comparing ${runName(fileB)} (B) with ${runName(fileA)} (A).`);
  revealTimeline();
}

// The comparison could not be opened: said, and B's timeline again (opening
// the comparison closed it).
export async function comparingFailed(reply, fileA, opts, mine) {
  leaveComparison();
  flow.timelineKey = null;
  if (reply.type === 'cancelled') {
    cancelled();
    return;
  }
  const words =
    reply.type === 'stalled'
      ? `it stopped responding (no progress for ${reply.seconds} s)`
      : (reply.wording ?? reply.message);
  status.showError(
    { file: reply.file ?? runName(fileA), message: `The comparison could not be opened: ${words}` },
    { origin: 'compare' },
  );
  const phase = state.phase;
  await drawTimeline(opts, mine, { reveal: false });
  if (mine === flow.run && state.phase === 'drawing') update({ phase });
}

export function leaveComparison() {
  flow.comparing = null;
  delete document.body.dataset.compare;
}

// Back to B's timeline alone.
export async function endComparison() {
  if (!flow.comparing) return;
  const mine = flow.run;
  const phase = state.phase;
  leaveComparison();
  status.clearError('compare');
  flow.timelineKey = null;
  await drawTimeline(options.read(), mine);
  if (mine === flow.run && state.phase === 'drawing') update({ phase });
}

export function wireComparison() {
  $('compare-with').addEventListener('click', () => $('compare-input').click());
  $('compare-input').addEventListener('change', (e) => {
    // Several files chosen: run A is one job's files.
    const chosen = [...e.target.files];
    const fileA = chosen.length > 1 ? chosen : chosen[0];
    e.target.value = '';
    const fileB = flow.job ?? timelineFile();
    if (fileA && fileB) compareRuns(fileA, fileB);
  });
  $('compare-end').addEventListener('click', () => endComparison());
}
