// The page's flow: a link to the view (the fragment of view-link.js). The
// page keeps its view in the address as it changes: wheel, drag, pan and
// keys replace the history's entry (once the view rests a moment); a
// selection, a region chosen, a zoom to a call, a rank choice and opening
// or ending a comparison add one (Back goes to the view before). An
// address with a view waits for its file: picking a file of the same name
// and size whose run starts at the same instant (the engine's runOrigin)
// restores the view; another file says so and opens as usual; a fragment
// that cannot be read is said and ignored. A served page (serve RUN.h5)
// opens its runs at once, so its link alone reopens the view. The fragment
// is never sent anywhere (a browser keeps it out of requests), and Copy
// link never holds a served engine's token (the server's cookie does).

import { $ } from './dom.js';
import { compareRuns, endComparison } from './flow-compare.js';
import { convertIfItFits } from './flow-convert.js';
import { timelineFile } from './flow-timeline.js';
import * as options from './options.js';
import { timeline } from './parts.js';
import { flow, goodFiles } from './state.js';
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
  const { name, size } = parsed.view.file;
  notice(`This link shows a view of ${name} (${size.toLocaleString('en-US')} bytes): choose that file to see it.`);
}

// New files were chosen (files: their Files, after inspecting): the
// link's ranks go into the options when its file is among them. Returns
// [A, B] when the link compared two of them, else null.
export function linkChosen(files) {
  const view = link.pending;
  link.pending = null;
  link.restoring = null;
  link.awaitPartner = null;
  notice('');
  if (!view) return null;
  const partner = view.partner ? (files.find((f) => f.name === view.partner) ?? null) : null;
  const file = files.find((f) => f !== partner && sameFile(f, view));
  if (!file) {
    const chosen = files.map((f) => f.name).join(', ');
    notice(`The link shows a view of ${view.file.name}, not of ${chosen}: its own view is shown.`);
    return null;
  }
  options.setRanks(view.ranks);
  link.restoring = { view, file, partner, popped: false };
  return partner ? [partner, file] : null;
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
  const file = currentFile();
  return !!parsed.view && !!file && sameFile(file, parsed.view) && parsed.view.file.origin === timeline.runOrigin;
}

// (A job's files, a link names by its first.)
const firstOf = (run) => (Array.isArray(run) ? run[0] : run);
const currentFile = () => firstOf(flow.comparing?.fileB ?? timelineFile());

// The view as a fragment, or null while there is none to write (no
// timeline, a provisional one, a link's view still to restore).
function currentFragment() {
  const file = currentFile();
  if (!timeline.timeline || timeline.provisional || !file || link.restoring || link.pending) return null;
  return viewToFragment({
    file: { name: file.name, size: file.size, origin: timeline.runOrigin },
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
  if (!sameFile(file, view) || view.file.origin !== timeline.runOrigin) return;
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
