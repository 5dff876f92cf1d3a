// The page's flow: choosing files. A dropped or chosen file is inspected,
// the old results cleared, and the selection converted (flow-convert.js).

import { $ } from './dom.js';
import * as downloads from './downloads.js';
import * as filesView from './files-view.js';
import { compareRuns, leaveComparison } from './flow-compare.js';
import { linkChosen } from './flow-link.js';
import { cancelled, convertIfItFits, estimate, fileList, limitFor, reportFailure } from './flow-convert.js';
import { jobOf, showTimelineBox } from './flow-timeline.js';
import { placeholder } from './flow-viewer.js';
import { closeViewerBox } from './flow-window.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { engine, timeline, viewer } from './parts.js';
import * as site from './site.js';
import { flow, goodFiles, state, update } from './state.js';
import * as status from './status.js';

// compare: two dropped files, compared once converted (the first is A).
// job: false when the files are never one job (two served runs compared).
// against: run A to compare these files' run with once converted (a File,
// or one job's Files): a served `A... vs B...`. Served files come with
// their inspect info (file.info): they are not inspected again.
export async function choose(files, { compare = false, job = null, against = null } = {}) {
  const mine = ++flow.run;
  performance.mark('scope-speedscope:chosen');
  engine.reset();
  options.cancelPending();
  clearResults();
  overviewView.clear();
  flow.overviewKey = null;
  update({
    selection: state.selection + 1,
    files: files.map((file) => ({ file, info: null, error: null })),
    phase: 'inspecting',
    estimate: null,
  });
  $('work').hidden = false;
  $('bar-files').textContent = fileList(files);
  filesView.render(state.files);
  if (!(await inspectAll(mine))) return;
  // Files holding disjoint ranks: one job's, opened as one run.
  flow.job = goodFiles().length === files.length && job !== false ? jobOf(goodFiles()) : null;
  options.reset(goodFiles().map((f) => f.info));
  // A link's view of one of them: its ranks, and the two runs it compared.
  const linked = linkChosen(
    goodFiles().map((f) => f.file),
    against,
  );
  const pair = linked ?? (compare && files.length === 2 && !flow.job ? files : null);
  if (!goodFiles().length) {
    update({ phase: 'failed' });
    status.setStatus(files.length > 1 ? 'None of these files can be converted.' : 'This file cannot be converted.');
    return;
  }
  const selection = state.selection;
  await convertIfItFits({ automatic: true });
  if (against && goodFiles().length === files.length && state.selection === selection) {
    await compareRuns(against, flow.job ?? files[0]);
  } else if (pair && goodFiles().length === files.length && state.selection === selection) {
    const b = files.indexOf(pair[1]);
    if (state.outputs.length === files.length && b !== state.current) {
      update({ current: b });
      downloads.render(state.outputs, b, site.viewerPage);
    }
    await compareRuns(pair[0], pair[1]);
  }
}

// Each chosen file's inspect info (a served file's came with it); false
// when a newer choice or a cancel took over.
async function inspectAll(mine) {
  for (const entry of state.files) {
    if (entry.file.served && entry.file.info) {
      entry.info = entry.file.info;
      continue;
    }
    status.showProgress({ phase: 'inspect', total: 0 }, { file: entry.file.name });
    const reply = await engine.request(
      'inspect',
      { file: entry.file },
      { limitMs: limitFor([entry.file], { silent: true }) },
    );
    if (mine !== flow.run) return false;
    if (reply.type === 'result') {
      entry.info = reply.info;
    } else if (reply.type === 'cancelled') {
      cancelled();
      return false;
    } else {
      entry.error = reply;
      reportFailure(reply, [entry.file], 'inspect');
    }
    filesView.render(state.files);
  }
  filesView.render(state.files);
  status.hideProgress();
  return true;
}

export function clearResults() {
  downloads.release(state.outputs);
  update({ outputs: [], current: 0, viewer: 'none', viewerMessage: '', chart: 'none' });
  downloads.render([], 0, site.viewerPage);
  viewer.clear(placeholder(''));
  closeViewerBox();
  timeline.clear();
  leaveComparison();
  flow.job = null;
  flow.timelineKey = null;
  flow.timelineFailure = null;
  showTimelineBox(false);
  status.clearError();
  status.hideProgress();
  status.setStatus('');
  options.clearFieldErrors();
  options.setEstimate('');
  $('budget').hidden = true;
  $('fullscreen').hidden = true;
}
