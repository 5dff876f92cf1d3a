// Where the page finds its parts. Another build of the page (one
// self-contained file, say) sets globalThis.SCOPE_SPEEDSCOPE_CONFIG before
// app.js runs:
//   workerUrl     the conversion worker (worker.js), workerType 'module' or 'classic'
//   viewerPage    the bundled speedscope page for the viewer frame and "Open in a new tab"
//   viewerSrcdoc  the viewer page's HTML, when it cannot be loaded by URL (the frame then uses srcdoc)
//   exampleUrl    the "Try the example" run
const stall = new URLSearchParams(globalThis.location?.search ?? '').get('test-stall');
const defaults = {
  // ?test-stall=<file name> goes on to the worker (a test hook, see worker.js).
  workerUrl: new URL(`./worker.js${stall ? `?test-stall=${encodeURIComponent(stall)}` : ''}`, import.meta.url),
  workerType: 'module',
  viewerPage: 'speedscope/index.html',
  viewerSrcdoc: null,
  exampleUrl: 'example/real_run_s1.h5',
};

export const config = { ...defaults, ...(globalThis.SCOPE_SPEEDSCOPE_CONFIG ?? {}) };
