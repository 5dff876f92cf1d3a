// The page: pick or drop .h5 files (or the bundled example), see what they
// hold, choose ranks and filters, convert in a module worker, and show the
// result in the bundled speedscope. Text from files is only ever set with
// textContent, never parsed as HTML.

import { registerServiceWorker } from './offline.js';
import { loadServedResults } from './served-result.js';
import { createWorker, exampleFile, loadViewer } from './site.js';

const $ = (id) => document.getElementById(id);

// speedscope's measured limits on this kind of machine (see the README).
const EVENTS_SLOW = 2_000_000;    // ~10 s to show
const EVENTS_HEAVY = 20_000_000;  // ~2 min and ~5 GB to show
const BYTES_PER_EVENT = 50;
const REGION_ROWS_SHOWN = 500;
const DEFAULT_OUTPUT = 'profile.speedscope.json';
// Outputs larger than this reach speedscope gzip-compressed (?gzip-above=<bytes>
// changes it, for tests): Chromium cannot read a plain Blob over about 500 MiB,
// and compressing costs seconds, so only large outputs pay for it.
const GZIP_ABOVE = Number(new URLSearchParams(window.location.search).get('gzip-above') ?? 256 * 1024 * 1024);

const PHASES = {
  load: 'Loading the converter',
  read: 'Reading the HDF5 file',
  reconstruct: 'Rebuilding call stacks',
  write: 'Writing speedscope JSON',
  packing: 'Preparing the result',
};

const state = {
  files: [],        // [{ file, info, error }]
  generation: 0,    // bumps with each new selection; stale inspections are dropped
  converting: null, // { id } while a conversion runs
  outputs: [],      // [{ fileName, size, url, viewerUrl }]
  version: null,
};

// ---- small DOM helpers ------------------------------------------------------

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

const fmt = new Intl.NumberFormat('en-US');
const count = (n) => fmt.format(n);

function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  do { v /= 1024; u++; } while (v >= 1024 && u < units.length - 1);
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

function plural(n, one, many = `${one}s`) {
  return `${count(n)} ${n === 1 ? one : many}`;
}

// ---- errors and status ------------------------------------------------------

function clearError() {
  $('error').replaceChildren();
  $('error').hidden = true;
}

// Shows "<file>: <message>" (the message is the CLI's, verbatim).
function showError(message, files = [], kind = null) {
  const box = $('error');
  const item = el('p', {},
    files.length ? el('strong', { className: 'file-name', text: files.join(', ') }) : null,
    files.length ? ': ' : null,
    el('span', { className: 'message', text: message }),
    kind ? el('span', { className: 'kind', text: ` (${kind})` }) : null);
  box.append(item);
  box.hidden = false;
}

function setStatus(text) {
  $('status').textContent = text;
}

// ---- the worker -------------------------------------------------------------

let worker = null;
let nextId = 1;
const pending = new Map();  // id -> { resolve, onProgress }

function startWorker() {
  worker = createWorker();
  worker.onmessage = ({ data }) => {
    const job = pending.get(data.id);
    if (!job) return;
    if (data.type === 'progress') {
      job.onProgress?.(data);
      return;
    }
    pending.delete(data.id);
    job.resolve(data);
  };
  worker.onerror = (event) => {
    event.preventDefault?.();
    const message = `The converter could not start${event.message ? `: ${event.message}` : ''}.`;
    for (const [id, job] of pending) {
      pending.delete(id);
      job.resolve({ id, type: 'error', kind: 'Error', message, files: [] });
    }
  };
  call('init').then((reply) => {
    if (reply.type === 'result') {
      state.version = reply.version;
      $('version-line').textContent = `scope-speedscope ${reply.version}, running in your browser.`;
    } else {
      $('version-line').textContent = 'The converter failed to load.';
      showError(reply.message, reply.files, reply.kind);
    }
  });
}

function stopWorker() {
  worker?.terminate();
  for (const [id, job] of pending) {
    pending.delete(id);
    job.resolve({ id, type: 'cancelled' });
  }
}

function call(type, payload = {}, onProgress = null) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, { resolve, onProgress });
    worker.postMessage({ id, type, ...payload });
  });
}

