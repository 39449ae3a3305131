import { LocalWebhookReceiver, requestJson, verifyHostMonitorSignature, type RecordedRequest } from '@shared/testing';
import { Webhook } from 'standardwebhooks';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

/** The headers of a recorded request as the official library takes them (single string values). */
function headersOf(request: RecordedRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
  return headers;
}

describe('outbound webhooks verified with the official Standard Webhooks library', () => {
  const receiver = new LocalWebhookReceiver();
  const FREE_FORM_SECRET = 'legacy-free-form-outbound-secret';
  let monitor: RunningMonitor;
  let session: AdminSession;

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    requestJson<T>(monitor.url, path, { method, headers: adminHeaders(session), body });
  const lastDelivery = (path: string): RecordedRequest => {
    const requests = receiver.requestsTo(path);
    const last = requests[requests.length - 1];
    if (!last) throw new Error(`no request reached ${path}`);
    return last;
  };

  beforeAll(async () => {
    await receiver.start();
    monitor = await startMonitor({
      env: {
        ...TEST_ADMIN_ENV,
        MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        // An existing deployment's free-form secret, seeded from the environment as before.
        MONITOR_HTTP_WEBHOOK_URL: receiver.urlFor('/seeded'),
        MONITOR_HTTP_WEBHOOK_SECRET: FREE_FORM_SECRET,
        MONITOR_HTTP_WEBHOOK_ALLOW_PRIVATE: 'true',
      },
    });
    session = await loginAdmin(monitor);
  });
  afterAll(async () => {
    await monitor?.close();
    await receiver.close();
  });

  it('generates a whsec_ secret for a new channel, answers it once, and new Webhook(secret).verify accepts every delivery', async () => {
    const created = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'Generated', url: receiver.urlFor('/generated'), allow_private: true });
    expect(created.status).toBe(201);
    const secret = created.body['secret'] as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.body['id'] as string;
    expect((await call('GET', `/api/v1/notification-channels/${id}`)).body).not.toHaveProperty('secret');

    expect((await call('POST', `/api/v1/notification-channels/${id}/test`)).body).toMatchObject({ ok: true });
    const delivery = lastDelivery('/generated');
    const verified = new Webhook(secret).verify(delivery.rawBody.toString('utf8'), headersOf(delivery));
    expect(verified).toMatchObject({ spec_version: '1', event: { kind: 'test' } });
    // The spec's own header is still there, signed with the same secret.
    expect(verifyHostMonitorSignature(delivery, secret)).toBe(true);
    // A changed body or another secret is refused by the library.
    expect(() => new Webhook(secret).verify(`${delivery.rawBody.toString('utf8')} `, headersOf(delivery))).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(delivery.rawBody.toString('utf8'), headersOf(delivery))).toThrow();
  });

  it('rotates a channel to a generated secret: the new one verifies, the old one no longer does', async () => {
    const created = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'Rotated', url: receiver.urlFor('/rotated'), allow_private: true });
    const id = created.body['id'] as string;
    const oldSecret = created.body['secret'] as string;
    const rotated = await call('POST', `/api/v1/notification-channels/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body['secret'] as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await call('POST', `/api/v1/notification-channels/${id}/test`);
    const delivery = lastDelivery('/rotated');
    expect(() => new Webhook(newSecret).verify(delivery.rawBody.toString('utf8'), headersOf(delivery))).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(delivery.rawBody.toString('utf8'), headersOf(delivery))).toThrow();
    const audit = await call<{ items: Array<{ action: string; target: string }> }>('GET', '/api/v1/audit-log');
    expect(audit.body.items.some((entry) => entry.action === 'notification_channel.secret_rotated' && entry.target === id)).toBe(true);
  });

  it('keeps an existing free-form secret working for receivers that verify with the raw-secret option, and rotates it to whsec_', async () => {
    const channels = await call<{ items: Array<{ id: string; url: string }> }>('GET', '/api/v1/notification-channels');
    const seeded = channels.body.items.find((channel) => channel.url === receiver.urlFor('/seeded'));
    expect(seeded).toBeDefined();
    await call('POST', `/api/v1/notification-channels/${seeded?.id}/test`);
    const delivery = lastDelivery('/seeded');
    const raw = new Webhook(new TextEncoder().encode(FREE_FORM_SECRET), { format: 'raw' });
    expect(raw.verify(delivery.rawBody.toString('utf8'), headersOf(delivery))).toMatchObject({ spec_version: '1' });
    expect(verifyHostMonitorSignature(delivery, FREE_FORM_SECRET)).toBe(true);

    const rotated = await call('POST', `/api/v1/notification-channels/${seeded?.id}/rotate-secret`);
    await call('POST', `/api/v1/notification-channels/${seeded?.id}/test`);
    const after = lastDelivery('/seeded');
    expect(() => new Webhook(rotated.body['secret'] as string).verify(after.rawBody.toString('utf8'), headersOf(after))).not.toThrow();
  });

  it('refuses a given secret that is not whsec_ with a 400 that says how to make one; 400/401/404 on the rotate endpoint', async () => {
    for (const secret of ['a-free-form-secret-of-some-length', `whsec_${Buffer.alloc(8, 1).toString('base64')}`, 'whsec_not base64 at all!!']) {
      const refused = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'bad', url: receiver.urlFor('/bad'), allow_private: true, secret });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error_code: 'validation_failed', details: { field: 'secret' } });
      expect(String(refused.body['message'])).toContain('openssl rand -base64 32');
    }
    const given = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const accepted = await call('POST', '/api/v1/notification-channels', { kind: 'http_webhook', name: 'given', url: receiver.urlFor('/given'), allow_private: true, secret: given });
    expect(accepted.status).toBe(201);
    expect(accepted.body).not.toHaveProperty('secret');
    const badPatch = await call('PATCH', `/api/v1/notification-channels/${accepted.body['id'] as string}`, { secret: 'another-free-form-secret-1' });
    expect(badPatch.status).toBe(400);

    const anonymous = await requestJson(monitor.url, `/api/v1/notification-channels/${accepted.body['id'] as string}/rotate-secret`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
    expect((await call('POST', '/api/v1/notification-channels/not-a-uuid/rotate-secret')).status).toBe(400);
    expect((await call('POST', '/api/v1/notification-channels/3f1c8a52-4c1e-4f7b-9c59-0d6b2a1e7f10/rotate-secret')).status).toBe(404);
    const telegram = await call('POST', '/api/v1/notification-channels', { kind: 'telegram', name: 'chat', chat_id: '-1001', secret: '123456:TEST-bot-token' });
    expect((await call('POST', `/api/v1/notification-channels/${telegram.body['id'] as string}/rotate-secret`)).status).toBe(400);
  });
});
