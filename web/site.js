// Where the page's parts come from: the converter worker, the viewer page and
// the example run. Served from a web server (this file), they are files of the
// site; another build of the page (one self-contained file, say) swaps this
// module for one that makes the same parts from inlined data. Nothing else in
// the page knows the difference.

const params = new URLSearchParams(globalThis.location?.search ?? '');
// ?test-stall=<file name> goes on to the worker (a test hook, see worker.js).
const stall = params.get('test-stall');

/** A new conversion worker (the protocol is worker.js's). */
export function createWorker() {
  const url = new URL(`./worker.js${stall ? `?test-stall=${encodeURIComponent(stall)}` : ''}`, import.meta.url);
  return new Worker(url, { type: 'module', name: 'scope-speedscope' });
}

/**
 * The bundled speedscope page, for "Open in a new tab" (it reads the output's
 * blob: URL from #profileURL); null when the build has none to open.
 */
export const viewerPage = 'speedscope/index.html';

// speedscope's page with the bridge and everything else inlined (build-web.mjs
// writes it), fetched once and shown as the frame's srcdoc. A sandboxed
// frame's own requests bypass the service worker (its origin is opaque), so a
// frame loading viewerPage by src would fail offline; this fetch is the
// page's, which the service worker answers.
const FRAME_PAGE = 'speedscope/frame.html';
let framePage = null;

/**
 * Points `frame` (a new sandboxed iframe) at speedscope's page with the
 * bridge (speedscope/bridge.js), which then takes the output by postMessage.
 */
export function loadViewer(frame) {
  framePage ??= fetch(FRAME_PAGE).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))));
  framePage.then(
    (html) => {
      frame.srcdoc = html;
    },
    () => {
      framePage = null; // try again next time; meanwhile the page by URL
      frame.src = viewerPage;
    },
  );
}

const EXAMPLE_URL = 'example/real_run_s1.h5';

/** The bundled example run as a File. */
export async function exampleFile() {
  const response = await fetch(EXAMPLE_URL);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new File([await response.blob()], EXAMPLE_URL.split('/').pop());
}