// ---- files ------------------------------------------------------------------

async function selectFiles(fileList, { thenConvert = false } = {}) {
  const files = [...fileList];
  if (!files.length || state.converting) return;
  const generation = ++state.generation;
  clearError();
  setStatus('');
  state.files = files.map((file) => ({ file, info: null, error: null }));
  renderFiles();
  renderRanks();
  updateEstimate();
  for (const entry of state.files) {
    const reply = await call('inspect', { file: entry.file });
    if (generation !== state.generation) return;
    if (reply.type === 'result') {
      entry.info = reply.info;
    } else if (reply.type === 'error') {
      entry.error = reply;
      showError(reply.message, reply.files.length ? reply.files : [entry.file.name], reply.kind);
    } else {
      return;  // cancelled
    }
    renderFiles();
  }
  renderRanks();
  updateEstimate();
  const good = state.files.filter((f) => f.info).length;
  setStatus(good ? `${plural(good, 'file')} ready to convert.` : 'No file can be converted.');
  if (thenConvert && good) await convert();
}

function renderFiles() {
  const box = $('files');
  box.replaceChildren(...state.files.map(renderFile));
}

function renderFile({ file, info, error }) {
  const card = el('article', { className: 'file-card', 'data-testid': 'file-card' },
    el('h3', {}, el('span', { className: 'file-name', text: file.name }),
      el('span', { className: 'size', text: ` ${bytes(file.size)}` })));
  if (error) {
    card.classList.add('bad');
    card.append(el('p', { className: 'bad-note', text: `Cannot be converted: ${error.message}` }));
    return card;
  }
  if (!info) {
    card.append(el('p', { className: 'hint', text: 'Reading…' }));
    return card;
  }
  const totalCalls = info.ranks.reduce((n, r) => n + r.calls, 0);
  const lanes = info.ranks.reduce((n, r) => n + r.lanes.length, 0);
  card.append(el('dl', { className: 'facts' },
    el('dt', { text: 'Label' }), el('dd', { 'data-testid': 'label', text: info.displayLabel ?? '' },
      info.label ? null : el('span', { className: 'hint', text: ' (file name)' })),
    el('dt', { text: 'Schema' }),
    el('dd', { text: `version ${info.schemaVersion}${info.storageLayout ? `, ${info.storageLayout}` : ''}` }),
    el('dt', { text: 'Ranks' }), el('dd', { text: `${count(info.numRanks)} (${count(info.ranks.length)} with calls)` }),
    el('dt', { text: 'Lanes' }), el('dd', { text: count(lanes) }),
    el('dt', { text: 'Calls' }), el('dd', { text: count(totalCalls) })));

  const rankRows = [];
  for (const r of info.ranks) {
    for (const lane of r.lanes) {
      rankRows.push(el('tr', {},
        el('td', { className: 'num', text: String(r.rank) }),
        el('td', { text: lane.label || '(one stack)' }),
        el('td', { className: 'num', text: count(lane.calls) })));
    }
    if (!r.lanes.length) {
      rankRows.push(el('tr', {}, el('td', { className: 'num', text: String(r.rank) }),
        el('td', { text: '—' }), el('td', { className: 'num', text: count(r.calls) })));
    }
  }
  card.append(el('details', {},
    el('summary', { text: `Ranks and lanes (${count(rankRows.length)})` }),
    el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Rank' }),
        el('th', { scope: 'col', text: 'Lane' }), el('th', { scope: 'col', className: 'num', text: 'Calls' }))),
      el('tbody', {}, rankRows))));

  const regions = info.regions.slice(0, REGION_ROWS_SHOWN);
  card.append(el('details', { open: info.regions.length <= 12 },
    el('summary', { text: `Regions (${count(info.regions.length)})` }),
    el('table', { 'data-testid': 'regions' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Region' }),
        el('th', { scope: 'col', className: 'num', text: 'Calls' }))),
      el('tbody', {}, regions.map((r) => el('tr', {},
        el('td', { className: 'region', text: r.name }),
        el('td', { className: 'num', text: count(r.calls) }))))),
    info.regions.length > regions.length
      ? el('p', { className: 'hint', text: `First ${count(regions.length)} of ${count(info.regions.length)} shown.` })
      : null));
  return card;
}

