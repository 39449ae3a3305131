import { createSelfSignedCertificate, LocalWebhookReceiver, verifyHostMonitorSignature, verifyStandardWebhookSignature } from '@shared/testing';
import type { ResolvedAddress } from './address-guard';
import { buildSignedWebhookBody, SignedWebhookSender, type SignedWebhookMessage } from './signed-webhook-sender';
import { standardWebhookKey, standardWebhookSignature, verifyStandardWebhook } from './standard-webhooks';

const message: SignedWebhookMessage = {
  deliveryId: 'outbox-7f1c',
  eventType: 'issues.opened',
  event: { kind: 'issues.opened', repository: 'o/r', number: 12 },
  title: 'Issue opened: crash on start',
  bodyText: '<b>crash</b> on start',
  bodyPlain: 'crash on start',
  emittedAt: new Date('2024-05-01T10:00:00.000Z'),
};

describe('SignedWebhookSender against a local receiver', () => {
  const receiver = new LocalWebhookReceiver();
  const secret = 'channel-secret-1';
  const sender = new SignedWebhookSender({ timeoutMs: 1000 });

  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => receiver.clearRequests());

  it('posts the spec body with both signature schemes', async () => {
    const result = await sender.send({ url: receiver.urlFor('/hook'), secret, allowPrivate: true }, message);
    expect(result).toMatchObject({ outcome: 'sent', status: 200, attempts: 1, deliveryId: 'outbox-7f1c' });
    const request = receiver.requests[0];
    if (!request) throw new Error('nothing received');
    expect(JSON.parse(request.bodyText)).toEqual({
      spec_version: '1',
      delivery_id: 'outbox-7f1c',
      emitted_at: '2024-05-01T10:00:00.000Z',
      event: { kind: 'issues.opened', repository: 'o/r', number: 12 },
      title: 'Issue opened: crash on start',
      body_text: '<b>crash</b> on start',
      body_plain: 'crash on start',
    });
    expect(Object.keys(JSON.parse(request.bodyText))).toEqual(['spec_version', 'delivery_id', 'emitted_at', 'event', 'title', 'body_text', 'body_plain']);
    expect(request.headers['x-host-monitor-event']).toBe('issues.opened');
    expect(request.headers['x-host-monitor-delivery']).toBe('outbox-7f1c');
    expect(request.headers['webhook-id']).toBe('outbox-7f1c');
    expect(request.headers['x-host-monitor-timestamp']).toBe(request.headers['webhook-timestamp']);
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(verifyHostMonitorSignature(request, secret)).toBe(true);
    expect(verifyStandardWebhookSignature(request, secret)).toBe(true);
    expect(verifyHostMonitorSignature(request, 'other')).toBe(false);
    expect(verifyStandardWebhookSignature(request, 'other')).toBe(false);
    expect(result.body).toBe(request.bodyText);
  });

  it('signs with the decoded key when the secret is a whsec_ secret', async () => {
    const whsec = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    await sender.send({ url: receiver.urlFor('/hook'), secret: whsec, allowPrivate: true }, message);
    const request = receiver.requests[0];
    if (!request) throw new Error('nothing received');
    expect(verifyStandardWebhookSignature(request, whsec)).toBe(true);
    expect(standardWebhookKey(whsec).toString()).toBe('0123456789abcdef0123456789abcdef');
  });

  it('refuses a loopback target unless private targets are allowed, without connecting', async () => {
    const result = await sender.send({ url: receiver.urlFor('/hook'), secret }, message);
    expect(result).toMatchObject({ outcome: 'permanent', errorCode: 'private_target_refused', attempts: 0 });
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the vetted address and keeps the name in the Host header (no second lookup)', async () => {
    const lookups: string[] = [];
    const resolver = async (hostname: string): Promise<ResolvedAddress[]> => {
      lookups.push(hostname);
      // A rebinding resolver: only the first answer is ever the receiver.
      return lookups.length === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '192.0.2.1', family: 4 }];
    };
    const pinned = new SignedWebhookSender({ resolver, timeoutMs: 1000 });
    const result = await pinned.send({ url: `http://hooks.example.test:${receiver.port}/pinned`, secret, allowPrivate: true }, message);
    expect(result.outcome).toBe('sent');
    expect(lookups).toEqual(['hooks.example.test']);
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.example.test:${receiver.port}`);
    expect(receiver.requests[0]?.path).toBe('/pinned');
  });

  it('over https, connects to the pinned address but checks the certificate against the name (SNI)', async () => {
    const certificate = createSelfSignedCertificate(['hooks.example.test']);
    const tlsReceiver = new LocalWebhookReceiver({ tls: certificate });
    await tlsReceiver.start();
    try {
      const resolver = async (): Promise<ResolvedAddress[]> => [{ address: '127.0.0.1', family: 4 }];
      const trusting = new SignedWebhookSender({ resolver, trustedCa: certificate.cert, timeoutMs: 2000 });
      const sent = await trusting.send({ url: `https://hooks.example.test:${tlsReceiver.port}/tls`, secret, allowPrivate: true }, message);
      expect(sent).toMatchObject({ outcome: 'sent', status: 200 });
      expect(tlsReceiver.requests[0]?.headers.host).toBe(`hooks.example.test:${tlsReceiver.port}`);
      // Same address, another name: the certificate does not match, so nothing is delivered.
      const mismatch = await trusting.send({ url: `https://other.example.test:${tlsReceiver.port}/tls`, secret, allowPrivate: true }, message);
      expect(mismatch).toMatchObject({ outcome: 'retryable', errorCode: 'network_error' });
      expect(mismatch.message).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      // Without trusting the certificate, TLS verification stays on.
      const strict = await new SignedWebhookSender({ resolver }).send({ url: `https://hooks.example.test:${tlsReceiver.port}/tls`, secret, allowPrivate: true }, message);
      expect(strict.outcome).toBe('retryable');
      expect(tlsReceiver.requests).toHaveLength(1);
    } finally {
      await tlsReceiver.close();
    }
  });

  it('refuses a name that resolves to the metadata address', async () => {
    const resolver = async (): Promise<ResolvedAddress[]> => [{ address: '169.254.169.254', family: 4 }];
    const guarded = new SignedWebhookSender({ resolver });
    expect(await guarded.send({ url: 'http://metadata.example.test/', secret }, message)).toMatchObject({ outcome: 'permanent', errorCode: 'private_target_refused' });
  });

  it('does not follow redirects and treats them as permanent', async () => {
    receiver.replyNext({ status: 307, redirectTo: receiver.urlFor('/elsewhere') });
    const result = await sender.send({ url: receiver.urlFor('/hook'), secret, allowPrivate: true }, message);
    expect(result).toMatchObject({ outcome: 'permanent', status: 307, errorCode: 'redirect_refused' });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/hook']);
  });

  it.each([
    [500, 'retryable'],
    [503, 'retryable'],
    [408, 'retryable'],
    [400, 'permanent'],
    [404, 'permanent'],
    [410, 'permanent'],
  ])('classifies HTTP %i as %s', async (status, outcome) => {
    receiver.replyNext({ status });
    expect(await sender.send({ url: receiver.urlFor('/hook'), secret, allowPrivate: true }, message)).toMatchObject({ outcome, status });
  });

  it('reads Retry-After of a 429, capped at one hour', async () => {
    receiver.replyNext({ status: 429, headers: { 'retry-after': '120' } }, { status: 429, headers: { 'retry-after': '86400' } });
    const target = { url: receiver.urlFor('/hook'), secret, allowPrivate: true };
    expect(await sender.send(target, message)).toMatchObject({ outcome: 'retryable', errorCode: 'rate_limited', retryAfterSeconds: 120 });
    expect(await sender.send(target, message)).toMatchObject({ outcome: 'retryable', retryAfterSeconds: 3600 });
  });

  it('treats timeouts and dropped connections as retryable', async () => {
    receiver.replyNext({ status: 200, delayMs: 3000 }, { status: 200, destroy: true });
    const target = { url: receiver.urlFor('/hook'), secret, allowPrivate: true };
    expect(await sender.send(target, message)).toMatchObject({ outcome: 'retryable', errorCode: 'timeout' });
    expect(await sender.send(target, message)).toMatchObject({ outcome: 'retryable', errorCode: 'network_error' });
  });

  it('treats a bad URL and a missing secret as permanent', async () => {
    expect(await sender.send({ url: 'hooks.example.com/x', secret }, message)).toMatchObject({ outcome: 'permanent', errorCode: 'invalid_url' });
    expect(await sender.send({ url: receiver.urlFor('/hook'), secret: '', allowPrivate: true }, message)).toMatchObject({ outcome: 'permanent' });
  });
});

describe('Standard Webhooks helpers', () => {
  const body = buildSignedWebhookBody(message);

  it('verifies its own signature and refuses replays and tampering', () => {
    const now = new Date('2024-05-01T10:00:00Z');
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = { 'webhook-id': 'id-1', 'webhook-timestamp': String(timestamp), 'webhook-signature': `v0,xyz ${standardWebhookSignature('s3cret', 'id-1', timestamp, body)}` };
    expect(verifyStandardWebhook('s3cret', headers, body, { now })).toBe(true);
    expect(verifyStandardWebhook('s3cret', headers, `${body} `, { now })).toBe(false);
    expect(verifyStandardWebhook('s3cret', { ...headers, 'webhook-id': 'id-2' }, body, { now })).toBe(false);
    expect(verifyStandardWebhook('s3cret', headers, body, { now: new Date(now.getTime() + 301_000) })).toBe(false);
  });

  it('matches the example of the Standard Webhooks specification', () => {
    // Test vector from github.com/standard-webhooks/standard-webhooks (libraries' shared tests).
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = standardWebhookSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
