// Where the page's parts come from: the converter worker, the viewer page and
// the example run. Served from a web server (this file), they are files of the
// site; another build of the page (one self-contained file, say) swaps this
// module for one that makes the same parts from inlined data. Nothing else in
// the page knows the difference.

const params = new URLSearchParams(globalThis.location?.search ?? '');
// ?test-stall=<file name> goes on to the worker (a test hook, see worker.js).
const stall = params.get('test-stall');

function newWorker() {
  const url = new URL(`./worker.js${stall ? `?test-stall=${encodeURIComponent(stall)}` : ''}`, import.meta.url);
  return new Worker(url, { type: 'module', name: 'scope-speedscope' });
}

// Workers started before the page's modules were loaded (start-workers.js),
// each with whether it failed to load meanwhile (no handler was there yet).
const early = [];
let made = 0;

/**
 * Starts `count` workers now, for the next createWorker() calls to take: they
 * load their modules and the wasm while the page's own modules load. Nothing
 * when a worker was made already.
 */
export function prestartWorkers(count) {
  if (made) return;
  for (let i = 0; i < count; i++) {
    const worker = newWorker();
    const entry = { worker, failed: false };
    worker.addEventListener('error', () => (entry.failed = true), { once: true });
    early.push(entry);
  }
  made += count;
}

/** A conversion worker (the protocol is worker.js's): a prestarted one first. */
export function createWorker() {
  while (early.length) {
    const { worker, failed } = early.shift();
    if (!failed) return worker;
    worker.terminate();
  }
  made++;
  return newWorker();
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
