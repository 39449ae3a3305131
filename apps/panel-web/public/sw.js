// Service worker of the panel: caches the app's static files only. API answers (/api/…), the API
// documentation, the health probes and metrics are never cached: they carry the owner's data and
// must always be fresh. Hashed files under /assets/ never change, so they are served cache-first;
// the page itself is fetched from the network and falls back to the cached copy when offline.
// Only the app's own page is kept as `/`: an HTML answer the service marks cacheable. Every other
// answer of the service carries `Cache-Control: no-store` (a JSON error, a 404, another service's page
// behind the same proxy), and an answer marked so is never stored.
const CACHE = 'panel-static-v2';
const SHELL = ['/', '/manifest.webmanifest', '/icon.svg'];

/** An answer this worker may store: a 200 from this origin that its server did not mark no-store. */
function storable(response) {
  if (!response.ok || response.status !== 200 || response.type === 'opaque' || response.redirected) return false;
  return !/(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('cache-control') || '');
}

/** The app's page: HTML, storable. */
function isAppPage(response) {
  return storable(response) && /^text\/html(;|$)/i.test(response.headers.get('content-type') || '');
}

function isStatic(url) {
  if (url.origin !== self.location.origin) return false;
  const path = url.pathname;
  if (/^\/(api|docs|openapi|health|healthz|readyz|metrics)(\/|\.|$)/.test(path)) return false;
  return true;
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (!isStatic(url) || request.headers.has('authorization')) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            if (storable(response)) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (isAppPage(response)) {
            const copy = response.clone();
            void caches.open(CACHE).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() => caches.match('/').then((cached) => cached || Response.error())),
    );
  }
});
