// Makes the page work offline after the first visit: registers the service
// worker (sw.js, next to this page), which caches the whole site. Not on
// file:// (no service workers there), and not for a page opened by
// `scope-speedscope view` (?result=): that server is gone after Ctrl+C, and
// caching a copy of the site for each of its ports would only take space;
// nor for a page `scope-speedscope serve RUN.h5` serves (?token=, ?served):
// its files are behind the server's token, and its engine is the server.
//
// Not at once: the first install fetches the whole site (about 6 MB: the
// wasm, the viewer) into its cache, and on 2 cores that took the time of the
// page's own workers compiling the wasm for a file chosen right away (a small
// file painted 1.5 s after the choice instead of 0.7 s). The page registers
// it once its first chart is painted, or after a few seconds with nothing
// being opened (registerServiceWorkerWhenIdle).

const IDLE_DELAY_MS = 3000;
let registered = false;

export function registerServiceWorker() {
  if (registered) return;
  registered = true;
  const params = new URLSearchParams(window.location.search);
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  if (params.has('result') || params.has('token') || params.has('served')) return;
  if (!/^https?:$/.test(window.location.protocol)) return;
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { updateViaCache: 'none' }).catch(() => {
    // Offline use is a bonus: the page works without it.
  });
}

// Registers it after IDLE_DELAY_MS, or later while `busy()` says the page is
// opening a file (its painted chart registers it then: registerServiceWorker).
export function registerServiceWorkerWhenIdle(busy) {
  const attempt = () => {
    if (registered) return;
    if (busy()) setTimeout(attempt, IDLE_DELAY_MS);
    else registerServiceWorker();
  };
  setTimeout(attempt, IDLE_DELAY_MS);
}
