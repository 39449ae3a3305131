import { api } from '../api/client';
import { session } from './session';

/** How long the logout call may take; the token is forgotten at once either way. */
const LOGOUT_TIMEOUT_MS = 5000;

/**
 * Logs out: the token is forgotten here at once, and the service is asked to revoke it (so a copy
 * of it stops working too). When that call fails (offline, the service down) the browser has still
 * forgotten the token; it then stays valid on the server until it expires.
 */
export async function logOut(): Promise<void> {
  const token = session.token;
  session.logOut();
  if (!token) return;
  try {
    await api.POST('/api/auth/logout', {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(LOGOUT_TIMEOUT_MS),
    });
  } catch {
    // Nothing more to do: the token is gone from this browser.
  }
}
