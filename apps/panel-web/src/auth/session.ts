import { useSyncExternalStore } from 'react';

/**
 * The access token: in memory, mirrored to sessionStorage so a reload of the tab keeps the person
 * logged in. sessionStorage (not localStorage) because it dies with the tab and is not shared with
 * other tabs, which bounds how long a token copied by a script could be replayed; it never goes
 * into a URL (the live stream sends it in the Authorization header too).
 */
const STORAGE_KEY = 'panel.token';

type Listener = () => void;

export interface SessionState {
  token: string | null;
  /** Set when a 401 ended the session: the page to return to after logging in again. */
  expiredFrom: string | null;
}

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

let state: SessionState = { token: storage()?.getItem(STORAGE_KEY) ?? null, expiredFrom: null };
const listeners = new Set<Listener>();

function set(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  get token(): string | null {
    return state.token;
  },
  get state(): SessionState {
    return state;
  },
  logIn(token: string): void {
    storage()?.setItem(STORAGE_KEY, token);
    set({ token, expiredFrom: null });
  },
  logOut(): void {
    storage()?.removeItem(STORAGE_KEY);
    set({ token: null, expiredFrom: null });
  },
  /** A request was refused with 401: forget the token and remember where the person was. */
  expire(from: string): void {
    if (!state.token) return;
    storage()?.removeItem(STORAGE_KEY);
    set({ token: null, expiredFrom: from });
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, () => session.state);
}

