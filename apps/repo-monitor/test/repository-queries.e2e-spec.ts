import { AdminAccountRepository } from '../src/app/admin/admin-account.repository';
import { AdminSessionRepository } from '../src/app/admin/admin-session.repository';
import { DigestRepository } from '../src/app/ai/digest.repository';
import { PrReviewRepository } from '../src/app/ai/pr-review.repository';
import { PayloadReader } from '../src/app/common/payload-reader';
import { NewWebhookDelivery, WebhookDeliveryRepository } from '../src/app/deliveries/webhook-delivery.repository';
import { EventRepository, NewEvent } from '../src/app/events/event.repository';
import { InstallationRepository } from '../src/app/installations/installation.repository';
import { NotificationChannelEntity } from '../src/app/notification-channels/notification-channel.entity';
import { NotificationChannelRepository } from '../src/app/notification-channels/notification-channel.repository';
import { OutboxEntryEntity, OutboxState } from '../src/app/outbox/outbox-entry.entity';
import { OutboxRepository } from '../src/app/outbox/outbox.repository';
import { DeliveryInbox } from '../src/app/processing/delivery-inbox';
import { DeliveryProcessor } from '../src/app/processing/delivery-processor';
import { RepositoryRepository } from '../src/app/repositories/repository.repository';
import { EncryptedColumnRepository } from '../src/app/settings/encrypted-column.repository';
import { ENCRYPTED_COLUMNS } from '../src/app/settings/encrypted-columns';
import { SettingsStore } from '../src/app/settings/settings.store';
import { SecurityAlertRepository } from '../src/app/security-alerts/security-alert.repository';
import { WorkItemRepository, WorkItemState } from '../src/app/work-items/work-item.repository';
import { WorkflowRunRepository } from '../src/app/workflow-runs/workflow-run.repository';
import { sql } from '../src/database/sql';
import { at, recordsFixture } from './records-fixture';

const QUARTER_HOUR = 900;
const quarterOf = (date: Date) => Math.floor(date.getTime() / 1000 / QUARTER_HOUR);

/**
 * The queries the dashboard, the digests, PR review, key rotation, the admin account and the webhook
 * deliveries asked of TypeORM or raw SQL themselves before they moved into the repositories, on the driver of the run
 * (TEST_DATABASE_DRIVER): the rows each answers, and writes inside the caller's transaction.
 */
