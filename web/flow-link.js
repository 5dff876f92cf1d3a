// The page's flow: a link to the view (the fragment of view-link.js). The
// page keeps its view in the address as it changes: wheel, drag, pan and
// keys replace the history's entry (once the view rests a moment); a
// selection, a region chosen, a zoom to a call, a rank choice and opening
// or ending a comparison add one (Back goes to the view before). An
// address with a view waits for its file: picking a file of the same name
// and size whose run starts at the same instant (the engine's runOrigin)
// restores the view; another file says so and opens as usual; a fragment
// that cannot be read is said and ignored. A job written one file per
// process is named by its first file (the one holding its lowest rank) and
// how many files it is: choosing those files restores its view, choosing
// only some of them says so. A served page (serve FILE...) opens its runs
// at once, so its link alone reopens the view. The fragment
// is never sent anywhere (a browser keeps it out of requests), and Copy
// link never holds a served engine's token (the server's cookie does).

import { $, plural } from './dom.js';
import { compareRuns, endComparison } from './flow-compare.js';
import { convertIfItFits } from './flow-convert.js';
import { timelineFile } from './flow-timeline.js';
import * as options from './options.js';
import { timeline } from './parts.js';
import { flow, goodFiles, state } from './state.js';
import * as status from './status.js';
import { fragmentToView, rangesText, viewToFragment } from './view-link.js';

const REPLACE_MS = 250;

const link = {
  pending: null, // the address's view, waiting for its file to be chosen
  restoring: null, // { view, file, partner, popped }: its file chosen, waiting for its timeline
  awaitPartner: null, // a restored view that compared its file with a run not chosen
  timer: 0, // a replaceState waiting for the view to rest
  latest: null, // the fragment that replaceState will write
  partners: new Map(), // name -> File of the runs compared with in this page
};

const isElementId = (id) => !!document.getElementById(decodeURIComponent(id));
const sameFile = (file, view) => file.name === view.file.name && file.size === view.file.size;
// How many files a run is (one job's Files, or one File).
const filesOf = (run) => (Array.isArray(run) ? run.length : 1);
const aJob = (view) => `a job of ${view.files} files (the first ${view.file.name})`;

// The notice of what became of a link (one line; empty: none). It stands
// in the drop zone before a file is chosen, below the bar after.
function notice(text) {
  const box = $('link-notice');
  box.textContent = text;
  box.hidden = !text;
  if (!text) return;
  if ($('work').hidden) $('dropzone').append(box);
  else $('error').after(box);
}

// At the start: the address's view, kept until a file is chosen.
export function readLink() {
  window.addEventListener('popstate', () => popped());
  const parsed = fragmentToView(window.location.hash, isElementId);
  if (parsed.error) {
    notice(`The view in this address could not be read (${parsed.error}); it was ignored.`);
    return;
  }
  if (!parsed.view) return;
  link.pending = parsed.view;
  const { file, files } = parsed.view;
  const bytes = `${file.size.toLocaleString('en-US')} bytes`;
  notice(
    files > 1
      ? `This link shows a view of a job of ${files} files, the first ${file.name} (${bytes}): choose all ${files} of them to see it.`
      : `This link shows a view of ${file.name} (${bytes}): choose that file to see it.`,
  );
}

// New files were chosen (files: their Files, after inspecting; against:
// the run they are compared with, a served `A... vs B...`'s A): the link's
// ranks go into the options when its run is among them. Returns [A, B]
// when the link compared two of them, else null.
export function linkChosen(files, against = null) {
  const view = link.pending;
  link.pending = null;
  link.restoring = null;
  link.awaitPartner = null;
  notice('');
  if (!view) return null;
  const partner = view.partner ? partnerAmong(files, against, view.partner) : null;
  const run = flow.job ?? files.find((f) => f !== partner && sameFile(f, view));
  const file = run && firstOf(run);
  if (!file || !sameFile(file, view)) {
    const chosen = flow.job
      ? `${file.name} + ${plural(flow.job.length - 1, 'more file')}`
      : files.map((f) => f.name).join(', ');
    notice(
      `The link shows a view of ${view.files > 1 ? aJob(view) : view.file.name}, not of ${chosen}: its own view is shown.`,
    );
    return null;
  }
  if (filesOf(run) !== view.files) {
    notice(someOfAJob(view, run));
    return null;
  }
  options.setRanks(view.ranks);
  link.restoring = { view, file, partner, popped: false };
  return partner && !Array.isArray(partner) && files.includes(partner) ? [partner, file] : null;
}

// The run a link compared with: one of the files chosen, or the run they
// are compared with (its first file of that name).
function partnerAmong(files, against, name) {
  if (against && firstOf(against).name === name) return against;
  return files.find((f) => f.name === name) ?? null;
}

// The link's run's first file was chosen, but not with the files it was.
function someOfAJob(view, run) {
  const n = filesOf(run);
  if (view.files === 1) {
    return `The link shows a view of ${view.file.name} alone, not of a job of ${n} files: their own view is shown.`;
  }
  const chosen = n === 1 ? `only ${view.file.name} was chosen` : `${n} of its files were chosen`;
  return `The link shows a view of ${aJob(view)}; ${chosen}: choose all ${view.files} of them to see it. The default view is shown.`;
}

