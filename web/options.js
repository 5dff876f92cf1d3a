// The options panel: ranks, include/exclude filters, narrowing (minimum
// duration, time window) and the output name. It reads the fields into the
// core's options, shows problems on their fields, and tells the page when the
// options changed (debounced), so the page converts again.
//
// New selections start from export_speedscope's defaults: rank 0 (or the
// lowest rank a file recorded, when it has no rank 0), every region, no
// narrowing, profile.speedscope.json.
//
// "All ranks" (shown when the files hold several) is checked exactly when
// every rank is: checking it checks them all, unchecking it goes back to the
// default rank. The timeline then opens every rank of its file
// (openTimeline's ranks: 'all'; allRanks() below); the converter gets the
// rank numbers, as it does for any other choice.

import { $, count, el } from './dom.js';

export const DEFAULT_OUTPUT = 'profile.speedscope.json';
const TEXT_DEBOUNCE_MS = 600;

const FIELD_INPUTS = {
  ranks: 'ranks',
  include: 'include',
  exclude: 'exclude',
  minDuration: 'min-duration',
  timeWindow: 'window-start',
  filepath: 'output-name',
};
const FIELD_ERRORS = {
  ranks: 'ranks-error',
  include: 'include-error',
  exclude: 'exclude-error',
  minDuration: 'min-duration-error',
  timeWindow: 'window-error',
};

let changeTimer = null;
let onChange = () => {};
let knownRanks = []; // [[rank, calls]]

export function setUp({ changed }) {
  onChange = changed;
  const form = $('options');
  const soon = (delay) => {
    clearTimeout(changeTimer);
    changeTimer = setTimeout(() => onChange(), delay);
  };
  form.addEventListener('input', (e) => {
    if (e.target.name === 'rank' || e.target.name === 'all-ranks') return; // checkboxes: 'change' below
    clearFieldError(fieldOf(e.target));
    soon(TEXT_DEBOUNCE_MS);
  });
  form.addEventListener('change', (e) => {
    if (e.target.name === 'all-ranks') {
      const all = e.target.checked;
      for (const box of rankBoxes()) box.checked = all || Number(box.value) === defaultRank();
    }
    if (e.target.name === 'rank' || e.target.name === 'all-ranks') {
      updateRanksValidity();
      // A rank's box (and All ranks unticked, back to the first rank) waits
      // for the next one ticked; All ranks ticked is a choice of its own.
      soon(e.target.name === 'all-ranks' && e.target.checked ? 0 : TEXT_DEBOUNCE_MS);
    }
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(changeTimer);
    onChange({ explicit: true });
  });
  const setAll = (pred) => {
    for (const box of rankBoxes()) box.checked = pred(Number(box.value));
    updateRanksValidity();
    soon(0);
  };
  $('ranks-all').addEventListener('click', () => setAll(() => true));
  $('ranks-none').addEventListener('click', () => setAll(() => false));
  $('ranks-first').addEventListener('click', () => setAll((r) => r === knownRanks[0]?.[0]));
  $('window-clear').addEventListener('click', () => {
    setWindow(null);
    soon(0);
  });
}

// Cancels a pending debounced change (a new selection supersedes it).
export function cancelPending() {
  clearTimeout(changeTimer);
}

function fieldOf(input) {
  if (input.name === 'rank') return 'ranks';
  if (input.id === 'window-start' || input.id === 'window-end') return 'timeWindow';
  return Object.keys(FIELD_INPUTS).find((k) => FIELD_INPUTS[k] === input.id) ?? null;
}

const rankBoxes = () => [...document.querySelectorAll('#ranks input[name=rank]')];

// export_speedscope's default: rank 0, or the lowest rank when there is no rank 0.
const defaultRank = () => (knownRanks.some(([r]) => r === 0) ? 0 : knownRanks[0]?.[0]);

// "4 ranks, 60 calls: 15 each" or "4 ranks, 58 calls: 12 to 16 a rank".
function allRanksText() {
  const calls = knownRanks.map(([, n]) => n);
  const total = calls.reduce((a, b) => a + b, 0);
  const least = Math.min(...calls);
  const most = Math.max(...calls);
  const each = least === most ? `${count(least)} each` : `${count(least)} to ${count(most)} a rank`;
  return `(${knownRanks.length} ranks, ${count(total)} calls: ${each})`;
}