// ---- options ----------------------------------------------------------------

function knownRanks() {
  const ranks = new Map();  // rank -> calls over all files
  for (const { info } of state.files) {
    for (const r of info?.ranks ?? []) ranks.set(r.rank, (ranks.get(r.rank) ?? 0) + r.calls);
  }
  return [...ranks.entries()].sort((a, b) => a[0] - b[0]);
}

function renderRanks() {
  const box = $('ranks');
  const ranks = knownRanks();
  // The default is export_speedscope's: rank 0. A file without rank 0 (a C
  // per-rank file, say) starts from its lowest rank instead.
  const initial = ranks.some(([r]) => r === 0) ? 0 : ranks[0]?.[0];
  box.replaceChildren(...ranks.map(([rank, calls]) => el('label', { className: 'rank' },
    el('input', { type: 'checkbox', name: 'rank', value: String(rank), checked: rank === initial,
                  'data-testid': `rank-${rank}` }),
    ` rank ${rank} `, el('span', { className: 'hint', text: `(${count(calls)} calls)` }))));
  $('ranks-empty').hidden = ranks.length > 0;
  $('ranks-tools').hidden = ranks.length < 2;
  $('convert').disabled = !state.files.some((f) => f.info) || !!state.converting;
}

function selectedRanks() {
  return [...document.querySelectorAll('#ranks input[name=rank]:checked')].map((i) => Number(i.value));
}

function patterns(id) {
  const lines = $(id).value.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
  return lines.length ? lines : null;
}

// Python's re.match: a match anchored at the start only. JavaScript's syntax
// is close to Python's; the converter has the last word.
function matcher(list) {
  if (!list) return null;
  try {
    const res = list.map((p) => new RegExp(p, 'uy'));
    return (name) => res.some((re) => { re.lastIndex = 0; return re.test(name); });
  } catch {
    return undefined;
  }
}

function updateEstimate() {
  const estimate = $('estimate');
  const warning = $('warning');
  const infos = state.files.map((f) => f.info).filter(Boolean);
  if (!infos.length) {
    estimate.textContent = '';
    warning.hidden = true;
    return;
  }
  const ranks = new Set(selectedRanks());
  const include = matcher(patterns('include'));
  const exclude = matcher(patterns('exclude'));
  let calls = 0;
  let kept = 0;
  let regions = 0;
  for (const info of infos) {
    const rankCalls = info.ranks.filter((r) => ranks.has(r.rank)).reduce((n, r) => n + r.calls, 0);
    const all = info.regions.reduce((n, r) => n + r.calls, 0);
    let keptCalls = all;
    if (include !== undefined && exclude !== undefined) {
      const keep = info.regions.filter((r) => (!include || include(r.name)) && !(exclude && exclude(r.name)));
      kept += keep.length;
      keptCalls = keep.reduce((n, r) => n + r.calls, 0);
    } else {
      kept += info.regions.length;
    }
    regions += info.regions.length;
    // Region counts span all ranks: scale the selected ranks' calls by the
    // share of calls the filters keep.
    calls += all ? Math.round(rankCalls * (keptCalls / all)) : rankCalls;
  }
  const events = 2 * calls;
  const filterNote = include === undefined || exclude === undefined
    ? ' A filter is not a JavaScript regular expression; the converter will decide.'
    : '';
  estimate.textContent = `Selected: ${plural(ranks.size, 'rank')}, ${count(kept)} of ${plural(regions, 'region')}, ` +
    `about ${plural(events, 'event')} (${bytes(events * BYTES_PER_EVENT)} of JSON).${filterNote}`;
  if (events > EVENTS_HEAVY) {
    warning.textContent = `About ${count(events)} events: speedscope needs minutes and several GB of memory ` +
      'to show this many (20 M events took about 2 minutes and 5 GB here). Consider fewer ranks or a region filter; ' +
      'the download works regardless.';
    warning.hidden = false;
  } else if (events > EVENTS_SLOW) {
    warning.textContent = `About ${count(events)} events: speedscope takes roughly 10 seconds per 2 million events to show them.`;
    warning.hidden = false;
  } else {
    warning.hidden = true;
  }
}

