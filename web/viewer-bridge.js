// Loaded by the bundled speedscope page (build-web.mjs adds it to
// speedscope/index.html before speedscope's own script). When speedscope runs
// inside our page's frame, it reports failures to the page instead of failing
// silently or blocking on alert(): speedscope has no API for this.
(() => {
  if (window.parent === window) return;
  // Opened from file:// (the single-file page) the origin is opaque: "null"
  // is no target origin, and the parent is the only one listening.
  const target = window.location.origin === 'null' ? '*' : window.location.origin;
  const report = (kind, message) => {
    try {
      window.parent.postMessage({ source: 'scope-speedscope-viewer', kind, message: String(message) }, target);
    } catch {
      // the page went away
    }
  };
  window.alert = (message) => report('alert', message);
  const log = console.log.bind(console);
  console.log = (...args) => {
    // speedscope: console.log("Failed to load format", error), then "Something went wrong."
    if (args[0] === 'Failed to load format') report('import-error', args[1]?.message ?? args[1]);
    log(...args);
  };
  window.addEventListener('error', (e) => report('error', e.message));
  window.addEventListener('unhandledrejection', (e) => report('error', e.reason?.message ?? e.reason));
})();
