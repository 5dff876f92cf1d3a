// What the page says: one status line with the progress bar (and Cancel) in
// the bar, and one error box. An error is said once: the core's words for
// people when it has them, else its message; the file is named once (not
// "run.h5: run.h5 is not…").

import { $, count, el } from './dom.js';

const PHASES = {
  read: 'Reading',
  reconstruct: 'Rebuilding call stacks',
  write: 'Writing',
  window: 'Writing the window from the timeline',
};

// Where the bar is one row (wide screens with the timeline, phones) the
// line is cut with an ellipsis: its whole sentence is its tooltip (and,
// being a status, what a screen reader says).
export function setStatus(text) {
  const line = $('status');
  line.textContent = text;
  line.title = text;
}

export function showProgress({ phase, done, total, unit, output }, { file } = {}) {
  $('progress-area').hidden = false;
  const bar = $('progress');
  if (total > 0) {
    bar.max = total;
    bar.value = Math.min(done, total);
  } else {
    bar.removeAttribute('value'); // indeterminate
  }
  const pct = total ? Math.floor((100 * done) / total) : 0;
  let text;
  if (phase === 'inspect') {
    text = `Reading what ${file} holds…`;
  } else if (phase === 'timeline') {
    text = `Reading the calls of ${file} for the timeline${total > 0 ? `: ${pct}%` : '…'}`;
  } else if (phase === 'suggest') {
    text = 'Too big to show at once: looking for a narrowing that fits…';
  } else if (phase === 'check') {
    text = `Checking the ranks the timeline did not read${file ? ` in ${file}` : ''}: ${count(done)} of ${count(total)}`;
  } else if (phase === 'write') {
    text = `Writing ${output ?? 'the JSON'}: ${count(done)} of ${count(total)} calls`;
  } else if (phase === 'reconstruct') {
    text = `${PHASES.reconstruct}: rank ${count(done)} of ${count(total)}`;
  } else if (phase === 'read') {
    text = `${PHASES.read}${file ? ` ${file}` : ''}: ${pct}%`;
  } else {
    text = `${PHASES[phase] ?? phase}…`;
  }
  setStatus(text);
}

export function hideProgress() {
  $('progress-area').hidden = true;
  $('progress').value = 0;
}

// Clears the error box, or only the messages of one origin ('inspect', 'convert').
export function clearError(origin = null) {
  const box = $('error');
  for (const item of [...box.children]) if (!origin || item.dataset.origin === origin) item.remove();
  box.hidden = box.children.length === 0;
}

// { message, wording, file }: shows one message. Extra lines (hints) follow it.
export function showError({ message, wording = null, file = null }, { origin = 'convert' } = {}) {
  const text = wording ?? message;
  const named = file && !text.includes(file);
  const box = $('error');
  box.append(
    el(
      'p',
      { 'data-origin': origin },
      named ? el('strong', { className: 'file-name', text: file }) : null,
      named ? ': ' : null,
      el('span', { className: 'message', text }),
    ),
  );
  box.hidden = false;
}
