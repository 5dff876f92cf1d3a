// Choosing files: the file button, a drop anywhere on the page, and "Try the
// example" (a small real run bundled with the site). Each hands a list of
// Files to `chosen`; two files dropped at once come with { compare: true }
// (the page compares them: the first dropped is run A, the baseline).

import { $ } from './dom.js';

// example: resolves with the example run as a File (site.js's exampleFile).
export function setUp({ chosen, example, failed }) {
  $('file-input').addEventListener('change', (e) => {
    const files = [...e.target.files];
    e.target.value = ''; // choosing the same file again is a new selection
    if (files.length) chosen(files);
  });

  $('example').addEventListener('click', async () => {
    try {
      chosen([await example()]);
    } catch (err) {
      failed(`The example could not be loaded: ${err.message}`);
    }
  });

  const zone = $('dropzone');
  let depth = 0;
  const hasFiles = (e) => e.dataTransfer?.types.includes('Files');
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth++;
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) chosen(files, { compare: files.length === 2 });
  });
  zone.dataset.ready = 'true';
}
