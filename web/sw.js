// The service worker: keeps the whole site (page, modules, worker, wasm,
// speedscope viewer, example) in a cache so the page works offline after the
// first visit. scripts/build-web.mjs fills in VERSION (a hash of every file of
// the built site) and FILES (their paths): a new build is a new service worker
// with a new cache, and the old cache is deleted once the new one is active
// (when no tab uses the old version any more).
//
// Only requests for the site's own files are answered from the cache; anything
// else (results served by `scope-speedscope view`, blob: URLs) goes to the
// network untouched.

const VERSION = '__SCOPE_SPEEDSCOPE_VERSION__';
const FILES = ['__SCOPE_SPEEDSCOPE_FILES__'];

// Per scope, so two copies of the site on one origin keep their own caches.
const PREFIX = `scope-speedscope ${self.registration.scope} `;
const CACHE = `${PREFIX}${VERSION}`;
const base = new URL('./', self.registration.scope);
const known = new Set(FILES.map((f) => new URL(f, base).href));

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Bypass the HTTP cache: the files must be this build's.
      await cache.addAll(FILES.map((f) => new Request(new URL(f, base), { cache: 'reload' })));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // The first visit's page is controlled at once, so it works offline
      // without a reload.
      await self.clients.claim();
    })(),
  );
});

// The cached file a request asks for: directories mean their index.html;
// the query string and fragment do not count.
function cachedPath(request) {
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== base.origin) return null;
  url.search = '';
  url.hash = '';
  if (url.pathname.endsWith('/')) url.pathname += 'index.html';
  return known.has(url.href) ? url.href : null;
}

self.addEventListener('fetch', (event) => {
  const path = cachedPath(event.request);
  if (!path) return;
  // caches.match does not create a cache: a worker whose cache a newer one
  // deleted falls back to the network instead of filling it again. The
  // cached response is handed out as a new Response, which has no URL of its
  // own: a worker or a page then keeps the URL it was asked for, query
  // included (worker.js?test-stall=..., index.html?result=...), not the
  // cached file's.
  event.respondWith(
    (async () => {
      const hit = await caches.match(path, { cacheName: CACHE });
      if (!hit) return fetch(event.request);
      return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
    })(),
  );
});

// The page (or a test) may ask which build this worker serves.
self.addEventListener('message', (event) => {
  if (event.data === 'version') event.source?.postMessage({ version: VERSION });
});
