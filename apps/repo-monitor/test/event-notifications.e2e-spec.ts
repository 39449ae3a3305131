import { requestJson } from '@shared/testing';
import { EventEntity } from '../src/app/events/event.entity';
import { OutboxEntryEntity } from '../src/app/outbox/outbox-entry.entity';
import { DatabaseWork } from '../src/database/database-work';
import { adminHeaders, AdminSession, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV, TEST_ENCRYPTION_KEY } from './harness';

interface Page<T> {
  items: T[];
  total: number;
}

/**
 * An event says where its notifications stand (queued, failing, failed, sent...), not only "notified",
 * and its outbox entries can be listed by event (issue 33 item 6).
 */
describe('GET /api/v1/events: where each event\u2019s notifications stand', () => {
  let monitor: RunningMonitor;
  let session: AdminSession;
  const ids: Record<string, number> = {};
  const later = new Date('2100-01-01T00:00:00Z');

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV, MONITOR_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY } });
    session = await loginAdmin(monitor);
    const manager = monitor.app.get(DatabaseWork).dataSource.manager;
    const now = new Date();
    let minute = 0;
    const event = async (name: string, notified: boolean) => {
      const row = await manager.getRepository(EventEntity).save({
        repositoryId: null,
        deliveryId: null,
        kind: 'issues.opened',
        category: 'issue',
        title: name,
        bodyText: name,
        htmlUrl: null,
        actor: null,
        fingerprint: `fp-${name}`,
        notified,
        occurredAt: new Date(Date.UTC(2026, 10, 20, 10, minute++)),
        createdAt: now,
      });
      ids[name] = row.id;
    };
    // Entries not due for a long time: the worker leaves them as they are while the test reads them.
    const entry = (name: string, key: string, state: OutboxEntryEntity['state'], attempts: number, aggregatedInto: number | null = null) =>
      manager.getRepository(OutboxEntryEntity).save({
        idempotencyKey: key,
        eventId: ids[name] ?? null,
        channelId: 'channel-a',
        channelKind: 'http_webhook',
        groupKey: `channel-a|${key}`,
        role: 'single',
        aggregatedInto,
        itemCount: 1,
        message: '{}',
        state,
        attempts,
        nextAttemptAt: later,
        leaseUntil: null,
        lastErrorCode: attempts > 0 ? 'http_500' : null,
        lastError: attempts > 0 ? 'the receiver answered 500' : null,
        sentAt: state === 'sent' ? now : null,
        createdAt: now,
        updatedAt: now,
      });
    await event('silent', false);
    await event('queued', true);
    await event('failing', true);
    await event('failed', true);
    await event('sent', true);
    await event('merged', true);
    await event('pruned', true);
    await entry('queued', 'q1', 'pending', 0);
    await entry('failing', 'f1', 'pending', 3);
    await entry('failing', 'f2', 'sent', 1);
    await entry('failed', 'd1', 'dead', 8);
    await entry('sent', 's1', 'sent', 1);
    // A member merged into a leader that keeps failing: it stands as its leader does.
    const leader = await entry('nothing', 'leader', 'pending', 2);
    await entry('merged', 'm1', 'suppressed', 0, leader.id);
  });
  afterAll(async () => {
    await monitor?.close();
  });

  it('names queued, failing, failed and sent instead of a bare yes', async () => {
    const page = await requestJson<Page<{ title: string; notified: boolean; notification: string }>>(monitor.url, '/api/v1/events?per_page=100', { headers: adminHeaders(session) });
    expect(page.status).toBe(200);
    const standing = Object.fromEntries(page.body.items.map((item) => [item.title, item.notification]));
    expect(standing).toEqual({
      silent: 'not_notified',
      queued: 'queued',
      failing: 'failing',
      failed: 'failed',
      sent: 'sent',
      merged: 'failing',
      pruned: 'notified',
    });
  });

  it('lists an event\u2019s outbox entries with ?event_id=, and refuses a bad one', async () => {
    const entries = await requestJson<Page<{ idempotency_key?: string; event_id: number; state: string }>>(monitor.url, `/api/v1/notifications/outbox?event_id=${ids['failing']}`, {
      headers: adminHeaders(session),
    });
    expect(entries.status).toBe(200);
    expect(entries.body.items.map((item) => [item.event_id, item.state]).sort()).toEqual([
      [ids['failing'], 'pending'],
      [ids['failing'], 'sent'],
    ]);
    expect((await requestJson(monitor.url, '/api/v1/notifications/outbox?event_id=0', { headers: adminHeaders(session) })).status).toBe(400);
    expect((await requestJson(monitor.url, '/api/v1/notifications/outbox?event_id=x', { headers: adminHeaders(session) })).status).toBe(400);
  });
});
