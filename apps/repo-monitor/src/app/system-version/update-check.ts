import type { ReleaseFetch } from '@shared/config';
import type { Dispatcher } from 'undici';

/** What the update check sends its one GET through; tests provide one that reaches a local server. */
export type UpdateCheckFetch = ReleaseFetch;

export const UPDATE_CHECK_FETCH = Symbol('UPDATE_CHECK_FETCH');

/**
 * The production transport: fetch through the outbound dispatcher (HTTPS_PROXY / NO_PROXY).
 * Redirects are never followed: the request may carry MONITOR_UPDATE_CHECK_TOKEN, which must not
 * travel to wherever a 3xx points; the caller reports a 3xx as a soft failure.
 */
export function dispatcherFetch(dispatcher: Dispatcher | undefined): UpdateCheckFetch {
  return (url, init) => fetch(url, { ...init, redirect: 'manual', ...(dispatcher ? { dispatcher } : {}) } as RequestInit);
}
