import { apiErrorFrom } from '@shared/web-ui';
import createClient, { Middleware } from 'openapi-fetch';
import { session } from '../auth/session';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Paths whose 401 means "wrong credentials", not "the session ended". */
const SIGN_IN_PATHS = ['/api/v1/auth/login', '/api/v1/setup'];

/**
 * The session cookie goes with every request (same origin); every write also carries the CSRF
 * token from the login. A 401 on anything but the sign-in itself ends the session: the person is
 * sent to the login, then back to the page they were on.
 */
const auth: Middleware = {
  onRequest({ request }) {
    const token = session.csrfToken;
    if (token && !READ_METHODS.has(request.method.toUpperCase())) request.headers.set('x-csrf-token', token);
    return request;
  },
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && !SIGN_IN_PATHS.some((signIn) => path.startsWith(signIn))) session.expire(currentPath());
    return response;
  },
};

function currentPath(): string {
  return typeof window === 'undefined' ? '/dashboard' : `${window.location.pathname}${window.location.search}`;
}

// fetch is looked up on each call (not captured once), so tests can stub it; `same-origin`
// credentials send the session cookie and nothing else.
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  credentials: 'same-origin',
  fetch: (request) => globalThis.fetch(request),
});
api.use(auth);

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an openapi-fetch call, or an ApiError built from the service's `{error_code, message}` body. */
export async function unwrap<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as T;
}
