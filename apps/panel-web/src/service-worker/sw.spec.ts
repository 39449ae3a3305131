import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// public/sw.js runs here as the browser runs it, with a real Cache Storage stand-in (a Map of
// Responses) and `fetch` answering what the service would answer.
type Listener = (event: FakeEvent) => void;

interface FakeEvent {
  request: { method: string; url: string; mode: string; headers: Headers };
  respondWith: (answer: Promise<Response>) => void;
  waitUntil: (work: Promise<unknown>) => void;
}

const ORIGIN = 'https://panel.example';

function loadWorker(answers: Record<string, () => Response>) {
  const listeners = new Map<string, Listener>();
  const stored = new Map<string, Response>();
  const cache = {
    put: async (key: string | { url: string }, response: Response) => void stored.set(typeof key === 'string' ? new URL(key, ORIGIN).href : key.url, response),
    addAll: async () => undefined,
    match: async (key: string | { url: string }) => stored.get(typeof key === 'string' ? new URL(key, ORIGIN).href : key.url),
  };
  const scope = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  const caches = { open: async () => cache, keys: async () => [], delete: async () => true, match: cache.match };
  const fetchStandIn = async (request: { url: string }) => {
    const answer = answers[new URL(request.url).pathname];
    if (!answer) throw new TypeError('offline');
    return answer();
  };
  const source = readFileSync(join(__dirname, '../../public/sw.js'), 'utf8');
  new Function('self', 'caches', 'fetch', source)(scope, caches, fetchStandIn);
  return {
    stored,
    /** Dispatches a fetch event; resolves with the worker's answer (undefined when it left the request to the network). */
    async fetch(path: string, mode = 'navigate'): Promise<Response | undefined> {
      let answer: Promise<Response> | undefined;
      listeners.get('fetch')?.({
        request: { method: 'GET', url: `${ORIGIN}${path}`, mode, headers: new Headers() },
        respondWith: (value) => (answer = value),
        waitUntil: () => undefined,
      });
      const response = await answer;
      // The worker stores its copy after answering: let that settle.
      await new Promise((resolve) => setTimeout(resolve, 0));
      return response;
    },
  };
}

const page = () => new Response('<!doctype html><title>panel</title>', { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
const jsonError = () =>
  new Response('{"code":"not_found"}', { status: 404, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
const privateHtml = () => new Response('<p>private</p>', { headers: { 'content-type': 'text/html', 'cache-control': 'no-store' } });
const asset = () => new Response('console.log(1)', { headers: { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=31536000, immutable' } });

describe('the service worker', () => {
  it("keeps the app's page for offline use", async () => {
    const worker = loadWorker({ '/dashboard': page });
    await worker.fetch('/dashboard');
    expect(await worker.stored.get(`${ORIGIN}/`)?.text()).toContain('<title>panel</title>');
  });

  it('never stores a navigation answered with JSON, an error or a no-store page as `/`', async () => {
    const worker = loadWorker({ '/oauth/authorize': privateHtml, '/.well-known/openid-configuration': jsonError, '/unknown': jsonError });
    for (const path of ['/oauth/authorize', '/.well-known/openid-configuration', '/unknown']) await worker.fetch(path);
    expect([...worker.stored.keys()]).toEqual([]);
  });

  it('leaves API, docs and metrics requests to the network and stores none of them', async () => {
    const worker = loadWorker({ '/api/accounts': page, '/docs': page, '/metrics': page });
    for (const path of ['/api/accounts', '/docs', '/metrics']) expect(await worker.fetch(path, 'cors')).toBeUndefined();
    expect(await worker.fetch('/api/accounts')).toBeUndefined();
    expect([...worker.stored.keys()]).toEqual([]);
  });

  it('stores hashed assets, but not one marked no-store', async () => {
    const worker = loadWorker({ '/assets/index-abc.js': asset, '/assets/private.js': privateHtml });
    await worker.fetch('/assets/index-abc.js', 'no-cors');
    await worker.fetch('/assets/private.js', 'no-cors');
    expect([...worker.stored.keys()]).toEqual([`${ORIGIN}/assets/index-abc.js`]);
  });

  it('answers an offline navigation with the stored page', async () => {
    const answers: Record<string, () => Response> = { '/': page };
    const worker = loadWorker(answers);
    await worker.fetch('/');
    delete answers['/'];
    expect(await (await worker.fetch('/tasks'))?.text()).toContain('<title>panel</title>');
  });
});