// ---- converting -------------------------------------------------------------

function showProgress({ phase, done, total }) {
  const area = $('progress-area');
  const bar = $('progress');
  area.hidden = false;
  const name = PHASES[phase] ?? phase;
  if (area.dataset.phase && area.dataset.phase !== phase) {
    $('phases').append(el('li', { text: PHASES[area.dataset.phase] ?? area.dataset.phase }));
  }
  area.dataset.phase = phase;
  if (total > 0) {
    bar.max = total;
    bar.value = Math.min(done, total);
  } else {
    bar.removeAttribute('value');  // indeterminate
  }
  const pct = total ? Math.floor((100 * done) / total) : 0;
  $('progress-label').textContent = total ? `${name}: ${pct}% (${count(done)} of ${count(total)})` : `${name}…`;
  bar.setAttribute('aria-valuetext', $('progress-label').textContent);
}

function resetProgress() {
  const area = $('progress-area');
  area.hidden = true;
  delete area.dataset.phase;
  $('phases').replaceChildren();
  $('progress').value = 0;
  $('progress-label').textContent = 'Starting…';
}

function setBusy(busy) {
  $('convert').disabled = busy || !state.files.some((f) => f.info);
  $('cancel').hidden = !busy;
  $('file-input').disabled = busy;
  $('example').disabled = busy;
  document.body.classList.toggle('busy', busy);
}

function clearOutputs() {
  for (const o of state.outputs) {
    URL.revokeObjectURL(o.url);
    if (o.viewerUrl !== o.url) URL.revokeObjectURL(o.viewerUrl);
  }
  state.outputs = [];
  $('outputs').hidden = true;
  $('output-select').replaceChildren();
  $('downloads').replaceChildren();
  $('viewer-note').hidden = true;
  $('viewer-box').replaceChildren(
    el('p', { className: 'placeholder', id: 'viewer-placeholder', text: 'The converted profile opens here.' }));
}

async function convert() {
  const files = state.files.filter((f) => f.info).map((f) => f.file);
  if (!files.length || state.converting) return;
  clearError();
  clearOutputs();
  resetProgress();
  const options = {
    filepath: $('output-name').value.trim() || DEFAULT_OUTPUT,
    // No rank to choose from (a file without calls): export_speedscope's default.
    ranks: knownRanks().length ? selectedRanks() : null,
    include: patterns('include'),
    exclude: patterns('exclude'),
  };
  const job = { id: null };
  state.converting = job;
  setBusy(true);
  setStatus(`Converting ${plural(files.length, 'file')}…`);
  showProgress({ phase: 'load', done: 0, total: 0 });
  const started = performance.now();
  const reply = await call('convert', { files, options, gzipAbove: GZIP_ABOVE }, showProgress);
  if (state.converting !== job) return;  // cancelled meanwhile
  state.converting = null;
  setBusy(false);
  resetProgress();
  if (reply.type === 'error') {
    setStatus('Conversion failed.');
    showError(reply.message, reply.files, reply.kind);
    return;
  }
  if (reply.type !== 'result') return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  showOutputs(reply.outputs, `Converted in ${seconds} s`);
}

// Shows outputs ([{ fileName, blob, viewerBlob?, size }]): downloads, the
// selector and the first one in the viewer. `what` starts the status line.
function showOutputs(outputs, what) {
  clearOutputs();
  state.outputs = outputs.map(({ fileName, blob, viewerBlob, size }) => {
    const url = URL.createObjectURL(blob);
    return { fileName, size, url, viewerUrl: viewerBlob ? URL.createObjectURL(viewerBlob) : url };
  });
  setStatus(`${what}: ${state.outputs.map((o) => `${o.fileName} (${bytes(o.size)})`).join(', ')}.`);
  renderOutputs();
  showViewer(0);
}

