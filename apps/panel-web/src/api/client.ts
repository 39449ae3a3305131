import { apiErrorFrom } from '@shared/web-ui';
import createClient, { Middleware } from 'openapi-fetch';
import { session } from '../auth/session';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

/** Adds the bearer token; a 401 on anything but the login itself ends the session (back to login, then back here). */
const auth: Middleware = {
  onRequest({ request }) {
    const token = session.token;
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/api/auth/login')) {
      session.expire(currentPath());
    }
    return response;
  },
};

function currentPath(): string {
  return typeof window === 'undefined' ? '/dashboard' : `${window.location.pathname}${window.location.search}`;
}

// fetch is looked up on each call (not captured once), so tests can stub it.
export const api = createClient<paths>({ baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin, fetch: (request) => globalThis.fetch(request) });
api.use(auth);

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an openapi-fetch call, or an ApiError built from the service's error body. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as T;
}

/** Headers for raw fetches (downloads, the SSE stream) that cannot go through openapi-fetch. */
export function authHeaders(): Record<string, string> {
  return session.token ? { authorization: `Bearer ${session.token}` } : {};
}

/** Fetch a file with the token in the header (GET unless told) and hand it to the browser as a download. */
export async function download(path: string, fallbackName: string, method: 'GET' | 'POST' = 'GET'): Promise<void> {
  const response = await fetch(path, { method, headers: authHeaders() });
  if (response.status === 401) session.expire(currentPath());
  if (!response.ok) {
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    throw apiErrorFrom(response, body);
  }
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name ? decodeURIComponent(name) : fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
