import type { Dispatcher } from 'undici';

/**
 * Adds an npm-undici dispatcher to a global-fetch init. Node's fetch accepts it at run time; only
 * the type packages (`undici` vs Node's `undici-types`) disagree, hence the cast in one place.
 */
export function withDispatcher(init: RequestInit, dispatcher: Dispatcher | undefined): RequestInit {
  return dispatcher ? ({ ...init, dispatcher } as unknown as RequestInit) : init;
}
