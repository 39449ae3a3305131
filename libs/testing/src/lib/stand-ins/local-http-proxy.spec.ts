import { ProxyAgent } from 'undici';
import { LocalHttpProxy } from './local-http-proxy';
import { LocalWebhookReceiver } from './local-webhook-receiver';

describe('LocalHttpProxy', () => {
  const target = new LocalWebhookReceiver();
  const proxy = new LocalHttpProxy({ credentials: { username: 'alice', password: 's3cret' } });

  beforeAll(async () => {
    await target.start();
    await proxy.start();
  });
  afterAll(async () => {
    await proxy.close();
    await target.close();
  });

  it('tunnels with CONNECT and records the host', async () => {
    const agent = new ProxyAgent({ uri: proxy.urlWithCredentials });
    try {
      const response = await fetch(target.urlFor('/through'), { dispatcher: agent } as unknown as RequestInit);
      expect(response.status).toBe(200);
      expect(proxy.requests.at(-1)).toMatchObject({ method: 'CONNECT', target: `127.0.0.1:${target.port}`, status: 200 });
      expect(target.requestsTo('/through')).toHaveLength(1);
    } finally {
      await agent.close();
    }
  });

  it('forwards plain requests by absolute URL without leaking the proxy credentials', async () => {
    const agent = new ProxyAgent({ uri: proxy.urlWithCredentials, proxyTunnel: false });
    try {
      const response = await fetch(target.urlFor('/forwarded'), { dispatcher: agent } as unknown as RequestInit);
      expect(response.status).toBe(200);
      expect(proxy.requests.at(-1)).toMatchObject({ method: 'GET', target: `127.0.0.1:${target.port}`, url: target.urlFor('/forwarded'), status: 200 });
      expect(target.requestsTo('/forwarded')[0]?.headers['proxy-authorization']).toBeUndefined();
    } finally {
      await agent.close();
    }
  });

  it('answers 407 without the right credentials', async () => {
    const agent = new ProxyAgent({ uri: proxy.url });
    try {
      await expect(fetch(target.urlFor('/refused'), { dispatcher: agent } as unknown as RequestInit)).rejects.toThrow();
      expect(proxy.requests.at(-1)).toMatchObject({ method: 'CONNECT', status: 407 });
      expect(target.requestsTo('/refused')).toHaveLength(0);
    } finally {
      await agent.close();
    }
  });
});
