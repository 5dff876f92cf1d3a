// Where the page's parts come from: the converter worker, the viewer and the
// example run. Served from a web server (this file), they are files of the
// site; the single-file page (dist/scope-speedscope.html, made by
// scripts/build-single.mjs) swaps in web/single/site.js, which makes the same
// parts from data inlined in that one HTML file. Nothing else in the page
// knows the difference.

/** A new conversion worker (the protocol is worker.js's). */
export function createWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'scope-speedscope' });
}

/** Points `frame` (a new iframe) at speedscope showing the profile at `profileUrl` (a blob: URL). */
export function loadViewer(frame, profileUrl) {
  frame.src = `speedscope/index.html#profileURL=${encodeURIComponent(profileUrl)}`;
}

const EXAMPLE_URL = 'example/real_run_s1.h5';

/** The bundled example run as a File. */
export async function exampleFile() {
  const response = await fetch(EXAMPLE_URL);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new File([await response.blob()], EXAMPLE_URL.split('/').pop());
}