function cancel() {
  if (!state.converting) return;
  state.converting = null;
  stopWorker();
  startWorker();
  setBusy(false);
  resetProgress();
  setStatus('Conversion cancelled.');
  $('convert').focus();
}

// ---- results ----------------------------------------------------------------

function renderOutputs() {
  const select = $('output-select');
  select.replaceChildren(...state.outputs.map((o, i) => el('option', { value: String(i), text: o.fileName })));
  select.hidden = state.outputs.length < 2;
  select.previousElementSibling.hidden = state.outputs.length < 2;
  $('downloads').replaceChildren(...state.outputs.map((o) => el('li', {},
    el('a', { href: o.url, download: o.fileName, 'data-testid': 'download', className: 'button small' },
      'Download ', el('span', { className: 'file-name', text: o.fileName }), ` (${bytes(o.size)})`))));
  $('outputs').hidden = false;
}

let currentFrame = null;

function showViewer(index) {
  const output = state.outputs[index];
  if (!output) return;
  $('output-select').value = String(index);
  $('viewer-note').hidden = true;
  // A new frame for each profile: speedscope reads #profileURL once, at load.
  const frame = el('iframe', {
    'data-testid': 'viewer',
    title: `speedscope flame chart of ${output.fileName}`,
  });
  loadViewer(frame, output.viewerUrl);
  currentFrame = frame;
  $('viewer-box').replaceChildren(frame);
}

// Reports from speedscope (viewer-bridge.js inside the frame).
window.addEventListener('message', (event) => {
  if (event.origin !== window.location.origin || event.data?.source !== 'scope-speedscope-viewer') return;
  if (!currentFrame || event.source !== currentFrame.contentWindow) return;
  const { kind, message } = event.data;
  const note = $('viewer-note');
  if (/Maximum call stack size exceeded/i.test(message)) {
    note.textContent = 'speedscope could not show this profile: its call stacks are too deep ' +
      '(speedscope fails beyond about 3,900 nested calls with "Maximum call stack size exceeded"). ' +
      'The download link has the complete file; a region filter that drops the recursive region may help.';
  } else if (kind === 'alert' || kind === 'import-error') {
    note.textContent = `speedscope could not show this profile: ${message}`;
  } else {
    return;  // speedscope's own console noise
  }
  note.hidden = false;
});

// ---- wiring -----------------------------------------------------------------

function setUp() {
  registerServiceWorker();
  startWorker();
  loadServedResults((outputs) => showOutputs(outputs, 'Converted by scope-speedscope view'))
    .catch((err) => showError(err.message));
  $('file-input').addEventListener('change', (e) => {
    const files = [...e.target.files];
    e.target.value = '';  // choosing the same file again is a new selection
    selectFiles(files);
  });
  $('example').addEventListener('click', async () => {
    clearError();
    setStatus('Loading the example…');
    try {
      const example = await exampleFile();
      $('include').value = '';
      $('exclude').value = '';
      $('output-name').value = DEFAULT_OUTPUT;
      await selectFiles([example], { thenConvert: true });
    } catch (err) {
      setStatus('');
      showError(`The example could not be loaded: ${err.message}`);
    }
  });
  $('options').addEventListener('submit', (e) => {
    e.preventDefault();
    convert();
  });
  $('cancel').addEventListener('click', cancel);
  $('options').addEventListener('input', updateEstimate);
  $('options').addEventListener('change', updateEstimate);
  const setAll = (pred) => {
    for (const box of document.querySelectorAll('#ranks input[name=rank]')) box.checked = pred(Number(box.value));
    updateEstimate();
  };
  $('ranks-all').addEventListener('click', () => setAll(() => true));
  $('ranks-none').addEventListener('click', () => setAll(() => false));
  $('ranks-first').addEventListener('click', () => setAll((r) => r === 0));
  $('output-select').addEventListener('change', (e) => showViewer(Number(e.target.value)));

  // Drag and drop anywhere on the page.
  const zone = $('dropzone');
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    depth++;
    zone.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) zone.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = state.converting ? 'none' : 'copy';
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    zone.classList.remove('dragging');
    if (e.dataTransfer?.files.length) selectFiles(e.dataTransfer.files);
  });
}

setUp();
