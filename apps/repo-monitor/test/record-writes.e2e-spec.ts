import { AuditLogRepository } from '../src/app/admin/audit-log.repository';
import { PayloadReader } from '../src/app/common/payload-reader';
import { NotificationChannelEntity } from '../src/app/notification-channels/notification-channel.entity';
import { NotificationChannelRepository } from '../src/app/notification-channels/notification-channel.repository';
import { StarredReleaseTrackerRepository } from '../src/app/github/starred-release-tracker.repository';
import { InstallationEntity } from '../src/app/installations/installation.entity';
import { InstallationRepository } from '../src/app/installations/installation.repository';
import { RepositoryEntity } from '../src/app/repositories/repository.entity';
import { RepositoryRepository } from '../src/app/repositories/repository.repository';
import { SecurityAlertEntity } from '../src/app/security-alerts/security-alert.entity';
import { SecurityAlertRepository, SecurityAlertState } from '../src/app/security-alerts/security-alert.repository';
import { WorkItemEntity } from '../src/app/work-items/work-item.entity';
import { WorkItemKey, WorkItemRepository, WorkItemState } from '../src/app/work-items/work-item.repository';
import { WorkflowRunRepository, WorkflowRunState } from '../src/app/workflow-runs/workflow-run.repository';
import { at, recordsFixture } from './records-fixture';


/**
 * The writes processing and GitHub polling make through the aggregate repositories, on the driver
 * of the run (TEST_DATABASE_DRIVER), each inside a transaction as their callers run them.
 */