// A new selection: ranks from the inspections, every other option back to the default.
export function reset(infos) {
  const ranks = new Map(); // rank -> calls over all files
  for (const info of infos) {
    for (const r of info.ranks ?? []) ranks.set(r.rank, (ranks.get(r.rank) ?? 0) + r.calls);
  }
  knownRanks = [...ranks.entries()].sort((a, b) => a[0] - b[0]);
  const initial = defaultRank();
  $('ranks').replaceChildren(
    ...knownRanks.map(([rank, calls]) =>
      el(
        'label',
        { className: 'rank' },
        el('input', {
          type: 'checkbox',
          name: 'rank',
          value: String(rank),
          checked: rank === initial,
          'data-testid': `rank-${rank}`,
        }),
        ` rank ${rank} `,
        el('span', { className: 'hint', text: `(${count(calls)} calls)` }),
      ),
    ),
  );
  $('ranks-tools').hidden = knownRanks.length < 2;
  $('ranks-all-choice').hidden = knownRanks.length < 2;
  $('ranks-all-calls').textContent = knownRanks.length < 2 ? '' : allRanksText();
  $('include').value = '';
  $('exclude').value = '';
  $('output-name').value = DEFAULT_OUTPUT;
  $('min-duration').value = '';
  setWindow(null);
  clearFieldErrors();
  updateRanksValidity();
}

// The ranks of a link to a view ('all', or numbers): those the files hold
// are ticked; none of them: the default rank.
export function setRanks(ranks) {
  const known = new Set(knownRanks.map(([r]) => r));
  const wanted = new Set(ranks === 'all' ? known : ranks.filter((r) => known.has(r)));
  if (!wanted.size) wanted.add(defaultRank());
  for (const box of rankBoxes()) box.checked = wanted.has(Number(box.value));
  updateRanksValidity();
}

export function setFeatures(features) {
  for (const node of document.querySelectorAll('#options .narrowing')) node.hidden = !features.narrowing;
}

export function selectedRanks() {
  return rankBoxes()
    .filter((b) => b.checked)
    .map((b) => Number(b.value));
}

// Every rank of the files is chosen (and there are several): the timeline
// opens with ranks: 'all'.
export function allRanks() {
  return knownRanks.length > 1 && rankBoxes().every((b) => b.checked);
}

export function rankCalls() {
  return new Map(knownRanks);
}

function updateRanksValidity() {
  const chosen = selectedRanks().length;
  const all = $('rank-all');
  all.checked = knownRanks.length > 1 && chosen === knownRanks.length;
  all.indeterminate = chosen > 0 && chosen < knownRanks.length;
  const none = knownRanks.length > 0 && chosen === 0;
  if (none) $('ranks-error').textContent = 'Choose at least one rank.';
  $('ranks-error').hidden = !none;
  $('convert').disabled = none;
}

export function hasRank() {
  return knownRanks.length === 0 || selectedRanks().length > 0;
}

function patterns(id) {
  const lines = $(id)
    .value.split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '');
  return lines.length ? lines : null;
}

// The window in the fields as numbers, for the overview; null unless both are numbers.
export function currentWindow() {
  const start = Number($('window-start').value);
  const end = Number($('window-end').value);
  return $('window-start').value.trim() && $('window-end').value.trim() && end > start ? { start, end } : null;
}

export function setWindow(range) {
  $('window-start').value = range ? String(range.start) : '';
  $('window-end').value = range ? String(range.end) : '';
}

// The options as the core takes them. Narrowing values go to the core as
// typed: it parses and checks them and says what is wrong.
export function read() {
  const minDuration = $('min-duration').value.trim();
  const start = $('window-start').value.trim();
  const end = $('window-end').value.trim();
  return {
    filepath: $('output-name').value.trim() || DEFAULT_OUTPUT,
    // No rank to choose from (a file without calls): export_speedscope's default.
    ranks: knownRanks.length ? selectedRanks() : null,
    include: patterns('include'),
    exclude: patterns('exclude'),
    minDuration: minDuration || null,
    timeWindow: start || end ? [start || null, end || null] : null,
    // A preference, kept from one file to the next (reset() leaves it).
    sourceLocations: $('source-locations').checked,
  };
}

// Puts a suggested setting into the fields ({ minDuration, timeWindow: { start, end }, ranks }).
export function apply(suggestion) {
  if (suggestion.minDuration != null) $('min-duration').value = String(suggestion.minDuration);
  if (suggestion.timeWindow) setWindow(suggestion.timeWindow);
  if (suggestion.ranks) {
    for (const box of rankBoxes()) box.checked = suggestion.ranks.includes(Number(box.value));
    updateRanksValidity();
  }
}

export function showFieldError(field, message) {
  const box = $(FIELD_ERRORS[field] ?? '');
  if (!box) return false;
  box.textContent = message;
  box.hidden = false;
  const input = $(FIELD_INPUTS[field]);
  if (input?.matches('input, textarea, select')) input.setAttribute('aria-invalid', 'true');
  return true;
}

export function clearFieldError(field) {
  const box = $(FIELD_ERRORS[field] ?? '');
  if (!box) return;
  if (field === 'ranks') {
    updateRanksValidity();
    return;
  }
  box.hidden = true;
  box.textContent = '';
  $(FIELD_INPUTS[field])?.removeAttribute('aria-invalid');
}

export function clearFieldErrors() {
  for (const field of Object.keys(FIELD_ERRORS)) clearFieldError(field);
}

export function focusField(field) {
  $(FIELD_INPUTS[field])?.focus();
}

export function setEstimate(text) {
  $('estimate').textContent = text;
}
