// Finding regions by name (ignoring case): the search field (#tl-search,
// `/` or Ctrl+F from anywhere on the page while the timeline shows) and what
// a search finds: the frames to keep in colour and the count of regions and
// calls over the run (#tl-search-count).

import { count } from './format.js';

const SEARCH_DELAY_MS = 120;

const byId = (id) => document.getElementById(id);

// Sends the field's text to onSearch as it is typed (Enter at once; Esc
// empties it and returns to the chart); active() says whether the timeline
// shows, for the page-wide keys.
export function wireSearch(onSearch, chart, active) {
  const search = byId('tl-search');
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => onSearch(search.value), SEARCH_DELAY_MS);
  });
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      clearTimeout(timer);
      onSearch(search.value);
    } else if (e.key === 'Escape') {
      search.value = '';
      onSearch('');
      chart.focus();
    }
  });
  document.addEventListener('keydown', (e) => {
    if (!active()) return;
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName ?? '');
    if ((e.key === '/' && !typing && !e.ctrlKey && !e.metaKey) || (e.key === 'f' && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      search.focus();
      search.select();
    }
  });
}

// The frames whose names hold `text`: { marks (a Uint8Array over frames),
// regions, calls (from totals: calls per frame over the run) }; null for no text.
export function findRegions(frames, totals, text) {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  const marks = new Uint8Array(frames.length);
  let regions = 0;
  let calls = 0;
  frames.forEach((name, f) => {
    if (name.toLowerCase().includes(q)) {
      marks[f] = 1;
      regions++;
      calls += totals[f];
    }
  });
  return { marks, regions, calls };
}

// Shows what a search found (findRegions' answer, or null: nothing to say).
export function showFound(found) {
  byId('tl-search-count').textContent = !found
    ? ''
    : found.regions
      ? `${count(found.regions)} ${found.regions === 1 ? 'region' : 'regions'}, ${count(found.calls)} ${found.calls === 1 ? 'call' : 'calls'}`
      : 'no region matches';
}

// Empties the field and its count.
export function clearSearch() {
  byId('tl-search').value = '';
  showFound(null);
}
