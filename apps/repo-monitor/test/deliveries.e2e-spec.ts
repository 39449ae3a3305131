import { requestJson, waitFor } from '@shared/testing';
import { WebhookRejectionRepository } from '../src/app/deliveries/webhook-rejection.repository';
import { MAX_RECORDED_PER_MINUTE, WebhookRejectionRecorder } from '../src/app/webhooks/webhook-rejection-recorder';
import { INBOUND_SECRET, sendDelivery } from './github-fixtures';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

interface ListBody<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}
interface Rejection {
  reason: string;
  http_status: number;
  detail: string | null;
  delivery_id: string | null;
  event: string | null;
  body_bytes: number | null;
}
interface Delivery {
  delivery_id: string;
  event: string;
  status: string;
  handled: boolean;
}

/** The Deliveries page's API: accepted deliveries, and refused ones with their reason, bounded and without bodies (issue 33 item 6). */
describe('GET /api/v1/deliveries and /api/v1/deliveries/rejected', () => {
  const started: RunningMonitor[] = [];
  let monitor: RunningMonitor;
  let session: AdminSession;

  const start = async (env: Record<string, string>) => {
    const instance = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, ...env } });
    started.push(instance);
    return { instance, session: await loginAdmin(instance) };
  };
  const list = async <T>(target: RunningMonitor, as: AdminSession, path: string): Promise<ListBody<T>> => {
    const answer = await requestJson<ListBody<T>>(target.url, path, { headers: adminHeaders(as) });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const rejected = (query = '') => list<Rejection>(monitor, session, `/api/v1/deliveries/rejected?per_page=100${query}`);
  const rejectedReaching = async (count: number) => {
    await waitFor(async () => (await rejected()).total >= count, 10_000);
    return rejected();
  };

  beforeAll(async () => {
    const withSecret = await start({ MONITOR_VCS_WEBHOOK_SECRET: INBOUND_SECRET });
    monitor = withSecret.instance;
    session = withSecret.session;
  });
  afterAll(async () => {
    for (const instance of started) await instance.close();
  });

  it('records a delivery refused for want of a secret as no_secret', async () => {
    const { instance, session: own } = await start({});
    const answer = await sendDelivery(instance.url, 'ping', { zen: 'x' }, { deliveryId: 'no-secret-1' });
    expect(answer.status).toBe(503);
    await waitFor(async () => (await list<Rejection>(instance, own, '/api/v1/deliveries/rejected')).total === 1, 10_000);
    const [row] = (await list<Rejection>(instance, own, '/api/v1/deliveries/rejected')).items;
    expect(row).toMatchObject({ reason: 'no_secret', http_status: 503, delivery_id: 'no-secret-1', event: 'ping' });
  });

  it('lists accepted deliveries newest first, saying which kinds are not handled', async () => {
    expect((await sendDelivery(monitor.url, 'ping', { zen: 'Keep it logically awesome.' }, { deliveryId: 'accepted-ping' })).status).toBe(202);
    expect((await sendDelivery(monitor.url, 'fork', { forkee: {} }, { deliveryId: 'accepted-fork' })).status).toBe(202);
    const page = await list<Delivery>(monitor, session, '/api/v1/deliveries');
    expect(page.items.map((item) => [item.delivery_id, item.event, item.handled])).toEqual([
      ['accepted-fork', 'fork', false],
      ['accepted-ping', 'ping', true],
    ]);
    expect((await list<Delivery>(monitor, session, '/api/v1/deliveries?event=ping')).items.map((item) => item.delivery_id)).toEqual(['accepted-ping']);
    expect((await rejected()).total).toBe(0);
  });

  it('records each refusal with its reason, and never the body', async () => {
    const marker = 'SECRET-BODY-MARKER-93f1';
    expect((await sendDelivery(monitor.url, 'issues', { marker }, { deliveryId: 'bad-sig', secret: 'wrong-secret' })).status).toBe(401);
    expect((await sendDelivery(monitor.url, 'issues', { marker }, { headers: { 'x-github-delivery': '' } })).status).toBe(400);
    expect((await sendDelivery(monitor.url, 'issues', null, { deliveryId: 'not-json', rawBody: `[${JSON.stringify(marker)}]` })).status).toBe(400);
    expect((await sendDelivery(monitor.url, 'issues', null, { deliveryId: 'too-large', rawBody: JSON.stringify({ marker, pad: 'x'.repeat(1024 * 1024) }) })).status).toBe(413);
    const page = await rejectedReaching(4);
    expect(page.items.map((item) => [item.reason, item.http_status, item.delivery_id]).sort()).toEqual(
      [
        ['bad_signature', 401, 'bad-sig'],
        ['missing_headers', 400, null],
        ['malformed_body', 400, 'not-json'],
        ['too_large', 413, 'too-large'],
      ].sort(),
    );
    expect(page.items.find((item) => item.reason === 'too_large')?.body_bytes).toBeGreaterThan(1024 * 1024);
    expect(JSON.stringify(page)).not.toContain(marker);
    expect((await rejected('&reason=bad_signature')).items.map((item) => item.delivery_id)).toEqual(['bad-sig']);
  });

  it('stores at most MAX_RECORDED_PER_MINUTE refusals a minute, and prunes to the newest rows', async () => {
    for (let index = 0; index < MAX_RECORDED_PER_MINUTE + 10; index++) {
      const answer = await sendDelivery(monitor.url, 'issues', {}, { deliveryId: `flood-${index}`, secret: 'wrong-secret' });
      expect([401, 429]).toContain(answer.status);
    }
    const recorder = monitor.app.get(WebhookRejectionRecorder);
    await waitFor(() => recorder.dropped > 0, 10_000);
    await waitFor(async () => (await rejected()).total >= MAX_RECORDED_PER_MINUTE, 10_000);
    const page = await rejected();
    expect(page.total).toBe(MAX_RECORDED_PER_MINUTE);
    expect(page.items.some((item) => item.reason === 'too_many_bad_signatures')).toBe(true);
    const store = monitor.app.get(WebhookRejectionRepository);
    expect(await store.prune(5)).toBe(MAX_RECORDED_PER_MINUTE - 5);
    expect(await store.count()).toBe(5);
  });

  it('answers 401 without a session and 400 on a bad filter', async () => {
    expect((await requestJson(monitor.url, '/api/v1/deliveries')).status).toBe(401);
    expect((await requestJson(monitor.url, '/api/v1/deliveries/rejected')).status).toBe(401);
    const bad = await requestJson(monitor.url, '/api/v1/deliveries/rejected?reason=nope', { headers: adminHeaders(session) });
    expect(bad.status).toBe(400);
    expect((await requestJson(monitor.url, '/api/v1/deliveries?status=nope', { headers: adminHeaders(session) })).status).toBe(400);
    expect((await requestJson(monitor.url, '/api/v1/deliveries?event=Not%20An%20Event', { headers: adminHeaders(session) })).status).toBe(400);
  });
});
