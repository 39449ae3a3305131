import { createHmac } from 'node:crypto';
import { Agent } from 'undici';
import { createSelfSignedCertificate } from '../self-signed-certificate';
import { LocalWebhookReceiver, verifyHostMonitorSignature, verifySha256SignatureHeader, verifyStandardWebhookSignature } from './local-webhook-receiver';

describe('LocalWebhookReceiver', () => {
  const receiver = new LocalWebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => receiver.clearRequests());

  it('records the raw body and headers and answers queued replies, then the default', async () => {
    receiver.replyNext({ status: 503, body: 'down', headers: { 'retry-after': '7' } });
    const first = await fetch(receiver.urlFor('/a?x=1'), { method: 'POST', body: Buffer.from([0xe2, 0x82, 0xac]), headers: { 'x-test': 'yes' } });
    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(await first.text()).toBe('down');
    expect((await fetch(receiver.urlFor('/a'), { method: 'POST', body: '{}' })).status).toBe(200);
    expect(receiver.requests[0]).toMatchObject({ method: 'POST', path: '/a', url: '/a?x=1', bodyText: '€' });
    expect(receiver.requests[0]?.rawBody.equals(Buffer.from('€'))).toBe(true);
    expect(receiver.requests[0]?.headers['x-test']).toBe('yes');
    expect(receiver.requestsTo('/a')).toHaveLength(2);
  });

  it('redirects, delays and drops connections on request', async () => {
    receiver.replyNext({ status: 301, redirectTo: '/b' }, { status: 200, delayMs: 150 }, { status: 200, destroy: true });
    const redirect = await fetch(receiver.urlFor('/a'), { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/b');
    const started = Date.now();
    await fetch(receiver.urlFor('/a'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await expect(fetch(receiver.urlFor('/a'))).rejects.toThrow();
  });

  it('verifies sha256= headers and Standard Webhooks signatures', async () => {
    const body = '{"hello":"world"}';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const standard = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`msg_1.${timestamp}.${body}`).digest('base64');
    await fetch(receiver.urlFor('/signed'), {
      method: 'POST',
      body,
      headers: {
        'x-signature-256': `sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`,
        'x-host-monitor-signature-256': `sha256=${createHmac('sha256', 'm').update(body).digest('hex')}`,
        'webhook-id': 'msg_1',
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,bogus v1,${standard}`,
      },
    });
    const request = receiver.requests[0];
    if (!request) throw new Error('nothing recorded');
    expect(verifySha256SignatureHeader(request, 'k')).toBe(true);
    expect(verifySha256SignatureHeader(request, 'm')).toBe(false);
    expect(verifyHostMonitorSignature(request, 'm')).toBe(true);
    expect(verifyStandardWebhookSignature(request, secret)).toBe(true);
    expect(verifyStandardWebhookSignature(request, 'whsec_AAAA')).toBe(false);
    expect(verifyStandardWebhookSignature({ ...request, headers: { ...request.headers, 'webhook-timestamp': String(Number(timestamp) - 1000) } }, secret)).toBe(false);
  });

  it('speaks HTTPS with a self-signed certificate for a made-up name', async () => {
    const certificate = createSelfSignedCertificate(['hooks.example.test']);
    const secure = new LocalWebhookReceiver({ tls: certificate });
    await secure.start();
    const trusting = new Agent({ connect: { ca: certificate.cert } });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(secure.urlFor('/tls'), { method: 'POST', body: 'x', dispatcher: trusting } as unknown as RequestInit);
      expect(response.status).toBe(200);
      await expect(fetch(secure.urlFor('/tls'))).rejects.toThrow();
      expect(secure.requestsTo('/tls')).toHaveLength(1);
    } finally {
      await trusting.close();
      await secure.close();
    }
  });
});
