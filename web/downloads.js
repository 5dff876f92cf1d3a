// The outputs in the bar: a selector between them (several input files give
// several outputs), the Download link of the current one, and "Open in a new
// tab" (the bundled speedscope as a page of its own, reading the output's blob:
// URL, which works while this page is open). Links exist as soon as the
// outputs do, whatever the viewer is doing.

import { $, bytes, el } from './dom.js';

// results: the worker's [{ fileName, blob, size, calls }].
export function makeOutputs(results) {
  return results.map((o) => ({ ...o, url: URL.createObjectURL(o.blob) }));
}

export function release(outputs) {
  for (const o of outputs) URL.revokeObjectURL(o.url);
}

export function render(outputs, current, viewerPage) {
  const select = $('output-select');
  select.replaceChildren(...outputs.map((o, i) => el('option', { value: String(i), text: o.fileName })));
  select.value = String(current);
  $('bar-output').hidden = outputs.length < 2;
  const output = outputs[current];
  const download = $('download');
  const tab = $('open-tab');
  download.hidden = !output;
  tab.hidden = !output || !viewerPage;
  if (!output) {
    download.removeAttribute('href');
    tab.removeAttribute('href');
    return;
  }
  download.href = output.url;
  download.download = output.fileName;
  download.replaceChildren(
    'Download',
    el('span', { className: 'visually-hidden', text: ` ${output.fileName}` }),
    el('span', { className: 'size', text: ` (${bytes(output.size)})` }),
  );
  download.title = `Download ${output.fileName}`;
  if (viewerPage) tab.href = `${viewerPage}#profileURL=${encodeURIComponent(output.url)}`;
  tab.title = `Open ${output.fileName} in speedscope in a new tab`;
}
