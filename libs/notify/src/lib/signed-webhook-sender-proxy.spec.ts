import { createSelfSignedCertificate, LocalHttpProxy, LocalWebhookReceiver, verifyHostMonitorSignature } from '@shared/testing';
import type { ResolvedAddress } from './address-guard';
import { SignedWebhookSender, type SignedWebhookMessage } from './signed-webhook-sender';

const message: SignedWebhookMessage = {
  deliveryId: 'outbox-proxy-1',
  eventType: 'issues.opened',
  event: { kind: 'issues.opened' },
  title: 'Issue opened',
  bodyText: 'opened',
  bodyPlain: 'opened',
};

describe('SignedWebhookSender through HTTPS_PROXY', () => {
  const secret = 'proxy-secret';
  const certificate = createSelfSignedCertificate(['hooks.example.test']);
  const receiver = new LocalWebhookReceiver({ tls: certificate });
  const proxy = new LocalHttpProxy();
  const authProxy = new LocalHttpProxy({ credentials: { username: 'relay', password: 'p@ss word' } });
  const lookups: string[] = [];
  // The name only resolves here: the proxy must be given the vetted IP, never the name.
  const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  };

  beforeAll(async () => {
    await Promise.all([receiver.start(), proxy.start(), authProxy.start()]);
  });
  afterAll(async () => {
    await Promise.all([receiver.close(), proxy.close(), authProxy.close()]);
  });
  beforeEach(() => {
    receiver.clearRequests();
    proxy.requests.length = 0;
    authProxy.requests.length = 0;
    lookups.length = 0;
  });

  it('tunnels to the vetted IP with CONNECT while Host, SNI and certificate name stay the host name', async () => {
    const sender = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 3000, proxy: { url: proxy.url } });
    const result = await sender.send({ url: `https://hooks.example.test:${receiver.port}/via-proxy`, secret, allowPrivate: true }, message);
    expect(result).toMatchObject({ outcome: 'sent', status: 200 });
    expect(proxy.requests.map((request) => [request.method, request.target, request.status])).toEqual([['CONNECT', `127.0.0.1:${receiver.port}`, 200]]);
    expect(lookups).toEqual(['hooks.example.test']);
    const received = receiver.requests[0];
    expect(received?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    expect(received && verifyHostMonitorSignature(received, secret)).toBe(true);
  });

  it('checks the certificate against the name through the tunnel', async () => {
    const sender = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 3000, proxy: { url: proxy.url } });
    const result = await sender.send({ url: `https://wrong-name.example.test:${receiver.port}/x`, secret, allowPrivate: true }, message);
    expect(result).toMatchObject({ outcome: 'retryable', errorCode: 'network_error' });
    expect(result.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
    expect(proxy.targets).toEqual([`127.0.0.1:${receiver.port}`]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('still refuses a private target before asking the proxy', async () => {
    const sender = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, proxy: { url: proxy.url } });
    const result = await sender.send({ url: `https://hooks.example.test:${receiver.port}/x`, secret }, message);
    expect(result).toMatchObject({ outcome: 'permanent', errorCode: 'private_target_refused', attempts: 0 });
    expect(proxy.requests).toEqual([]);
  });

  it('sends Proxy-Authorization from the proxy URL; wrong credentials fail as retryable', async () => {
    const good = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 3000, proxy: { url: authProxy.urlWithCredentials } });
    expect(await good.send({ url: `https://hooks.example.test:${receiver.port}/auth`, secret, allowPrivate: true }, message)).toMatchObject({ outcome: 'sent' });
    const bad = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 3000, proxy: { url: authProxy.url } });
    expect(await bad.send({ url: `https://hooks.example.test:${receiver.port}/auth`, secret, allowPrivate: true }, message)).toMatchObject({ outcome: 'retryable' });
    expect(authProxy.requests.map((request) => request.status)).toEqual([200, 407]);
    expect(receiver.requests).toHaveLength(1);
  });

  it('connects directly (pinned) when NO_PROXY names the host', async () => {
    const sender = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 3000, proxy: { url: proxy.url, noProxy: '.example.test' } });
    expect(await sender.send({ url: `https://hooks.example.test:${receiver.port}/direct`, secret, allowPrivate: true }, message)).toMatchObject({ outcome: 'sent' });
    expect(proxy.requests).toEqual([]);
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
  });

  it('tunnels plain http targets too', async () => {
    const plain = new LocalWebhookReceiver();
    await plain.start();
    try {
      const sender = new SignedWebhookSender({ resolver, timeoutMs: 3000, proxy: { url: proxy.url } });
      expect(await sender.send({ url: `http://hooks.example.test:${plain.port}/plain`, secret, allowPrivate: true }, message)).toMatchObject({ outcome: 'sent' });
      expect(proxy.targets).toEqual([`127.0.0.1:${plain.port}`]);
      expect(plain.requests[0]?.headers.host).toBe(`hooks.example.test:${plain.port}`);
    } finally {
      await plain.close();
    }
  });
});
