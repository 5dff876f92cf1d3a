// The page: a dropped or chosen file is inspected, its timeline (every
// call, drawn from the core's columns: timeline/) fills the window at once,
// and then it is converted with export_speedscope's defaults (rank 0, every
// region) for the download. speedscope shows the visible window, or the whole
// run when it fits its budget, on a click (Open in speedscope). A run too big
// for speedscope waits for a click before converting, with the estimate and a
// way to narrow it. Changed options draw and convert again. app.js starts it; one module
// a flow: flow-choose.js (choosing files), flow-convert.js (estimate, budget,
// the download), flow-timeline.js, flow-compare.js (Compare with…),
// flow-window.js (Open in speedscope), flow-viewer.js (speedscope's frame),
// flow-bar.js (the bar, the options' overview); parts.js (the engine, the
// viewer, the timeline view); what they share in state.js. The modules:
//   state.js (the page state), dom.js (DOM helpers), picker.js (choosing files),
//   options.js (the options panel), files-view.js (what files hold),
//   engine-client.js + worker.js (the page's one engine), budget.js (the viewer's budget),
//   viewer.js (speedscope in a sandboxed frame), downloads.js (the bar's links),
//   timeline/ (the timeline: its worker side, drawing, input and view),
//   status.js (status line, progress, the error box), actions-menu.js (the bar's actions,
//   a menu on phones), site.js (where the parts come from),
//   offline.js (the service worker), served-result.js (outputs `scope-speedscope view` serves).

import { $, plural } from './dom.js';
import { wireBar } from './flow-bar.js';
import { choose } from './flow-choose.js';
import { wireComparison } from './flow-compare.js';
import { convertIfItFits, showReadyOutputs } from './flow-convert.js';
import { copyLink, readLink } from './flow-link.js';
import { engineRestarted } from './flow-timeline.js';
import { registerServiceWorkerWhenIdle } from './offline.js';
import * as options from './options.js';
import * as overviewView from './overview.js';
import { PROTOCOL } from './engine-client.js';
import { engine } from './parts.js';
import { SERVED } from './remote-engine.js';
import * as picker from './picker.js';
import { loadServedResults } from './served-result.js';
import * as site from './site.js';
import { goodFiles, state, update } from './state.js';
import * as status from './status.js';

async function boot() {
  // A link to a view (#…): kept until its file is chosen.
  readLink();
  $('copy-link').addEventListener('click', () => copyLink());
  // Offline use: once the first chart is painted (timelinePainted), or when
  // idle; the service worker's first install would slow the first file down.
  registerServiceWorkerWhenIdle(() => ['inspecting', 'preparing', 'drawing'].includes(state.phase));
  // Outputs that `scope-speedscope view` converted and serves (?result=).
  loadServedResults((outputs) => showReadyOutputs(outputs, 'Converted by scope-speedscope view')).catch((err) => {
    $('work').hidden = false;
    status.showError({ message: err.message });
  });
  // Served (remote-engine.js): the server's runs, no picking.
  if (!SERVED)
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
  if (init.type === 'result' && init.protocol !== PROTOCOL) {
    $('version-line').textContent = 'This page and its engine differ in version.';
    $('work').hidden = false;
    status.showError({
      message:
        `This page speaks version ${PROTOCOL} of the engine protocol and its engine ${init.protocol ?? 'an older one'}: ` +
        'reload the page (an older copy may be cached).',
    });
  } else if (init.type === 'result') {
    update({ version: init.version, features: init.features });
    options.setFeatures(init.features);
    document.body.dataset.narrowing = String(!!init.features.narrowing);
    if (init.served) {
      openServedRuns(init.served);
    } else {
      $('version-line').textContent = `scope-speedscope ${init.version}, running in your browser.`;
    }
  } else {
    $('version-line').textContent = 'The converter failed to load.';
    $('work').hidden = false;
    status.showError(init);
  }
}

// A page `scope-speedscope serve FILE... [vs FILE...]` serves: its files open
// at once in the server's engine, as picked files would (their inspect
// info comes with them): one run; one job's files; two runs, the second
// compared against the first; or with vs, run B (its files) compared
// against run A, each one file or one job's files. The picker and Compare
// with… are hidden: that engine reads only the files it was given.
function openServedRuns(info) {
  const files = info.runs.map((r, index) => ({ name: r.name, size: r.size, served: true, index, info: r.info }));
  const pair = files.length === 2 && info.compare;
  const sides = (info.sides ?? (pair ? [[0], [1]] : [files.map((_, i) => i)])).map((side) => side.map((i) => files[i]));
  const named = (side = []) =>
    side.length > 1 ? `${side[0].name} + ${plural(side.length - 1, 'more file')}` : (side[0]?.name ?? '');
  const names = sides.length === 2 ? `${named(sides[1])} against ${named(sides[0])}` : named(sides[0]);
  $('version-line').textContent =
    `scope-speedscope ${info.version}, its ${info.engine ?? 'native'} engine on the server (${names}).`;
  document.body.dataset.engine = 'served';
  document.querySelector('.lede').textContent =
    'Served by scope-speedscope serve: the runs are read and answered on the server; this page receives what it draws.';
  if (!files.length) return;
  if (sides.length !== 2) choose(sides[0]);
  else if (sides[0].length === 1 && sides[1].length === 1)
    choose([sides[0][0], sides[1][0]], { compare: true, job: false });
  else choose(sides[1], { against: sides[0].length > 1 ? sides[0] : sides[0][0] });
}

boot();
