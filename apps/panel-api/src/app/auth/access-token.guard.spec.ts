import { extractAccessToken } from './access-token.guard';

describe('extractAccessToken', () => {
  const request = (method: string, url: string, authorization?: string) => ({
    method,
    url,
    headers: authorization ? { authorization } : {},
  });

  it('takes the bearer token from the Authorization header', () => {
    expect(extractAccessToken(request('GET', '/api/auth/me', 'Bearer abc.def.ghi'))).toBe('abc.def.ghi');
    expect(extractAccessToken(request('GET', '/api/auth/me', 'bearer abc'))).toBe('abc');
    expect(extractAccessToken(request('GET', '/api/auth/me', 'Basic YWRtaW46eA=='))).toBeUndefined();
  });

  it('accepts ?token= only for GET requests under /api/events/', () => {
    expect(extractAccessToken(request('GET', '/api/events/sign-history?token=abc'))).toBe('abc');
    expect(extractAccessToken(request('GET', '/api/events/sign-history?x=1&token=a%2Eb'))).toBe('a.b');
    expect(extractAccessToken(request('GET', '/api/auth/me?token=abc'))).toBeUndefined();
    expect(extractAccessToken(request('GET', '/api/eventsX?token=abc'))).toBeUndefined();
    expect(extractAccessToken(request('POST', '/api/events/sign-history?token=abc'))).toBeUndefined();
    expect(extractAccessToken(request('GET', '/api/events/sign-history'))).toBeUndefined();
  });
});
