import { isLoopbackAddress, isLoopbackClient, isLoopbackHost } from './loopback';

describe('loopback checks', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['192.168.1.1', false],
    ['', false],
  ])('address %s → %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  it.each([
    ['localhost:8080', true],
    ['LOCALHOST', true],
    ['127.0.0.1:8080', true],
    ['[::1]:8080', true],
    ['monitor.example.com', false],
    ['127.0.0.1.evil.example', false],
    ['10.1.2.3:8080', false],
    ['bad host', false],
  ])('Host %s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it.each([
    ['local peer, no forwarding', '127.0.0.1', '127.0.0.1', true],
    ['local proxy forwarding a local client', '127.0.0.1', '::1', true],
    ['local proxy forwarding a remote client', '127.0.0.1', '203.0.113.9', false],
    ['remote peer with a forged loopback X-Forwarded-For', '192.0.2.2', '127.0.0.1', false],
    ['remote peer', '192.0.2.2', '192.0.2.2', false],
    ['no peer address', undefined, '127.0.0.1', false],
  ])('client %s → %s', (_name, peer, ip, expected) => {
    expect(isLoopbackClient({ ip, raw: { socket: { remoteAddress: peer } } })).toBe(expected);
  });
});
