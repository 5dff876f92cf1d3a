// Makes the page work offline after the first visit: registers the service
// worker (sw.js, next to this page), which caches the whole site. Not on
// file:// (no service workers there), and not for a page opened by
// `scope-speedscope view` (?result=): that server is gone after Ctrl+C, and
// caching a copy of the site for each of its ports would only take space.

export function registerServiceWorker() {
  const params = new URLSearchParams(window.location.search);
  if (!('serviceWorker' in navigator) || !window.isSecureContext || params.has('result')) return;
  if (!/^https?:$/.test(window.location.protocol)) return;
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI), { updateViaCache: 'none' }).catch(() => {
    // Offline use is a bonus: the page works without it.
  });
}
