import { SchedulerRegistry } from '@nestjs/schedule';
import { requestJson } from '@shared/testing';
import { DataSource } from 'typeorm';
import { EventEntity } from '../src/app/events/event.entity';
import { OutboxEntryEntity, OutboxState } from '../src/app/outbox/outbox-entry.entity';
import { RETENTION_JOB_ID, RetentionScheduler } from '../src/app/retention/retention.scheduler';
import { RETENTION_BATCH } from '../src/app/retention/retention.service';
import { DeliveryStatus, WebhookDeliveryEntity } from '../src/app/deliveries/webhook-delivery.entity';
import { adminHeaders, loginAdmin, RunningMonitor, startMonitor, TEST_ADMIN_ENV } from './harness';

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
// Never due while the test runs, so the outbox worker leaves the pending rows alone.
const FAR_FUTURE = new Date(Date.now() + 365 * DAY_MS);

describe('retention job', () => {
  let monitor: RunningMonitor;
  let sequence = 0;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { ...TEST_ADMIN_ENV } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  const manager = () => monitor.app.get(DataSource).manager;

  async function event(createdAt: Date): Promise<number> {
    sequence++;
    const saved = await manager().save(EventEntity, {
      repositoryId: null,
      deliveryId: null,
      kind: 'issues',
      category: 'issue',
      title: `event ${sequence}`,
      bodyText: '',
      htmlUrl: null,
      actor: null,
      fingerprint: `retention-${sequence}`,
      notified: true,
      occurredAt: createdAt,
      createdAt,
    });
    return saved.id;
  }

  async function outbox(state: OutboxState, updatedAt: Date, extra: Partial<OutboxEntryEntity> = {}): Promise<number> {
    sequence++;
    const saved = await manager().save(OutboxEntryEntity, {
      idempotencyKey: `retention-${sequence}`,
      eventId: null,
      channelId: 'gone',
      channelKind: 'http_webhook',
      groupKey: 'retention',
      role: 'single',
      aggregatedInto: null,
      itemCount: 1,
      message: '{}',
      state,
      attempts: 0,
      nextAttemptAt: FAR_FUTURE,
      leaseUntil: state === 'sending' ? FAR_FUTURE : null,
      lastErrorCode: null,
      lastError: null,
      sentAt: null,
      createdAt: updatedAt,
      updatedAt,
      ...extra,
    });
    return saved.id;
  }

  async function deliveries(status: DeliveryStatus, receivedAt: Date, count = 1): Promise<void> {
    const rows = Array.from({ length: count }, () => {
      sequence++;
      return { deliveryId: `retention-${sequence}`, event: 'ping', action: null, installationId: null, repositoryFullName: null, payload: '{}', status, attempts: 0, lastError: null, receivedAt, processedAt: null };
    });
    for (let start = 0; start < rows.length; start += 200) await manager().insert(WebhookDeliveryEntity, rows.slice(start, start + 200));
  }

  it('is registered as a daily job in the SchedulerRegistry', () => {
    expect(monitor.app.get(SchedulerRegistry).getCronJob(RETENTION_JOB_ID)).toBeDefined();
  });

  it('deletes old finished rows by the retention settings, in batches, and keeps work still to do', async () => {
    // Defaults: events 90 days, outbox 30, deliveries 30; events are shortened through the API.
    const session = await loginAdmin(monitor);
    expect((await requestJson(monitor.url, '/api/v1/system/settings', { method: 'PUT', headers: adminHeaders(session), body: { retention: { events_days: 60 } } })).status).toBe(200);

    const oldEvent = await event(daysAgo(61));
    const recentEvent = await event(daysAgo(59));
    const oldEventStillSending = await event(daysAgo(100));

    const removedOutbox = await Promise.all([outbox('sent', daysAgo(31)), outbox('dead', daysAgo(31)), outbox('suppressed', daysAgo(31))]);
    const keptOutbox = await Promise.all([outbox('sent', daysAgo(29)), outbox('dead', daysAgo(29)), outbox('pending', daysAgo(200)), outbox('sending', daysAgo(200))]);
    keptOutbox.push(await outbox('pending', daysAgo(200), { eventId: oldEventStillSending }));
    const pendingParent = await outbox('pending', daysAgo(200), { role: 'aggregate' });
    keptOutbox.push(pendingParent, await outbox('suppressed', daysAgo(200), { aggregatedInto: pendingParent }));

    await deliveries('processed', daysAgo(31), RETENTION_BATCH * 2 + 7);
    await deliveries('duplicate', daysAgo(31));
    await deliveries('failed', daysAgo(31));
    await deliveries('accepted', daysAgo(400), 3);
    await deliveries('processed', daysAgo(29), 2);

    const report = await monitor.app.get(RetentionScheduler).tick();
    expect(report).toMatchObject({ events: 1, outbox: 3, deliveries: RETENTION_BATCH * 2 + 9 });

    const events = (await manager().find(EventEntity)).map((row) => row.id);
    expect(events).not.toContain(oldEvent);
    expect(events).toEqual(expect.arrayContaining([recentEvent, oldEventStillSending]));
    const outboxIds = (await manager().find(OutboxEntryEntity)).map((row) => row.id);
    for (const id of removedOutbox) expect(outboxIds).not.toContain(id);
    expect(outboxIds).toEqual(expect.arrayContaining(keptOutbox));
    const statuses = (await manager().find(WebhookDeliveryEntity)).filter((row) => row.deliveryId.startsWith('retention-')).map((row) => row.status).sort();
    expect(statuses).toEqual(['accepted', 'accepted', 'accepted', 'processed', 'processed']);

    // A second run finds nothing more.
    expect(await monitor.app.get(RetentionScheduler).tick()).toMatchObject({ events: 0, outbox: 0, deliveries: 0 });
  });
});
