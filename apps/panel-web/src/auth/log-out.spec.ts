import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logOut } from './log-out';
import { session } from './session';

describe('logOut', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    session.logIn('the-token');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    session.logOut();
  });

  it('asks the service to revoke the token it carried, and forgets it', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await logOut();
    expect(session.token).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = fetchMock.mock.calls[0][0] as Request;
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/auth/logout');
    expect(request.headers.get('authorization')).toBe('Bearer the-token');
  });

  it('still forgets the token when the call fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await logOut();
    expect(session.token).toBeNull();
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 500 }));
    session.logIn('another');
    await logOut();
    expect(session.token).toBeNull();
  });
});