describe('queries in the repositories', () => {
  const records = recordsFixture();
  const { repository } = records;
  const repositories = () => records.app.get(RepositoryRepository);
  const events = () => records.app.get(EventRepository);
  let fingerprint = 0;

  const event = (fields: Partial<NewEvent> & Pick<NewEvent, 'occurredAt'>): Promise<number | undefined> =>
    records.database.transaction((manager) =>
      events().insertIfNew(manager, {
        repositoryId: null,
        deliveryId: null,
        kind: 'issues.opened',
        category: 'issue',
        title: 'an event',
        bodyText: '',
        htmlUrl: null,
        actor: null,
        fingerprint: `queries-${++fingerprint}`,
        notified: false,
        createdAt: fields.occurredAt,
        ...fields,
      }),
    );

  let key = 0;
  const entry = (state: OutboxState, times: { createdAt: Date; sentAt?: Date; updatedAt?: Date }, links: Partial<Pick<OutboxEntryEntity, 'eventId' | 'aggregatedInto'>> = {}) => {
    const outbox = records.app.get(OutboxRepository);
    return records.database.transaction((manager) =>
      outbox.save(
        manager,
        outbox.create({
          idempotencyKey: `queries-${++key}`,
          eventId: null,
          channelId: 'queries',
          channelKind: 'webhook',
          groupKey: `queries-${key}`,
          message: '{}',
          state,
          // Never due: the worker must not take them while the test counts them.
          nextAttemptAt: new Date(Date.UTC(2100, 0, 1)),
          sentAt: times.sentAt ?? null,
          createdAt: times.createdAt,
          updatedAt: times.updatedAt ?? times.createdAt,
          ...links,
        }),
      ),
    );
  };

  describe('counts of the dashboard and the digests', () => {
    const open = (title: string): WorkItemState => ({ title, state: 'open', merged: false, draft: false, author: null, htmlUrl: 'https://github.com/acme/c/1', githubUpdatedAt: at(1) });

    it('counts open issues and pull requests by kind, and open alerts not ignored', async () => {
      const workItems = records.app.get(WorkItemRepository);
      const alerts = records.app.get(SecurityAlertRepository);
      const before = { items: await workItems.countOpenByKind(), alerts: await alerts.countOpen() };
      const { id } = await repository('acme/counts');
      await records.database.transaction(async (manager) => {
        await workItems.upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 1 }, open('one'), at(2));
        await workItems.upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 2 }, open('two'), at(2));
        await workItems.upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 3 }, { ...open('closed'), state: 'closed' }, at(2));
        await workItems.upsertIfNewer(manager, { repositoryId: id, kind: 'pull_request', number: 4 }, open('a pull request'), at(2));
        const alert = { repositoryId: id, kind: 'dependabot' as const, state: 'open', severity: 'high', summary: 's', htmlUrl: 'https://github.com/acme/counts/security' };
        await alerts.upsert(manager, { ...alert, number: 1 }, at(2));
        await alerts.upsert(manager, { ...alert, number: 2 }, at(2));
        await alerts.upsert(manager, { ...alert, number: 3, state: 'fixed' }, at(2));
      });
      const ignored = await alerts.find({ repositoryId: id, state: 'open' }, { skip: 0, perPage: 1, page: 1 });
      await alerts.setIgnored(ignored.rows[0].id, true, at(3));

      expect(await workItems.countOpenByKind()).toEqual({ issue: before.items.issue + 2, pull_request: before.items.pull_request + 1 });
      expect(await alerts.countOpen()).toBe(before.alerts + 1);
    });

    it('counts runs by conclusion from a time on, and before an end when given', async () => {
      const runs = records.app.get(WorkflowRunRepository);
      const { id } = await repository('acme/failing');
      let runId = 80_000;
      const run = (conclusion: string | null, now: Date) =>
        records.database.transaction((manager) =>
          runs.upsert(
            manager,
            { runId: ++runId, repositoryId: id, workflowName: 'CI', headBranch: 'main', headSha: 'abc', triggerEvent: 'push', status: 'completed', conclusion, runAttempt: 1, htmlUrl: 'https://github.com/acme/failing/actions/runs/1' },
            now,
          ),
        );
      await run('failure', at(10));
      await run('failure', at(20));
      await run('timed_out', at(20));
      await run('success', at(20));
      await run('failure', at(30));
      expect(await runs.countConcluded(['failure'], at(20))).toBe(2);
      expect(await runs.countConcluded(['failure', 'timed_out'], at(20), at(30))).toBe(2);
      expect(await runs.countConcluded(['failure'], at(10), at(31))).toBe(3);
      expect(await runs.countConcluded(['cancelled'], at(0))).toBe(0);
    });

    it('counts installations not removed, active repositories and enabled (and tested) channels', async () => {
      const installations = records.app.get(InstallationRepository);
      const channels = records.app.get(NotificationChannelRepository);
      const before = { installations: await installations.countActive(), repositories: await repositories().countActive(), enabled: await channels.countEnabled(), tested: await channels.countEnabled({ testedOk: true }) };

      await records.database.transaction(async (manager) => {
        await installations.recordWebhookAction(manager, PayloadReader.of({ id: 301, account: { login: 'kept' } }), 'created', at(1));
        await installations.recordWebhookAction(manager, PayloadReader.of({ id: 302, account: { login: 'gone' } }), 'created', at(1));
        await installations.recordWebhookAction(manager, PayloadReader.of({ id: 302, account: { login: 'gone' } }), 'deleted', at(2));
      });
      const removed = await repository('acme/removed');
      await records.database.transaction((manager) => repositories().markRemoved(manager, [removed.fullName], at(2)));
      await repository('acme/active');
      const channel = (id: string, enabled: boolean, lastTestOk: boolean | null) =>
        records.database.dataSource.getRepository(NotificationChannelEntity).insert({
          id,
          kind: 'http_webhook',
          name: id,
          enabled,
          config: '{}',
          secret: null,
          allowPrivate: false,
          eventKinds: '[]',
          lastTestAt: null,
          lastTestOk,
          lastTestError: null,
          createdAt: at(1),
          updatedAt: at(1),
        } as NotificationChannelEntity);
      await channel('00000000-0000-4000-8000-000000000001', true, true);
      await channel('00000000-0000-4000-8000-000000000002', true, false);
      await channel('00000000-0000-4000-8000-000000000003', true, null);
      await channel('00000000-0000-4000-8000-000000000004', false, true);

      expect(await installations.countActive()).toBe(before.installations + 1);
      expect(await repositories().countActive()).toBe(before.repositories + 1);
      expect(await channels.countEnabled()).toBe(before.enabled + 3);
      expect(await channels.countEnabled({ testedOk: true })).toBe(before.tested + 1);
    });
  });

  describe('EventRepository', () => {
    it('counts events per quarter hour and category from a time on, and answers the latest', async () => {
      const since = new Date(Date.UTC(2026, 5, 1, 0, 0));
      const minute = (m: number) => new Date(since.getTime() + m * 60_000);
      await event({ occurredAt: new Date(since.getTime() - 1000) });
      await event({ occurredAt: minute(1) });
      await event({ occurredAt: minute(14) });
      await event({ occurredAt: minute(14), category: 'security', kind: 'dependabot_alert.created' });
      const last = await event({ occurredAt: minute(16) });
      const rows = await events().countPerBucketAndCategory(since, QUARTER_HOUR);
      expect(rows.sort((a, b) => a.bucket - b.bucket || a.category.localeCompare(b.category))).toEqual([
        { bucket: quarterOf(since), category: 'issue', count: 2 },
        { bucket: quarterOf(since), category: 'security', count: 1 },
        { bucket: quarterOf(minute(16)), category: 'issue', count: 1 },
      ]);
      expect((await events().latest(2)).map((row) => row.id)).toEqual([last, (last as number) - 1]);
    });

    it('answers a period\u2019s counts by category, busiest repositories and headlines without digests', async () => {
      const start = new Date(Date.UTC(2026, 6, 1));
      const end = new Date(Date.UTC(2026, 6, 2));
      const inside = (hour: number) => new Date(start.getTime() + hour * 3_600_000);
      const busy = await repository('acme/busy');
      const quiet = await repository('acme/quiet');
      await event({ occurredAt: inside(1), repositoryId: busy.id, title: 'first' });
      await event({ occurredAt: inside(2), repositoryId: busy.id, title: 'second', category: 'pr', kind: 'pull_request.opened' });
      await event({ occurredAt: inside(3), repositoryId: quiet.id, title: 'third' });
      await event({ occurredAt: inside(4), title: 'Daily digest', kind: 'digest.daily', category: 'other' });
      await event({ occurredAt: end, repositoryId: quiet.id, title: 'the next day' });

      expect(await events().countByCategory(start, end)).toEqual({ issue: 2, pr: 1, other: 1 });
      expect(await events().busiestRepositories(start, end, 5)).toEqual([
        { name: 'acme/busy', count: 2 },
        { name: 'acme/quiet', count: 1 },
      ]);
      expect(await events().busiestRepositories(start, end, 1)).toEqual([{ name: 'acme/busy', count: 2 }]);
      expect(await events().headlines(start, end, 60)).toEqual([
        { title: 'third', name: 'acme/quiet' },
        { title: 'second', name: 'acme/busy' },
        { title: 'first', name: 'acme/busy' },
      ]);
    });

    it('deletes events created before a time, at most a batch and lowest id first, keeping those an unsent outbox entry reads', async () => {
      const old = (day: number) => new Date(Date.UTC(2018, 0, day));
      const cutoff = old(20);
      const ids = [] as number[];
      for (const day of [1, 2, 3, 4, 25]) ids.push((await event({ occurredAt: old(day), title: `old ${day}` })) as number);
      const [, readByPending, readBySending, readBySent, recent] = ids;
      // The entries themselves are recent (retention of the outbox is not what this tests); the events they read are old.
      await entry('pending', { createdAt: at(1) }, { eventId: readByPending });
      await entry('sending', { createdAt: at(1) }, { eventId: readBySending });
      await entry('sent', { createdAt: at(1) }, { eventId: readBySent });
      const stored = async () => (await records.database.rows<{ id: number | string }>(sql`SELECT "id" FROM "events" WHERE "id" IN (${ids}) ORDER BY "id"`)).map((row) => Number(row.id));
      const deleteBatch = (limit: number) => records.database.transaction((manager) => events().deleteUnreferencedBefore(manager, cutoff, limit));

      await expect(
        records.database.transaction(async (manager) => {
          expect(await events().deleteUnreferencedBefore(manager, cutoff, 10)).toBe(2);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await stored()).toEqual(ids);
      expect(await deleteBatch(1)).toBe(1);
      expect(await stored()).toEqual([readByPending, readBySending, readBySent, recent]);
      expect(await deleteBatch(10)).toBe(1);
      expect(await stored()).toEqual([readByPending, readBySending, recent]);
    });
  });

  describe('OutboxRepository', () => {
    it('counts sent and dead entries per quarter hour, entries per state, and finds the oldest pending', async () => {
      const outbox = records.app.get(OutboxRepository);
      const since = new Date(Date.UTC(2026, 7, 1));
      const minute = (m: number) => new Date(since.getTime() + m * 60_000);
      const before = { pending: await outbox.countInState('pending'), dead: await outbox.countInState('dead') };
      await entry('sent', { createdAt: minute(-5), sentAt: minute(1) });
      await entry('sent', { createdAt: minute(1), sentAt: minute(20) });
      await entry('sent', { createdAt: minute(-20), sentAt: minute(-10) });
      await entry('dead', { createdAt: minute(1), updatedAt: minute(2) });
      await entry('dead', { createdAt: minute(-30), updatedAt: minute(-20) });
      const oldest = await entry('pending', { createdAt: new Date(Date.UTC(2020, 0, 1)) });
      await entry('pending', { createdAt: minute(3) });

      expect((await outbox.sentPerBucket(since, QUARTER_HOUR)).sort((a, b) => a.bucket - b.bucket)).toEqual([
        { bucket: quarterOf(minute(1)), count: 1 },
        { bucket: quarterOf(minute(20)), count: 1 },
      ]);
      expect(await outbox.deadPerBucket(since, QUARTER_HOUR)).toEqual([{ bucket: quarterOf(minute(2)), count: 1 }]);
      expect(await outbox.countInState('pending')).toBe(before.pending + 2);
      expect(await outbox.countInState('dead')).toBe(before.dead + 2);
      expect(await outbox.oldestPendingAt()).toEqual(oldest.createdAt);
      expect((await outbox.latest(1))[0].idempotencyKey).toBe(`queries-${key}`);
    });

    it('counts the stored entries per state', async () => {
      const outbox = records.app.get(OutboxRepository);
      const before = await outbox.countByState();
      await entry('pending', { createdAt: at(1) });
      await entry('suppressed', { createdAt: at(1) });
      await entry('suppressed', { createdAt: at(2) });
      await entry('dead', { createdAt: at(3) });
      const after = await outbox.countByState();
      expect(after).toEqual({ ...before, pending: (before.pending ?? 0) + 1, suppressed: (before.suppressed ?? 0) + 2, dead: (before.dead ?? 0) + 1 });
      expect(Object.values(after).every((count) => typeof count === 'number')).toBe(true);
    });

    it('deletes settled entries last updated before a time, at most a batch and lowest id first, keeping members of an unsent leader', async () => {
      const outbox = records.app.get(OutboxRepository);
      const old = (day: number) => new Date(Date.UTC(2019, 0, day));
      const cutoff = old(20);
      const sent = await entry('sent', { createdAt: old(1) });
      const dead = await entry('dead', { createdAt: old(2) });
      const suppressed = await entry('suppressed', { createdAt: old(3) });
      const pending = await entry('pending', { createdAt: old(4) });
      const sending = await entry('sending', { createdAt: old(5) });
      const waitingMember = await entry('sent', { createdAt: old(6) }, { aggregatedInto: pending.id });
      const sentLeader = await entry('sent', { createdAt: old(7) });
      const sentMember = await entry('sent', { createdAt: old(8) }, { aggregatedInto: sentLeader.id });
      const recent = await entry('sent', { createdAt: old(25) });
      const ids = [sent, dead, suppressed, pending, sending, waitingMember, sentLeader, sentMember, recent].map((row) => row.id);
      const stored = async () => (await records.database.rows<{ id: number | string }>(sql`SELECT "id" FROM "notification_outbox" WHERE "id" IN (${ids}) ORDER BY "id"`)).map((row) => Number(row.id));
      const deleteBatch = (limit: number) => records.database.transaction((manager) => outbox.deleteSettledBefore(manager, cutoff, limit));

      expect(await deleteBatch(2)).toBe(2);
      expect(await stored()).toEqual([suppressed.id, pending.id, sending.id, waitingMember.id, sentLeader.id, sentMember.id, recent.id]);
      await expect(
        records.database.transaction(async (manager) => {
          expect(await outbox.deleteSettledBefore(manager, cutoff, 10)).toBe(3);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await stored()).toHaveLength(7);
      expect(await deleteBatch(10)).toBe(3);
      expect(await stored()).toEqual([pending.id, sending.id, waitingMember.id, recent.id]);
      expect(await deleteBatch(10)).toBe(0);
    });
  });

  describe('WebhookDeliveryRepository', () => {
    const deliveries = () => records.app.get(WebhookDeliveryRepository);
    // Stored through the repository, not the inbox: the running processor is told only of the inbox's deliveries, so these stay as the test leaves them.
    const incoming = (deliveryId: string, fields: Partial<NewWebhookDelivery> = {}): NewWebhookDelivery => ({
      deliveryId,
      event: 'issues',
      action: 'opened',
      installationId: 42,
      repositoryFullName: 'acme/deliveries',
      payload: JSON.stringify({ id: deliveryId }),
      receivedAt: at(1),
      ...fields,
    });
    const idOf = async (deliveryId: string): Promise<number> => {
      const [row] = await records.database.rows<{ id: number | string }>(sql`SELECT "id" FROM "webhook_deliveries" WHERE "delivery_id" = ${deliveryId}`);
      return Number(row.id);
    };

    it('stores new deliveries as accepted in one statement, answering the row ids of the new ones only, and lists the accepted oldest first', async () => {
      const first = await deliveries().insertAccepted([incoming('store-a'), incoming('store-b', { repositoryFullName: null })]);
      expect([...first.keys()]).toEqual(['store-a', 'store-b']);
      const again = await deliveries().insertAccepted([incoming('store-a'), incoming('store-c')]);
      expect([...again.keys()]).toEqual(['store-c']);
      const ids = [first.get('store-a'), first.get('store-b'), again.get('store-c')] as number[];
      expect(ids[0]).toBeLessThan(ids[1]);
      expect(ids[1]).toBeLessThan(ids[2]);
      const accepted = (await deliveries().accepted()).filter((row) => ids.includes(row.id));
      expect(accepted).toEqual([
        { id: ids[0], repositoryFullName: 'acme/deliveries' },
        { id: ids[1], repositoryFullName: null },
        { id: ids[2], repositoryFullName: 'acme/deliveries' },
      ]);
    });

    it('reads a delivery to process and marks it processed once, inside the caller\u2019s transaction', async () => {
      await deliveries().insertAccepted([incoming('process-a', { payload: '{"n":1}' }), incoming('process-b', { installationId: null })]);
      const id = await idOf('process-a');
      expect(await records.database.transaction((manager) => deliveries().toProcess(manager, id))).toEqual({
        deliveryId: 'process-a',
        event: 'issues',
        installationId: 42,
        payload: '{"n":1}',
        status: 'accepted',
      });
      expect((await records.database.transaction((manager) => deliveries().toProcess(manager, id + 100000))) ?? null).toBeNull();
      expect((await records.database.transaction((manager) => deliveries().toProcess(manager, 0))) ?? null).toBeNull();
      const other = await idOf('process-b');
      expect((await records.database.transaction((manager) => deliveries().toProcess(manager, other)))?.installationId).toBeNull();

      await expect(
        records.database.transaction(async (manager) => {
          expect(await deliveries().markProcessed(manager, id, at(2))).toBe(true);
          throw new Error('the delivery failed');
        }),
      ).rejects.toThrow('the delivery failed');
      expect((await records.database.transaction((manager) => deliveries().toProcess(manager, id)))?.status).toBe('accepted');

      expect(await records.database.transaction((manager) => deliveries().markProcessed(manager, id, at(3)))).toBe(true);
      expect(await records.database.transaction((manager) => deliveries().markProcessed(manager, id, at(4)))).toBe(false);
      expect((await records.database.transaction((manager) => deliveries().toProcess(manager, id)))?.status).toBe('processed');
      expect((await deliveries().accepted()).map((row) => row.id)).not.toContain(id);
      const [summary] = (await deliveries().latest(50)).filter((row) => row.id === id);
      expect(summary).toMatchObject({ status: 'processed', lastError: null, receivedAt: at(1), processedAt: at(3) });
    });

    it('counts failed attempts of an accepted delivery and gives it up at the limit', async () => {
      await deliveries().insertAccepted([incoming('fail-a')]);
      const id = await idOf('fail-a');
      expect(await records.database.transaction((manager) => deliveries().recordFailure(manager, id, 'first', 2))).toEqual({ attempts: 1, status: 'accepted' });
      expect(await records.database.transaction((manager) => deliveries().recordFailure(manager, id, 'second', 2))).toEqual({ attempts: 2, status: 'failed' });
      expect(await records.database.transaction((manager) => deliveries().recordFailure(manager, id, 'third', 2))).toBeUndefined();
      expect(await records.database.transaction((manager) => deliveries().markProcessed(manager, id, at(3)))).toBe(false);
      const [summary] = (await deliveries().latest(50)).filter((row) => row.id === id);
      expect(summary).toMatchObject({ status: 'failed', lastError: 'second', processedAt: null });
    });

    it('lists the latest deliveries newest first, without their payloads', async () => {
      const inbox = records.app.get(DeliveryInbox);
      for (const deliveryId of ['recent-1', 'recent-2', 'recent-3']) {
        await inbox.store({ deliveryId, event: 'ping', action: null, installationId: null, repositoryFullName: null, payload: '{"zen":"x"}', receivedAt: at(1) });
      }
      const latest = await deliveries().latest(2);
      expect(latest.map((row) => row.deliveryId)).toEqual(['recent-3', 'recent-2']);
      expect(latest[0]).toMatchObject({ event: 'ping', action: null, repositoryFullName: null, receivedAt: at(1) });
      expect(Object.keys(latest[0]).sort()).toEqual(['action', 'deliveryId', 'event', 'id', 'lastError', 'processedAt', 'receivedAt', 'repositoryFullName', 'status']);
      expect(Object.values(latest[0])).not.toContain('{"zen":"x"}');
    });

    it('reads a delivery\u2019s head and payload, and the newest pull_request payload of a repository', async () => {
      const inbox = records.app.get(DeliveryInbox);
      const store = (deliveryId: string, event: string, repositoryFullName: string, payload: object) =>
        inbox.store({ deliveryId, event, action: 'opened', installationId: 1, repositoryFullName, payload: JSON.stringify(payload), receivedAt: at(1) });
      await store('pr-a', 'pull_request', 'acme/described', { n: 1 });
      await store('pr-b', 'pull_request', 'acme/described', { n: 2 });
      await store('issue-c', 'issues', 'acme/described', { n: 3 });
      const [newest] = await deliveries().latest(1);
      expect(await deliveries().head(newest.id)).toEqual({ id: newest.id, event: 'issues', action: 'opened' });
      expect(JSON.parse((await deliveries().payload(newest.id)) as string)).toEqual({ n: 3 });
      expect(await deliveries().head(newest.id + 1000)).toBeNull();
      expect(await deliveries().payload(newest.id + 1000)).toBeUndefined();
      expect(JSON.parse((await deliveries().latestPullRequestPayload('acme/described')) as string)).toEqual({ n: 2 });
      expect(await deliveries().latestPullRequestPayload('acme/nothing')).toBeUndefined();
    });

    it('counts the stored deliveries per status', async () => {
      await records.app.get(DeliveryProcessor).drained();
      const before = await deliveries().countByStatus();
      await deliveries().insertAccepted([incoming('count-a'), incoming('count-b')]);
      const failing = await idOf('count-b');
      await records.database.transaction((manager) => deliveries().recordFailure(manager, failing, 'gone', 1));
      const after = await deliveries().countByStatus();
      expect(after).toEqual({ ...before, accepted: (before.accepted ?? 0) + 1, failed: (before.failed ?? 0) + 1 });
      expect(Object.values(after).every((count) => typeof count === 'number')).toBe(true);
    });

    it('deletes finished deliveries received before a time, oldest first and at most a batch, never an accepted one', async () => {
      const old = (minute: number) => new Date(Date.UTC(2020, 0, 1, 0, minute));
      await deliveries().insertAccepted(['old-processed-1', 'old-processed-2', 'old-failed', 'old-accepted', 'newer-processed'].map((deliveryId, index) => incoming(deliveryId, { receivedAt: old(index) })));
      const ids = Object.fromEntries(await Promise.all(['old-processed-1', 'old-processed-2', 'old-failed', 'old-accepted', 'newer-processed'].map(async (deliveryId) => [deliveryId, await idOf(deliveryId)] as const)));
      for (const name of ['old-processed-1', 'old-processed-2', 'newer-processed']) await records.database.transaction((manager) => deliveries().markProcessed(manager, ids[name], at(2)));
      await records.database.transaction((manager) => deliveries().recordFailure(manager, ids['old-failed'], 'gone', 1));

      const stored = async () => (await records.database.rows<{ delivery_id: string }>(sql`SELECT "delivery_id" FROM "webhook_deliveries" WHERE "delivery_id" IN (${Object.keys(ids)}) ORDER BY "id"`)).map((row) => row.delivery_id);
      expect(await records.database.transaction((manager) => deliveries().deleteFinishedBefore(manager, old(4), 2))).toBe(2);
      expect(await stored()).toEqual(['old-failed', 'old-accepted', 'newer-processed']);
      await expect(
        records.database.transaction(async (manager) => {
          expect(await deliveries().deleteFinishedBefore(manager, old(4), 2)).toBe(1);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await stored()).toEqual(['old-failed', 'old-accepted', 'newer-processed']);
      expect(await records.database.transaction((manager) => deliveries().deleteFinishedBefore(manager, old(4), 2))).toBe(1);
      expect(await stored()).toEqual(['old-accepted', 'newer-processed']);
    });
  });

  describe('PrReviewRepository', () => {
    const reviews = () => records.app.get(PrReviewRepository);
    const review = { repositoryFullName: 'acme/reviewed', prNumber: 5, title: 'Add it', htmlUrl: 'https://github.com/acme/reviewed/pull/5', installationId: 1 };

    it('claims one review per head commit, pending to running once, and requeues a stale one', async () => {
      const first = await records.database.transaction((manager) => reviews().insertIfNew(manager, { ...review, headSha: 'aaa' }, at(1)));
      expect(first).toEqual(expect.any(Number));
      expect(await records.database.transaction((manager) => reviews().insertIfNew(manager, { ...review, headSha: 'aaa' }, at(2)))).toBeUndefined();
      const second = await records.database.transaction((manager) => reviews().insertIfNew(manager, { ...review, headSha: 'bbb' }, at(2)));
      expect(await reviews().pendingIds()).toEqual([first, second]);

      expect(await records.database.transaction((manager) => reviews().claim(manager, first as number, at(3)))).toBe(true);
      expect(await records.database.transaction((manager) => reviews().claim(manager, first as number, at(3)))).toBe(false);
      expect(await reviews().pendingIds()).toEqual([second]);
      expect(await reviews().findById(first as number)).toMatchObject({ status: 'running', headSha: 'aaa', installationId: 1, updatedAt: at(3) });

      await reviews().requeueStale(at(3));
      expect(await reviews().pendingIds()).toEqual([second]);
      await reviews().requeueStale(at(4));
      expect(await reviews().pendingIds()).toEqual([first, second]);
    });

    it('finds the comment of the newest earlier review of the same pull request', async () => {
      expect(await reviews().latestCommentId('acme/commented', 9)).toBeNull();
      const ids: number[] = [];
      for (const headSha of ['c1', 'c2', 'c3']) ids.push((await records.database.transaction((manager) => reviews().insertIfNew(manager, { ...review, repositoryFullName: 'acme/commented', prNumber: 9, headSha }, at(1)))) as number);
      await records.database.transaction((manager) => reviews().update(manager, ids[0], { commentId: 111, updatedAt: at(2) }));
      await records.database.transaction((manager) => reviews().update(manager, ids[1], { commentId: 222, updatedAt: at(2) }));
      expect(Number(await reviews().latestCommentId('acme/commented', 9))).toBe(222);
      expect(await reviews().latestCommentId('acme/commented', 10)).toBeNull();
    });
  });

  describe('DigestRepository', () => {
    it('stores a digest inside the caller\u2019s transaction and knows its period key', async () => {
      const digests = records.app.get(DigestRepository);
      const digest = { period: 'daily' as const, periodKey: 'queries:daily', periodStart: at(0), periodEnd: at(1), source: 'template' as const, fallbackReason: 'disabled', title: 'Daily', body: 'b', eventId: null, createdAt: at(1) };
      await expect(
        records.database.transaction(async (manager) => {
          await digests.insert(manager, digest);
          expect(await digests.periodKeyTaken('queries:daily', manager)).toBe(true);
          throw new Error('the event failed');
        }),
      ).rejects.toThrow('the event failed');
      expect(await digests.periodKeyTaken('queries:daily')).toBe(false);
      const saved = await records.database.transaction((manager) => digests.insert(manager, digest));
      expect(saved).toMatchObject({ id: expect.any(Number), periodKey: 'queries:daily' });
      expect(await digests.periodKeyTaken('queries:daily')).toBe(true);
    });
  });

  describe('admin account and sessions', () => {
    const session = (id: string, expiresAt: Date) => ({ id, tokenHash: id.padEnd(64, 't'), csrfHash: 'c'.repeat(64), createdAt: at(0), expiresAt, lastSeenAt: at(0), clientIp: null, userAgent: null });

    it('creates the one account only once and updates it inside the caller\u2019s transaction', async () => {
      const accounts = records.app.get(AdminAccountRepository);
      expect(await accounts.exists()).toBe(false);
      expect(await records.database.transaction((manager) => accounts.createIfNone(manager, { username: 'root', passwordHash: 'h1' }, at(1)))).toBe(true);
      expect(await records.database.transaction((manager) => accounts.createIfNone(manager, { username: 'other', passwordHash: 'h2' }, at(2)))).toBe(false);
      await records.database.transaction((manager) => accounts.update(manager, { totpSecret: 'sealed', updatedAt: at(3) }));
      expect(await accounts.find()).toMatchObject({ id: 1, username: 'root', passwordHash: 'h1', totpSecret: 'sealed', totpEnabled: false, createdAt: at(1), updatedAt: at(3) });
    });

    it('signs out every session but the kept one, and removes expired sessions', async () => {
      const sessions = records.app.get(AdminSessionRepository);
      const far = new Date(Date.now() + 3_600_000);
      await sessions.insert(session('00000000-0000-4000-8000-00000000000a', far));
      await sessions.insert(session('00000000-0000-4000-8000-00000000000b', far));
      await sessions.insert(session('00000000-0000-4000-8000-00000000000c', at(0)));
      await sessions.deleteExpired(new Date());
      expect(await sessions.findByTokenHash('00000000-0000-4000-8000-00000000000c'.padEnd(64, 't'))).toBeNull();
      await sessions.touch('00000000-0000-4000-8000-00000000000a', at(5));
      expect(await sessions.get('00000000-0000-4000-8000-00000000000a')).toMatchObject({ lastSeenAt: at(5) });
      await records.database.transaction((manager) => sessions.deleteAllExcept(manager, '00000000-0000-4000-8000-00000000000a'));
      expect(await sessions.findByTokenHash('00000000-0000-4000-8000-00000000000b'.padEnd(64, 't'))).toBeNull();
      expect(await sessions.findByTokenHash('00000000-0000-4000-8000-00000000000a'.padEnd(64, 't'))).not.toBeNull();
    });
  });

  describe('key rotation\u2019s reads and writes', () => {
    it('reads, replaces and counts the envelopes of an encrypted column, and rewrites a setting as stored', async () => {
      const columns = records.app.get(EncryptedColumnRepository);
      const totp = ENCRYPTED_COLUMNS.find((column) => column.table === 'admin_account');
      if (!totp) throw new Error('admin_account.totp_secret is not an encrypted column');
      expect(await columns.count(totp)).toBe(1);
      const [stored] = await records.database.transaction((manager) => columns.envelopes(manager, totp));
      expect({ id: Number(stored.id), envelope: stored.envelope }).toEqual({ id: 1, envelope: 'sealed' });
      await records.database.transaction((manager) => columns.replace(manager, totp, stored.id, 'resealed'));
      expect(await records.app.get(AdminAccountRepository).find()).toMatchObject({ totpSecret: 'resealed', updatedAt: at(3) });

      const settings = records.app.get(SettingsStore);
      await settings.set('queries.value', { envelope: 'old' });
      const written = (await settings.all()).find((row) => row.key === 'queries.value');
      await records.database.transaction((manager) => settings.replaceStoredValue('queries.value', JSON.stringify({ envelope: 'new' }), manager));
      expect(await settings.get('queries.value')).toEqual({ envelope: 'new' });
      expect((await settings.all()).find((row) => row.key === 'queries.value')?.updatedAt).toEqual(written?.updatedAt);
    });
  });
});
