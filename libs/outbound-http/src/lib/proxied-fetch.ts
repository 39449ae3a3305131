import type { Dispatcher } from 'undici';

/**
 * Adds an npm-undici dispatcher to a global-fetch init. Node's fetch accepts it at run time; only
 * the type packages (`undici` vs Node's `undici-types`) disagree, hence the cast in one place.
 */
export function withDispatcher(init: RequestInit, dispatcher: Dispatcher | undefined): RequestInit {
  return dispatcher ? ({ ...init, dispatcher } as unknown as RequestInit) : init;
}

/**
 * Global fetch that sends every request through `dispatcher` (the service's outbound agent, which
 * honours HTTPS_PROXY / NO_PROXY); plain fetch without one. For clients that take a `fetch`
 * (octokit, openai, the update check).
 */
export function fetchThrough(dispatcher: Dispatcher | undefined): typeof fetch {
  if (!dispatcher) return (input, init) => fetch(input, init);
  return (input, init) => fetch(input, withDispatcher(init ?? {}, dispatcher));
}
