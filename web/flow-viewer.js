// The page's flow: speedscope in its frame (shown, held over the budget,
// failed).

import * as budget from './budget.js';
import { $, bytes, el, nextFrame, plural, seconds } from './dom.js';
import * as downloads from './downloads.js';
import { showViewerBox } from './flow-window.js';
import { viewer } from './parts.js';
import * as site from './site.js';
import { state, update } from './state.js';
import * as status from './status.js';

export function placeholder(text, ...more) {
  return el(
    'div',
    { className: 'placeholder', 'data-testid': 'viewer-placeholder' },
    text ? el('p', { text }) : null,
    ...more,
  );
}

export async function openViewer(index, { reveal = true } = {}) {
  const output = state.outputs[index];
  if (!output) return;
  update({ current: index, viewer: 'starting', viewerMessage: '' });
  downloads.render(state.outputs, index, site.viewerPage);
  showViewerBox(`speedscope: ${output.fileName}${state.chart === 'painted' ? ', the whole run' : ''}`);
  viewer.show(output);
  $('fullscreen').hidden = false;
  if (!reveal) return;
  await nextFrame();
  // Someone who opened the options meanwhile is working there: the page must
  // not scroll away under their pointer.
  const busy = document.activeElement;
  if (busy && (busy === $('options-toggle') || $('options-panel').contains(busy))) return;
  // Without a timeline (results served by `scope-speedscope view`) the bar
  // and speedscope fill the window; below a timeline, speedscope does.
  const besideOptions = $('options-panel').hidden || getComputedStyle($('options-panel')).gridColumnStart === '2';
  ($('timeline-box').hidden && besideOptions ? $('work') : $('viewer-box')).scrollIntoView({ block: 'start' });
  viewer.frame?.focus();
}

export function holdViewer(index) {
  const output = state.outputs[index];
  const need = budget.cost(output.calls);
  update({ current: index, viewer: 'held' });
  downloads.render(state.outputs, index, site.viewerPage);
  showViewerBox(`speedscope: ${output.fileName}`);
  viewer.clear(
    placeholder(
      `${output.fileName} holds ${plural(output.calls, 'call')}: more than the viewer's ` +
        `budget. Showing it would take speedscope ${seconds(need.seconds)} and ${bytes(need.bytes)} of memory. ` +
        'The download has the complete file.',
      el('button', {
        type: 'button',
        className: 'button',
        'data-testid': 'show-anyway',
        text: 'Show anyway',
        onclick: () => openViewer(index),
      }),
    ),
  );
  status.setStatus(`${output.fileName} converted; not shown (too big for the viewer).`);
}

export function viewerStatus(status_, { fileName, reason, message, ms }) {
  if (status_ === 'painted') {
    performance.mark('scope-speedscope:painted');
    update({ viewer: 'painted' });
    status.setStatus(
      `${fileName}: flame chart shown${ms != null ? ` (speedscope took ${(ms / 1000).toFixed(1)} s)` : ''}.`,
    );
    return;
  }
  if (status_ !== 'failed') {
    update({ viewer: status_ });
    if (status_ === 'importing') status.setStatus(`Opening ${fileName} in speedscope…`);
    return;
  }
  let text;
  if (reason === 'too-deep') {
    text =
      `speedscope cannot show ${fileName}: its calls nest deeper than speedscope can draw ` +
      '(some thousands of levels). The download has the complete file; excluding the deeply nested region may help.';
  } else if (reason === 'dead') {
    text =
      `The viewer stopped while showing ${fileName}${message ? ` (${message})` : ', most likely out of memory'}. ` +
      'The download has the complete file; fewer ranks, a filter or narrowing make it smaller.';
  } else {
    text = `speedscope cannot show ${fileName}: ${message}. The download has the complete file.`;
  }
  update({ viewer: 'failed', viewerMessage: text });
  const note = el('p', { className: 'viewer-failed', role: 'alert', 'data-testid': 'viewer-note', text });
  viewer.clear(
    placeholder(
      '',
      note,
      el('button', {
        type: 'button',
        className: 'button',
        text: 'Try again',
        onclick: () => openViewer(state.current),
      }),
    ),
  );
  status.setStatus('The flame chart could not be shown; the download works.');
}
