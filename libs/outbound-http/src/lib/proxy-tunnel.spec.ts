import { LocalHttpProxy, LocalWebhookReceiver } from '@shared/testing';
import { Agent } from 'undici';
import { fetchThrough } from './proxied-fetch';
import { connectAuthority, httpProxyUrl, openProxyTunnel, proxyApplies } from './proxy-tunnel';

describe('proxyApplies (NO_PROXY rules)', () => {
  const proxy = (noProxy?: string) => ({ url: 'http://proxy.internal:3128', noProxy });
  it.each([
    ['https://hooks.example.com/x', undefined, true],
    ['https://hooks.example.com/x', 'hooks.example.com', false],
    ['https://hooks.example.com/x', 'example.com', true],
    ['https://hooks.example.com/x', '.example.com', false],
    ['https://hooks.example.com/x', '*.example.com', false],
    ['https://hooks.example.com/x', 'other.test, hooks.example.com:443', false],
    ['https://hooks.example.com:8443/x', 'hooks.example.com:443', true],
    ['http://10.0.0.5/x', '10.0.0.5', false],
    ['https://[::1]:9000/x', '[::1]:9000', false],
    ['https://anything.test/', '*', false],
  ])('%s with NO_PROXY=%s → %s', (url, noProxy, expected) => {
    expect(proxyApplies(proxy(noProxy), new URL(url))).toBe(expected);
  });

  it('never applies without a proxy URL', () => {
    expect(proxyApplies(undefined, new URL('https://a.test'))).toBe(false);
    expect(proxyApplies({ url: ' ' }, new URL('https://a.test'))).toBe(false);
  });
});

describe('openProxyTunnel (HTTP CONNECT)', () => {
  const receiver = new LocalWebhookReceiver();
  const plain = new LocalHttpProxy();
  // RFC 9110 §9.3.6: any 2xx to CONNECT means the tunnel is up, not only 200.
  const answersWith202 = new LocalHttpProxy({ establishedStatus: '202 Accepted' });
  const withCredentials = new LocalHttpProxy({ credentials: { username: 'relay user', password: 'p@ss:word' } });

  beforeAll(async () => {
    await Promise.all([receiver.start(), plain.start(), answersWith202.start(), withCredentials.start()]);
  });
  afterAll(async () => {
    await Promise.all([receiver.close(), plain.close(), answersWith202.close(), withCredentials.close()]);
  });

  /** One HTTP/1.1 request written into the tunnel; resolves with the status line of the answer. */
  async function requestThrough(proxy: URL): Promise<string> {
    const tunnel = await openProxyTunnel(proxy, connectAuthority('127.0.0.1', receiver.port), 3000);
    try {
      tunnel.write(`POST /tunnelled HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
      let answer = '';
      for await (const chunk of tunnel) answer += String(chunk);
      return answer.split('\r\n')[0];
    } finally {
      tunnel.destroy();
    }
  }

  it.each([
    ['200 Connection Established', () => plain],
    ['202 Accepted', () => answersWith202],
  ])('carries a request to the target once the proxy answers %s', async (_status, proxy) => {
    receiver.clearRequests();
    expect(await requestThrough(new URL(proxy().url))).toBe('HTTP/1.1 200 OK');
    expect(proxy().requests.at(-1)).toMatchObject({ method: 'CONNECT', target: `127.0.0.1:${receiver.port}` });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/tunnelled']);
  });

  it('sends the credentials of the proxy URL, and fails on 407 without them', async () => {
    const url = new URL(withCredentials.url);
    await expect(openProxyTunnel(url, `127.0.0.1:${receiver.port}`, 3000)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
      message: expect.stringContaining('HTTP 407'),
    });
    const withParts = httpProxyUrl({ host: '127.0.0.1', port: Number(url.port), username: 'relay user', password: 'p@ss:word' });
    expect(await requestThrough(withParts)).toBe('HTTP/1.1 200 OK');
    expect(withCredentials.requests.map((request) => request.status)).toEqual([407, 200]);
  });

  it('names IPv6 targets in brackets', () => {
    expect(connectAuthority('::1', 443)).toBe('[::1]:443');
    expect(connectAuthority('[::1]', 443)).toBe('[::1]:443');
    expect(connectAuthority('10.0.0.1', 80)).toBe('10.0.0.1:80');
  });
});

describe('fetchThrough', () => {
  const receiver = new LocalWebhookReceiver();
  const proxy = new LocalHttpProxy();
  beforeAll(async () => {
    await Promise.all([receiver.start(), proxy.start()]);
  });
  afterAll(async () => {
    await Promise.all([receiver.close(), proxy.close()]);
  });

  it('sends through the dispatcher it is given, and directly without one', async () => {
    const viaProxy = new Agent({
      connect: (options, callback) => {
        openProxyTunnel(new URL(proxy.url), connectAuthority(options.hostname, Number(options.port)), 3000).then(
          (socket) => callback(null, socket),
          (error: Error) => callback(error, null),
        );
      },
    });
    try {
      expect((await fetchThrough(viaProxy)(`${receiver.url}/proxied`, { method: 'POST', body: '{}' })).status).toBe(200);
      expect(proxy.targets).toEqual([`127.0.0.1:${receiver.port}`]);
      expect((await fetchThrough(undefined)(`${receiver.url}/direct`, { method: 'POST', body: '{}' })).status).toBe(200);
      expect(proxy.requests).toHaveLength(1);
      expect(receiver.requests.map((request) => request.path)).toEqual(['/proxied', '/direct']);
    } finally {
      await viaProxy.close();
    }
  });
});
