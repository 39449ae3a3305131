import { LocalHttpProxy } from '@shared/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Dispatcher, request } from 'undici';
import { createOutboundDispatcher } from './outbound-dispatcher';

describe('createOutboundDispatcher', () => {
  let target: Server;
  let targetUrl: string;
  let proxy: LocalHttpProxy;
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => res.end(`hello ${req.url}`));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    proxy = await new LocalHttpProxy().start();
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.close()));
    proxy.requests.length = 0;
  });

  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  async function fetchThrough(dispatcher: Dispatcher, path: string): Promise<string> {
    dispatchers.push(dispatcher);
    const response = await request(`${targetUrl}${path}`, { dispatcher });
    return response.body.text();
  }

  it('connects directly when no proxy is configured', async () => {
    expect(await fetchThrough(createOutboundDispatcher({}), '/direct')).toBe('hello /direct');
    expect(proxy.requests).toEqual([]);
  });

  it('sends requests through HTTPS_PROXY', async () => {
    const body = await fetchThrough(createOutboundDispatcher({ httpsProxy: proxy.url }), '/proxied');
    expect(body).toBe('hello /proxied');
    expect(proxy.requests).toHaveLength(1);
    expect(proxy.requests[0].target).toContain(new URL(targetUrl).host);
  });

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const body = await fetchThrough(createOutboundDispatcher({ httpsProxy: proxy.url, noProxy: 'example.com, 127.0.0.1' }), '/bypass');
    expect(body).toBe('hello /bypass');
    expect(proxy.requests).toEqual([]);
  });

  it('still proxies hosts that NO_PROXY does not name', async () => {
    await fetchThrough(createOutboundDispatcher({ httpsProxy: proxy.url, noProxy: '.example.com,localhost' }), '/other');
    expect(proxy.requests).toHaveLength(1);
  });
});
