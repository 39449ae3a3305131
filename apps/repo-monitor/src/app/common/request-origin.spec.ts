import { MonitorError } from './monitor-error';
import { isPlainHost, quotedString, requestOrigin } from './request-origin';

describe('requestOrigin', () => {
  it('builds the origin from the protocol and a plain Host', () => {
    expect(requestOrigin({ protocol: 'http', host: 'localhost:8080' })).toBe('http://localhost:8080');
    expect(requestOrigin({ protocol: 'https', host: 'Monitor.Example.com' })).toBe('https://monitor.example.com');
    expect(requestOrigin({ protocol: 'https', host: '[::1]:443' })).toBe('https://[::1]');
    expect(requestOrigin({ protocol: 'javascript', host: 'example.com' })).toBe('http://example.com');
  });

  it.each(['evil.com", error="x', 'a b', 'evil.com/path', 'user@evil.com', '', 'evil.com\r\nx: y'])('refuses the Host %j with 400', (host) => {
    expect(isPlainHost(host)).toBe(false);
    expect(() => requestOrigin({ protocol: 'http', host })).toThrow(MonitorError);
  });
});

describe('quotedString', () => {
  it('escapes quotes and backslashes and drops control characters', () => {
    expect(quotedString('http://a')).toBe('"http://a"');
    expect(quotedString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quotedString('a\r\nb')).toBe('"ab"');
  });
});