// A timeline (comparing: a comparison) was shown and made exact: the
// link's view restored on it, or the page's view written.
export async function linkShown({ comparing }) {
  const id = timeline.timeline;
  if (!comparing) await flow.completed;
  if (timeline.timeline !== id || !id) return;
  if (comparing) link.partners.set(firstOf(flow.comparing.fileA).name, flow.comparing.fileA);
  const r = link.restoring;
  if (r && ((r.partner && !comparing) || currentFile() !== r.file)) return; // its file or comparison comes next
  if (r) {
    link.restoring = null;
    restoreOn(r, comparing);
    return;
  }
  const waiting = link.awaitPartner;
  if (waiting && comparing && firstOf(flow.comparing.fileA).name === waiting.partner) {
    link.awaitPartner = null;
    timeline.restore(waiting);
    write('replace');
    return;
  }
  write(sameRunInAddress() ? 'push' : 'replace');
}

function restoreOn({ view, popped }, comparing) {
  if (timeline.runOrigin !== view.file.origin) {
    notice(
      `The link shows a view of another run named ${view.file.name} (its calls start at another instant): this file's own view is shown.`,
    );
    if (!popped) defaultView();
    return;
  }
  timeline.restore(view);
  if (view.partner && !comparing) {
    link.awaitPartner = view;
    notice(
      `This view compared ${view.file.name} with ${view.partner}: choose ${view.partner} with Compare with… to compare them again.`,
    );
  }
  if (!popped) write('replace');
}

// The chosen file's default view: the options back to their defaults.
function defaultView() {
  options.reset(goodFiles().map((f) => f.info));
  convertIfItFits({ automatic: true, reveal: false });
}

function sameRunInAddress() {
  const parsed = fragmentToView(window.location.hash, isElementId);
  return !!parsed.view && sameRunAs(parsed.view);
}

// Whether the timeline shows the run of `view`: its first file, how many
// files and its first call.
function sameRunAs(view) {
  const file = currentFile();
  return (
    !!file && sameFile(file, view) && filesOf(currentRun()) === view.files && view.file.origin === timeline.runOrigin
  );
}

// A job's files a link names by its first: the one holding its lowest rank
// (the job's order, whichever order they were chosen in); else the first.
function firstOf(run) {
  if (!Array.isArray(run)) return run;
  const lowest = (file) => {
    const ranks = state.files.find((e) => e.file === file)?.info?.ranks ?? [];
    return ranks.reduce((low, r) => Math.min(low, r.rank), Infinity);
  };
  return run.reduce((first, f) => (lowest(f) < lowest(first) ? f : first), run[0]);
}
const currentRun = () => flow.comparing?.fileB ?? flow.job ?? timelineFile();
const currentFile = () => firstOf(currentRun());

// The view as a fragment, or null while there is none to write (no
// timeline, a provisional one, a link's view still to restore).
function currentFragment() {
  const file = currentFile();
  if (!timeline.timeline || timeline.provisional || !file || link.restoring || link.pending) return null;
  return viewToFragment({
    file: { name: file.name, size: file.size, origin: timeline.runOrigin },
    files: filesOf(currentRun()),
    ranks: options.allRanks() ? 'all' : options.selectedRanks(),
    ...timeline.viewState,
    partner: flow.comparing ? firstOf(flow.comparing.fileA).name : null,
  });
}

function flushReplace() {
  clearTimeout(link.timer);
  if (link.latest !== null && `#${link.latest}` !== window.location.hash) {
    window.history.replaceState(null, '', `#${link.latest}`);
  }
  link.latest = null;
}

// how: 'push' (a new history entry) or 'replace' (once the view rests).
function write(how) {
  const fragment = currentFragment();
  if (fragment === null) return;
  if (how === 'push') {
    flushReplace();
    if (`#${fragment}` !== window.location.hash) window.history.pushState(null, '', `#${fragment}`);
    return;
  }
  link.latest = fragment;
  clearTimeout(link.timer);
  link.timer = setTimeout(flushReplace, REPLACE_MS);
}

// The timeline's view changed (TimelineView's onView).
export function viewChanged(how) {
  write(how);
}

// Back or Forward to another view of the same run: shown again (its ranks
// or comparison opened again when they differ), without a new entry.
function popped() {
  const parsed = fragmentToView(window.location.hash, isElementId);
  const file = currentFile();
  if (!parsed.view || !file || !timeline.timeline || link.restoring) return;
  const view = parsed.view;
  if (!sameRunAs(view)) return;
  clearTimeout(link.timer);
  link.latest = null;
  const ranksNow = options.allRanks() ? 'all' : rangesText(options.selectedRanks());
  const partnerNow = flow.comparing ? firstOf(flow.comparing.fileA).name : null;
  if (ranksNow === (view.ranks === 'all' ? 'all' : rangesText(view.ranks)) && partnerNow === view.partner) {
    timeline.restore(view);
    return;
  }
  const partner = view.partner ? (link.partners.get(view.partner) ?? null) : null;
  link.restoring = { view, file, partner, popped: true };
  options.setRanks(view.ranks);
  if (partnerNow && !view.partner) endComparison();
  else if (partner) compareRuns(partner, file);
  else convertIfItFits({ automatic: true, reveal: false });
}

// Copy link (the Actions menu): the address of this view, without a token.
export async function copyLink() {
  flushReplace();
  const url = new URL(window.location.href);
  url.searchParams.delete('token');
  const text = url.toString();
  $('copy-link').dataset.link = text;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  status.setStatus('The link to this view was copied.');
}