describe('record writes in the repositories', () => {
  const records = recordsFixture();
  const { repository } = records;
  const repositories = () => records.app.get(RepositoryRepository);

  describe('WorkItemRepository', () => {
    const workItems = () => records.app.get(WorkItemRepository);
    const state = (title: string, githubUpdatedAt: Date | null): WorkItemState => ({
      title,
      state: 'open',
      merged: false,
      draft: false,
      author: 'mona',
      htmlUrl: 'https://github.com/acme/items/issues/1',
      githubUpdatedAt,
    });
    const stored = (key: WorkItemKey) => records.database.dataSource.getRepository(WorkItemEntity).findOneByOrFail({ ...key });

    it('stores a newer or equally new state and keeps a newer stored one against an older delivery', async () => {
      const { id } = await repository('acme/items');
      const key: WorkItemKey = { repositoryId: id, kind: 'issue', number: 1 };
      const upsert = (title: string, updatedAt: Date | null, now: Date) => records.database.transaction((manager) => workItems().upsertIfNewer(manager, key, state(title, updatedAt), now));

      expect(await upsert('first', at(10), at(11))).toMatchObject({ title: 'first', createdAt: at(11), updatedAt: at(11) });
      expect(await upsert('late', at(5), at(12))).toMatchObject({ title: 'first', updatedAt: at(11) });
      expect(await upsert('same time', at(10), at(13))).toMatchObject({ title: 'same time', createdAt: at(11), updatedAt: at(13) });
      expect(await upsert('no time', null, at(14))).toMatchObject({ title: 'no time', githubUpdatedAt: null });
      expect(await upsert('any time', at(1), at(15))).toMatchObject({ title: 'any time' });
      expect(await stored(key)).toMatchObject({ title: 'any time', githubUpdatedAt: at(1), createdAt: at(11), updatedAt: at(15) });
      expect(await records.database.dataSource.getRepository(WorkItemEntity).countBy({ repositoryId: id })).toBe(1);
    });

    it('keeps the item of an issue and a pull request with the same number apart', async () => {
      const { id } = await repository('acme/both');
      await records.database.transaction(async (manager) => {
        await workItems().upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 7 }, state('the issue', at(1)), at(2));
        await workItems().upsertIfNewer(manager, { repositoryId: id, kind: 'pull_request', number: 7 }, { ...state('the pull request', at(1)), merged: true }, at(2));
      });
      expect(await stored({ repositoryId: id, kind: 'issue', number: 7 })).toMatchObject({ title: 'the issue', merged: false });
      expect(await stored({ repositoryId: id, kind: 'pull_request', number: 7 })).toMatchObject({ title: 'the pull request', merged: true });
    });

    it('inserts the baseline items not stored yet and leaves a stored one as a webhook wrote it', async () => {
      const { id } = await repository('acme/baseline');
      await records.database.transaction((manager) => workItems().upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 2 }, state('from a webhook', at(30)), at(31)));
      const item = (number: number, title: string) => ({ repositoryId: id, kind: 'issue' as const, number, ...state(title, at(20)) });
      await records.database.transaction((manager) => workItems().insertMissing(manager, [item(1, 'one'), item(2, 'stale two'), item(3, 'three'), item(3, 'three again')], at(40)));
      const rows = await records.database.dataSource.getRepository(WorkItemEntity).find({ where: { repositoryId: id }, order: { number: 'ASC' } });
      expect(rows.map((row) => [row.number, row.title])).toEqual([
        [1, 'one'],
        [2, 'from a webhook'],
        [3, 'three'],
      ]);
      expect(rows[0]).toMatchObject({ createdAt: at(40), updatedAt: at(40), githubUpdatedAt: at(20), author: 'mona' });
      expect(rows[1]).toMatchObject({ updatedAt: at(31) });
    });

    it('writes nothing when the caller\u2019s transaction rolls back', async () => {
      const { id } = await repository('acme/rollback');
      await expect(
        records.database.transaction(async (manager) => {
          await workItems().upsertIfNewer(manager, { repositoryId: id, kind: 'issue', number: 1 }, state('lost', at(1)), at(1));
          await workItems().insertMissing(manager, [{ repositoryId: id, kind: 'issue', number: 2, ...state('lost too', at(1)) }], at(1));
          throw new Error('the delivery failed later');
        }),
      ).rejects.toThrow('the delivery failed later');
      expect(await records.database.dataSource.getRepository(WorkItemEntity).countBy({ repositoryId: id })).toBe(0);
    });
  });

  describe('WorkflowRunRepository', () => {
    const runs = () => records.app.get(WorkflowRunRepository);
    let runId = 5000;
    const run = (repositoryId: number, changes: Partial<WorkflowRunState> = {}): WorkflowRunState => ({
      runId: ++runId,
      repositoryId,
      workflowName: 'CI',
      headBranch: 'main',
      headSha: 'abc',
      triggerEvent: 'push',
      status: 'completed',
      conclusion: 'success',
      runAttempt: 1,
      htmlUrl: 'https://github.com/acme/runs/actions/runs/1',
      ...changes,
    });
    const upsert = (state: WorkflowRunState, now: Date) => records.database.transaction((manager) => runs().upsert(manager, state, now));
    const previous = (state: WorkflowRunState) => records.database.transaction((manager) => runs().previousCompleted(manager, state));

    it('finds the latest other completed run of the same workflow on the same branch', async () => {
      const { id } = await repository('acme/runs');
      const other = await repository('acme/other-runs');
      const older = await upsert(run(id, { conclusion: 'failure' }), at(1));
      const latest = await upsert(run(id, { conclusion: 'failure' }), at(2));
      await upsert(run(id, { status: 'in_progress', conclusion: null }), at(3));
      await upsert(run(id, { headBranch: 'feature' }), at(4));
      await upsert(run(id, { workflowName: 'Release' }), at(5));
      await upsert(run(other.id), at(6));
      const current = run(id);
      expect(Number((await previous(current))?.runId)).toBe(Number(latest.runId));
      // The run itself is never its own predecessor.
      expect(Number((await previous({ ...current, runId: latest.runId }))?.runId)).toBe(Number(older.runId));
      expect(await previous(run(id, { workflowName: 'Deploy' }))).toBeNull();
    });

    it('matches a run without a branch only with others without one', async () => {
      const { id } = await repository('acme/detached');
      await upsert(run(id, { headBranch: 'main' }), at(1));
      expect(await previous(run(id, { headBranch: null }))).toBeNull();
      const detached = await upsert(run(id, { headBranch: null, conclusion: 'timed_out' }), at(2));
      expect(await previous(run(id, { headBranch: null }))).toMatchObject({ headBranch: null, conclusion: 'timed_out', id: detached.id });
    });

    it('refreshes a run by its run id and keeps the repository and creation time it was first seen with', async () => {
      const { id } = await repository('acme/rerun');
      const moved = await repository('acme/rerun-renamed');
      const first = await upsert(run(id, { status: 'in_progress', conclusion: null }), at(1));
      const again = await upsert({ ...run(moved.id), runId: first.runId, runAttempt: 2, conclusion: 'failure', headSha: 'def' }, at(2));
      expect(again).toMatchObject({ id: first.id, repositoryId: id, status: 'completed', conclusion: 'failure', runAttempt: 2, headSha: 'def', createdAt: at(1), updatedAt: at(2) });
    });
  });

  describe('SecurityAlertRepository', () => {
    const alerts = () => records.app.get(SecurityAlertRepository);
    const alert = (repositoryId: number, changes: Partial<SecurityAlertState> = {}): SecurityAlertState => ({
      repositoryId,
      kind: 'dependabot',
      number: 1,
      state: 'open',
      severity: 'high',
      summary: 'lodash prototype pollution',
      htmlUrl: 'https://github.com/acme/alerts/security/dependabot/1',
      ...changes,
    });
    const upsert = (state: SecurityAlertState, now: Date) => records.database.transaction((manager) => alerts().upsert(manager, state, now));

    it('creates an alert not ignored and refreshes it in place, keeping an ignore', async () => {
      const { id } = await repository('acme/alerts');
      const created = await upsert(alert(id), at(1));
      expect(created).toMatchObject({ ignored: false, ignoredAt: null, createdAt: at(1), updatedAt: at(1) });
      await alerts().setIgnored(created.id, true, at(2));
      const fixed = await upsert(alert(id, { state: 'fixed', severity: null, summary: 'fixed now' }), at(3));
      expect(fixed).toMatchObject({ id: created.id, state: 'fixed', severity: null, summary: 'fixed now', ignored: true, ignoredAt: at(2), createdAt: at(1), updatedAt: at(3) });
      const secret = await upsert(alert(id, { kind: 'secret_scanning' }), at(4));
      expect(secret.id).not.toBe(created.id);
      expect(await records.database.dataSource.getRepository(SecurityAlertEntity).countBy({ repositoryId: id })).toBe(2);
    });
  });

  describe('InstallationRepository', () => {
    const installations = () => records.app.get(InstallationRepository);
    const record = (action: string, installation: Record<string, unknown>, now: Date) =>
      records.database.transaction((manager) => installations().recordWebhookAction(manager, PayloadReader.of(installation), action, now));
    const stored = (installationId: number) => records.database.dataSource.getRepository(InstallationEntity).findOneByOrFail({ installationId });

    it('records created, suspend, unsuspend, deleted and created again on one row', async () => {
      const installation = { id: 4242, account: { login: 'acme', type: 'Organization' }, repository_selection: 'all' };
      await record('created', installation, at(1));
      expect(await stored(4242)).toMatchObject({ accountLogin: 'acme', accountType: 'Organization', repositorySelection: 'all', suspended: false, removedAt: null, createdAt: at(1) });
      await record('suspend', installation, at(2));
      expect(await stored(4242)).toMatchObject({ suspended: true, updatedAt: at(2) });
      await record('unsuspend', installation, at(3));
      expect(await stored(4242)).toMatchObject({ suspended: false });
      await record('new_permissions_accepted', { id: 4242, repository_selection: 'selected' }, at(4));
      expect(await stored(4242)).toMatchObject({ repositorySelection: 'selected', accountLogin: 'acme', removedAt: null, updatedAt: at(4) });
      await record('deleted', { id: 4242 }, at(5));
      expect(await stored(4242)).toMatchObject({ removedAt: at(5), repositorySelection: 'selected' });
      await record('created', installation, at(6));
      expect(await stored(4242)).toMatchObject({ removedAt: null, repositorySelection: 'all', createdAt: at(1), updatedAt: at(6) });
      expect(await records.database.dataSource.getRepository(InstallationEntity).countBy({ installationId: 4242 })).toBe(1);
    });

    it('ignores an installation object without an id', async () => {
      const before = await records.database.dataSource.getRepository(InstallationEntity).count();
      await record('created', { account: { login: 'nobody' } }, at(1));
      expect(await records.database.dataSource.getRepository(InstallationEntity).count()).toBe(before);
    });
  });

  describe('RepositoryRepository', () => {
    it('counts the watched external repositories, not the removed ones or an installation\u2019s', async () => {
      const before = await records.database.transaction((manager) => repositories().countExternal(manager));
      await repository('outside/one', { external: true });
      const two = await repository('outside/two', { external: true });
      await repository('inside/one', { installationId: 77 });
      expect(await records.database.transaction((manager) => repositories().countExternal(manager))).toBe(before + 2);
      await records.database.dataSource.getRepository(RepositoryEntity).update({ id: two.id }, { status: 'removed' });
      expect(await records.database.transaction((manager) => repositories().countExternal(manager))).toBe(before + 1);
    });

    it('lists active external repositories without a baseline until it is marked imported', async () => {
      const pending = await repository('outside/pending', { external: true });
      const names = async () => (await repositories().pendingExternalBaselines()).map((row) => row.fullName);
      expect(await names()).toContain('outside/pending');
      expect(await names()).not.toContain('inside/one');
      await records.database.transaction((manager) => repositories().markBaselineImported(manager, pending.id, at(50)));
      expect(await names()).not.toContain('outside/pending');
      expect(await repositories().findById(pending.id)).toMatchObject({ baselineImportedAt: at(50), updatedAt: at(50) });
    });

    it('marks an installation\u2019s repositories GitHub no longer lists as removed, and nothing else', async () => {
      const kept = await repository('stale/kept', { installationId: 88 });
      const gone = await repository('stale/gone', { installationId: 88 });
      const otherInstallation = await repository('stale/elsewhere', { installationId: 89 });
      const external = await repository('stale/external', { external: true });
      await records.database.transaction((manager) => repositories().markStaleRemoved(manager, 88, [kept.id], at(60)));
      expect(await repositories().findById(kept.id)).toMatchObject({ status: 'active', updatedAt: at(0) });
      expect(await repositories().findById(gone.id)).toMatchObject({ status: 'removed', updatedAt: at(60) });
      expect(await repositories().findById(otherInstallation.id)).toMatchObject({ status: 'active' });
      expect(await repositories().findById(external.id)).toMatchObject({ status: 'active' });
      // None listed: every one of the installation's is gone.
      await records.database.transaction((manager) => repositories().markStaleRemoved(manager, 88, [], at(61)));
      expect(await repositories().findById(kept.id)).toMatchObject({ status: 'removed', updatedAt: at(61) });
      expect(await repositories().findById(gone.id)).toMatchObject({ updatedAt: at(60) });
    });
  });

  describe('StarredReleaseTrackerRepository', () => {
    const trackers = () => records.app.get(StarredReleaseTrackerRepository);
    // As the poll does it: the list tracker read first, the list recorded in a transaction of its own.
    const record = async (username: string, etag: string | null, names: string[], now: Date) => {
      const listTracker = await trackers().listTracker(username);
      await records.database.transaction((manager) => trackers().recordStarredList(manager, username, listTracker, { etag, names }, now));
    };
    const watched = async (username: string) => (await trackers().releaseTrackersInOrder(username)).map((row) => row.repositoryFullName);

    it('keeps one list tracker with the ETag and a release tracker per starred repository, in the order first seen', async () => {
      await record('octo', 'W/"1"', ['b/two', 'a/one'], at(1));
      await record('someone', null, ['b/two'], at(1));
      expect(await trackers().listTracker('octo')).toMatchObject({ etag: 'W/"1"', lastCheckedAt: at(1), createdAt: at(1) });
      expect(await watched('octo')).toEqual(['b/two', 'a/one']);

      const [two] = await trackers().releaseTrackersInOrder('octo');
      await records.database.transaction((manager) => trackers().saveChanges(manager, two, { etag: 'W/"r"', lastReleaseId: 11, lastReleaseTag: 'v1', lastCheckedAt: at(2) }));

      await record('octo', 'W/"2"', ['c/three', 'b/two'], at(3));
      expect(await trackers().listTracker('octo')).toMatchObject({ etag: 'W/"2"', lastCheckedAt: at(3), createdAt: at(1) });
      expect(await watched('octo')).toEqual(['b/two', 'c/three']);
      // A repository still starred keeps what the poll knew of its releases.
      expect((await trackers().releaseTrackersInOrder('octo'))[0]).toMatchObject({ id: two.id, etag: 'W/"r"', lastReleaseTag: 'v1', lastCheckedAt: at(2) });
      // Another user's trackers are theirs.
      expect(await watched('someone')).toEqual(['b/two']);

      await record('octo', 'W/"3"', [], at(4));
      expect(await watched('octo')).toEqual([]);
      expect(await trackers().listTracker('octo')).toMatchObject({ etag: 'W/"3"' });
    });
  });

  describe('AuditLogRepository', () => {
    const audit = () => records.app.get(AuditLogRepository);
    const entry = (action: string, minute: number) => ({ createdAt: at(minute), actor: 'root', action, target: null, details: null, clientIp: '127.0.0.1' });

    it('stores an entry with the caller\u2019s transaction, or on its own, and pages them newest first', async () => {
      const before = (await audit().find({ page: 1, perPage: 1, skip: 0 })).total;
      await expect(
        records.database.transaction(async (manager) => {
          await audit().insert(entry('audit.lost', 1), manager);
          throw new Error('the change it records failed');
        }),
      ).rejects.toThrow('the change it records failed');
      await records.database.transaction((manager) => audit().insert(entry('audit.first', 2), manager));
      await audit().insert({ ...entry('audit.second', 3), target: 'channel-1', details: '{"fields":["name"]}' });
      await audit().insert(entry('audit.third', 4));

      const first = await audit().find({ page: 1, perPage: 2, skip: 0 });
      expect(first.total).toBe(before + 3);
      expect(first.rows.map((row) => row.action)).toEqual(['audit.third', 'audit.second']);
      expect(first.rows[1]).toMatchObject({ id: expect.any(Number), createdAt: at(3), actor: 'root', target: 'channel-1', details: '{"fields":["name"]}', clientIp: '127.0.0.1' });
      const second = await audit().find({ page: 2, perPage: 2, skip: 2 });
      expect(second.rows[0].action).toBe('audit.first');
      expect(second.total).toBe(before + 3);
    });
  });

  describe('NotificationChannelRepository', () => {
    const channels = () => records.app.get(NotificationChannelRepository);
    let sequence = 0;
    const channel = (name: string, fields: Partial<NotificationChannelEntity> = {}): NotificationChannelEntity => ({
      id: `00000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
      kind: 'http_webhook',
      name,
      enabled: true,
      config: '{"url":"https://example.test/hook"}',
      secret: 'sealed',
      allowPrivate: false,
      eventKinds: '[]',
      lastTestAt: null,
      lastTestOk: null,
      lastTestError: null,
      createdAt: at(sequence),
      updatedAt: at(sequence),
      ...fields,
    });

    it('inserts, changes and deletes a channel inside the caller\u2019s transaction, and nothing when it rolls back', async () => {
      const kept = channel('writes kept');
      const lost = channel('writes lost');
      await expect(
        records.database.transaction(async (manager) => {
          await channels().insert(lost, manager);
          expect(await channels().nameTaken('writes lost', manager)).toBe(true);
          throw new Error('the audit entry failed');
        }),
      ).rejects.toThrow('the audit entry failed');
      expect(await channels().findById(lost.id)).toBeNull();
      expect(await channels().nameTaken('writes lost')).toBe(false);

      await records.database.transaction((manager) => channels().insert(kept, manager));
      await expect(records.database.transaction((manager) => channels().insert({ ...channel('writes kept') }, manager))).rejects.toThrow(/unique|duplicate/i);
      await records.database.transaction((manager) => channels().update(kept.id, { lastTestAt: at(50), lastTestOk: false, lastTestError: 'timeout' }, manager));
      expect(await channels().findById(kept.id)).toMatchObject({ name: 'writes kept', enabled: true, lastTestAt: at(50), lastTestOk: false, lastTestError: 'timeout', updatedAt: kept.updatedAt });
      await records.database.transaction((manager) => channels().update(kept.id, { enabled: false, updatedAt: at(51) }, manager));
      expect(await channels().findById(kept.id)).toMatchObject({ enabled: false, lastTestError: 'timeout', updatedAt: at(51) });

      await expect(
        records.database.transaction(async (manager) => {
          await channels().delete(kept.id, manager);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await channels().findById(kept.id)).not.toBeNull();
      await records.database.transaction((manager) => channels().delete(kept.id, manager));
      expect(await channels().findById(kept.id)).toBeNull();
    });

    it('pages the channels oldest first, lists the enabled ones and counts them by kind', async () => {
      const before = { total: (await channels().find({ page: 1, perPage: 1, skip: 0 })).total, webhooks: await channels().countOfKind('http_webhook'), telegram: await channels().countOfKind('telegram') };
      const first = channel('list first', { createdAt: new Date(Date.UTC(2000, 0, 1)) });
      const second = channel('list second', { createdAt: new Date(Date.UTC(2000, 0, 2)), enabled: false });
      const third = channel('list third', { createdAt: new Date(Date.UTC(2000, 0, 3)), kind: 'telegram', config: '{"chat_id":"1"}' });
      for (const row of [third, first, second]) await channels().insert(row);

      const page = await channels().find({ page: 1, perPage: 2, skip: 0 });
      expect(page.total).toBe(before.total + 3);
      expect(page.rows.map((row) => row.name)).toEqual(['list first', 'list second']);
      expect((await channels().find({ page: 2, perPage: 2, skip: 2 })).rows[0].name).toBe('list third');
      const enabled = (await channels().enabled()).map((row) => row.name);
      expect(enabled.filter((name) => name.startsWith('list '))).toEqual(['list first', 'list third']);
      expect(await channels().countOfKind('http_webhook')).toBe(before.webhooks + 2);
      expect(await records.database.transaction((manager) => channels().countOfKind('telegram', manager))).toBe(before.telegram + 1);
      expect(await records.database.transaction((manager) => channels().nameTaken('list second', manager))).toBe(true);
    });
  });
});
