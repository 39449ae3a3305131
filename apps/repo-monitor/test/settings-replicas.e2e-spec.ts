import { requestJson, testDatabaseDriver } from '@shared/testing';
import { Client } from 'pg';
import { NotificationChannelSource } from '../src/app/notifications/notification-channels';
import { SettingsStore } from '../src/app/settings/settings.store';
import { SETTINGS_CHANNEL } from '../src/app/settings/settings-changes';
import { sendDelivery } from './github-fixtures';
import { AdminSession, RunningMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY, adminHeaders, loginAdmin, startMonitor } from './harness';

const OLD_SECRET = 'inbound-secret-before-rotation';
const NEW_SECRET = 'inbound-secret-after-rotation';
const GRACE_MS = 10_000;
const onPostgres = testDatabaseDriver() === 'postgres';

const ping = { zen: 'Keep it logically awesome.', hook_id: 1 };
const accepted = (status: number) => status >= 200 && status < 300;
const refused = (status: number) => status === 401 || status === 429;

/** Sends pings signed with `secret` to `url` every 25 ms until one is accepted or `boundMs` passes. */
async function pollUntilAccepted(url: string, secret: string, boundMs: number): Promise<{ acceptedAfterMs: number | undefined; refusals: number }> {
  const started = Date.now();
  let refusals = 0;
  for (let attempt = 0; attempt < 1_000 && Date.now() - started < boundMs; attempt++) {
    const answer = await sendDelivery(url, 'ping', ping, { secret });
    if (accepted(answer.status)) return { acceptedAfterMs: Date.now() - started, refusals };
    expect(refused(answer.status)).toBe(true);
    refusals++;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { acceptedAfterMs: undefined, refusals };
}

/**
 * Webhook secret rotation in the console. On PostgreSQL two instances share one database (A saves,
 * B receives); their settings refresh is set to a minute, so B can only see the change in time
 * through LISTEN/NOTIFY. On SQLite (one instance) A is B.
 */
describe(`webhook secret rotation across replicas (${onPostgres ? 'two instances on PostgreSQL' : 'SQLite, one instance'})`, () => {
  let a: RunningMonitor;
  let b: RunningMonitor;
  let admin: AdminSession;
  let listener: Client | undefined;

  beforeAll(async () => {
    a = await startMonitor({
      env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, MONITOR_SETTINGS_REFRESH: '60s', MONITOR_VCS_WEBHOOK_SECRET_GRACE: `${GRACE_MS}ms` },
    });
    admin = await loginAdmin(a);
    const first = await requestJson(a.url, '/api/v1/github/app', { method: 'PUT', body: { webhook_secret: OLD_SECRET }, headers: adminHeaders(admin) });
    expect(first.status).toBe(200);
    b = onPostgres ? await startMonitor({ reuseEnv: a.env }) : a;
    if (onPostgres && a.config.database.driver === 'postgres') {
      listener = new Client({ connectionString: a.config.database.url });
      await listener.connect();
      await listener.query(`LISTEN ${SETTINGS_CHANNEL}`);
    }
  });

  afterAll(async () => {
    await listener?.end();
    if (b !== a) await b?.stop();
    await a?.close();
  });

  it('accepts the new secret on the saving instance at once and on the other after the notify; the old one for the grace period only', async () => {
    // Both instances hold the old secret in memory (a minute's refresh) before the rotation.
    expect((await sendDelivery(a.url, 'ping', ping, { secret: OLD_SECRET })).status).toBe(202);
    expect((await sendDelivery(b.url, 'ping', ping, { secret: OLD_SECRET })).status).toBe(202);
    expect(refused((await sendDelivery(b.url, 'ping', ping, { secret: NEW_SECRET })).status)).toBe(true);

    const notified = new Promise<string | undefined>((resolve) => listener?.once('notification', (message) => resolve(message.payload)));
    const saved = await requestJson(a.url, '/api/v1/github/app', { method: 'PUT', body: { webhook_secret: NEW_SECRET }, headers: adminHeaders(admin) });
    const savedAt = Date.now();
    expect(saved.status).toBe(200);

    // The saving instance: the first delivery after the save's answer, no wait at all; the old
    // secret, inside the grace period, too.
    expect((await sendDelivery(a.url, 'ping', ping, { secret: NEW_SECRET })).status).toBe(202);
    expect((await sendDelivery(a.url, 'ping', ping, { secret: OLD_SECRET })).status).toBe(202);

    if (listener) expect(await notified).toBe('github_app');
    // The other instance learns of it through its own listener connection, asynchronously: poll
    // (bounded at 2 s, far below the one-minute refresh, so only the notify can make it in time).
    const seen = await pollUntilAccepted(b.url, NEW_SECRET, 2_000);
    expect(seen.acceptedAfterMs).toBeDefined();
    // The old secret, inside the grace period (asked at once, not after the burst below, so a slow
    // machine cannot carry the request past its end).
    expect((await sendDelivery(b.url, 'ping', ping, { secret: OLD_SECRET })).status).toBe(202);
    // Once it has applied the change, nothing signed with the new secret is refused.
    const burst = await Promise.all(Array.from({ length: 40 }, () => sendDelivery(b.url, 'ping', ping, { secret: NEW_SECRET })));
    expect(burst.filter((answer) => !accepted(answer.status))).toEqual([]);

    // After the grace period the old secret is refused (polled, bounded), never before its end.
    const deadline = savedAt + GRACE_MS + 10_000;
    let refusedAt: number | undefined;
    for (let attempt = 0; attempt < 500 && Date.now() < deadline; attempt++) {
      const sentAt = Date.now();
      const answer = await sendDelivery(b.url, 'ping', ping, { secret: OLD_SECRET });
      if (refused(answer.status)) {
        refusedAt = sentAt;
        break;
      }
      expect(answer.status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refusedAt).toBeDefined();
    // The expiry is set when the save runs, a moment before its answer.
    expect((refusedAt as number) - savedAt).toBeGreaterThanOrEqual(GRACE_MS - 1_000);
    expect(refused((await sendDelivery(a.url, 'ping', ping, { secret: OLD_SECRET })).status)).toBe(true);
    expect((await sendDelivery(a.url, 'ping', ping, { secret: NEW_SECRET })).status).toBe(202);
  });

  it('stores the previous secret sealed, with its expiry', async () => {
    const result = (await a.app.get(SettingsStore).get<Record<string, unknown>>('github.webhook_secret_previous')) ?? {};
    expect(result).toEqual({ envelope: expect.any(String), expires_at: expect.any(Number) });
    expect(JSON.stringify(result)).not.toContain(OLD_SECRET);
  });

  it('applies a channel change on the other instance through the notify', async () => {
    if (!onPostgres) return;
    const channels = b.app.get(NotificationChannelSource);
    expect(await channels.enabledChannels()).toEqual([]);
    const created = await requestJson(a.url, '/api/v1/notification-channels', {
      method: 'POST',
      body: { kind: 'http_webhook', name: 'receiver', url: 'http://127.0.0.1:9/hook', allow_private: true, secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64') },
      headers: adminHeaders(admin),
    });
    expect(created.status).toBe(201);
    const started = Date.now();
    let names: string[] = [];
    for (let attempt = 0; attempt < 100 && Date.now() - started < 2_000; attempt++) {
      names = (await channels.enabledChannels()).map((channel) => channel.target);
      if (names.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(names).toEqual(['http://127.0.0.1:9/hook']);
  });
});
