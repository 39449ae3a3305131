/**
 * Why a redirect was not followed, naming where it pointed (scheme, host, port and path only: a
 * query or credentials in a Location header are not repeated). Requests that carry credentials
 * (a password, a token, a signing key, a device key in the path) never follow a redirect: the
 * saved URL must be the final one.
 */
export function redirectRefusal(status: number, location: string | null, requestUrl: string): string {
  let where = 'another address';
  if (location) {
    try {
      const target = new URL(location, requestUrl);
      where = `${target.protocol}//${target.host}${target.pathname}`;
    } catch {
      where = 'an unreadable address';
    }
  }
  return `the server redirected (HTTP ${status}) to ${where}; redirects are not followed, so credentials never go elsewhere: save the final URL instead`;
}

/** Thrown by a fetch that refuses redirects (WebDAV, the AI client). */
export class RedirectRefusedError extends Error {
  constructor(
    readonly status: number,
    location: string | null,
    requestUrl: string,
  ) {
    super(redirectRefusal(status, location, requestUrl));
    this.name = 'RedirectRefusedError';
  }
}

/**
 * A fetch that never follows a redirect (it throws RedirectRefusedError on a 3xx with a Location),
 * for clients that take a `fetch` and send credentials with every request.
 */
export function fetchRefusingRedirects(base: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return async (input, init) => {
    const response = await base(input, { ...(init ?? {}), redirect: 'manual' });
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel().catch(() => undefined);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      throw new RedirectRefusedError(response.status, response.headers.get('location'), url);
    }
    return response;
  };
}
