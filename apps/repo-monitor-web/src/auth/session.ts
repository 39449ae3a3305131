import { useSyncExternalStore } from 'react';

/**
 * The console's side of the admin session. The session itself is the service's HttpOnly cookie,
 * which scripts never see; what the console keeps is the CSRF token the login answered with, sent
 * as X-CSRF-Token on every write. It lives in localStorage so a reload, a second tab or a new
 * window of the same browser keeps working without the password again (the cookie outlives the
 * tab too). Keeping it there costs nothing: the token only matters to a script already running on
 * this origin, which could send same-origin requests anyway, and it is useless without the cookie.
 * It never goes into a URL.
 */
const STORAGE_KEY = 'monitor.csrf';

type Listener = () => void;

export interface SessionState {
  /** The CSRF token of the signed-in session; null when signed out. */
  csrfToken: string | null;
  /** Set when a 401 ended the session: the page to return to after signing in again. */
  expiredFrom: string | null;
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

let state: SessionState = { csrfToken: storage()?.getItem(STORAGE_KEY) ?? null, expiredFrom: null };
const listeners = new Set<Listener>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

// Signing in or out in another tab signs this one in or out too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    const csrfToken = storage()?.getItem(STORAGE_KEY) ?? null;
    if (csrfToken !== state.csrfToken) set({ csrfToken, expiredFrom: null });
  });
}

export const session = {
  get csrfToken(): string | null {
    return state.csrfToken;
  },
  get state(): SessionState {
    return state;
  },
  signIn(csrfToken: string): void {
    storage()?.setItem(STORAGE_KEY, csrfToken);
    set({ csrfToken, expiredFrom: null });
  },
  signOut(): void {
    storage()?.removeItem(STORAGE_KEY);
    set({ csrfToken: null, expiredFrom: null });
  },
  /** A request was refused with 401: forget the session and remember where the person was. */
  expire(from: string): void {
    if (!state.csrfToken) return;
    storage()?.removeItem(STORAGE_KEY);
    set({ csrfToken: null, expiredFrom: from });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, () => session.state);
}
