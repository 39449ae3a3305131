import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { EventRecorder } from '../events/event-recorder';
import { InstallationRepository } from '../installations/installation.repository';
import { MetricsService } from '../metrics/metrics.service';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DatabaseWork } from '../../database/database-work';
import { releaseIdentity } from '../processing/delivery-applier';
import { DeliveryProcessor } from '../processing/delivery-processor';
import { clip, PayloadReader } from '../common/payload-reader';
import { OutsideLinkPolicy } from '../common/outside-link';
import { RepositoryRepository } from '../repositories/repository.repository';
import { RepositoryEntity } from '../repositories/repository.entity';
import { WorkItemKey, WorkItemRepository, WorkItemState } from '../work-items/work-item.repository';
import { GitHubClient, GitHubObject } from './github-client';
import { StarredReleaseTrackerRepository } from './starred-release-tracker.repository';

/** pg_try_advisory_lock keys: the periodic reconcile and the starred-releases poll, one replica each. */
const RECONCILE_LOCK_KEY = 7_312_032_002;
const STARRED_POLL_LOCK_KEY = 7_312_032_003;
const STARRED_POLL_MS = 15 * 60_000;
export const MAX_EXTERNAL_REPOSITORIES = 20;

/** Where the effective starred user name comes from (console setting, else MONITOR_STARRED_USERNAME). */
export abstract class StarredUsernameSource {
  abstract username(): Promise<string | undefined>;
}

/** The starred user name of the console's general settings (which falls back to the environment). */
@Injectable()
export class SettingsStarredUsername extends StarredUsernameSource {
  constructor(private readonly settings: SystemSettingsService) {
    super();
  }

  async username(): Promise<string | undefined> {
    return (await this.settings.current()).starred_username ?? undefined;
  }
}

/**
 * Keeps the records in step with GitHub without webhooks: reconciles installation repositories
 * (their first import is a baseline: records only, no notifications), runs that periodically,
 * and polls starred repositories' releases with ETags so unchanged answers cost no rate limit.
 */
@Injectable()
export class GitHubSyncService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(GitHubSyncService.name);
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private readonly links: OutsideLinkPolicy;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly github: GitHubClient,
    private readonly database: DatabaseWork,
    private readonly events: EventRecorder,
    private readonly processor: DeliveryProcessor,
    private readonly starredUsername: StarredUsernameSource,
    private readonly outbox: NotificationOutboxService,
    private readonly repositories: RepositoryRepository,
    private readonly installations: InstallationRepository,
    private readonly workItems: WorkItemRepository,
    private readonly trackers: StarredReleaseTrackerRepository,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.links = new OutsideLinkPolicy(config.github.webUrl);
  }

  onApplicationBootstrap(): void {
    this.processor.onInstallationChanged((installationId) => void this.reconcileInstallation(installationId).catch(() => undefined));
    // With several replicas one of them reconciles and polls at a time: the others would only spend
    // the App's and the token's rate limit on the same answers.
    this.timers.push(
      setInterval(() => void this.database.onOneInstance(RECONCILE_LOCK_KEY, () => this.reconcileAll()).catch(() => undefined), this.config.github.reconcileIntervalMs),
    );
    this.timers.push(
      setInterval(() => void this.database.onOneInstance(STARRED_POLL_LOCK_KEY, () => this.pollStarredReleases()).catch(() => undefined), STARRED_POLL_MS),
    );
    for (const timer of this.timers) timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Reconciles one installation (concurrent calls for the same one share the run). */
  reconcileInstallation(installationId: number): Promise<void> {
    const running = this.inFlight.get(installationId);
    if (running) return running;
    const run = this.reconcile(installationId)
      .then(() => this.metrics?.reconcileFinished('succeeded'))
      .catch((error: unknown) => {
        this.metrics?.reconcileFinished('failed');
        this.logger.warn(`reconcile of installation ${installationId} failed: ${(error as Error).message}`);
        throw error;
      })
      .finally(() => this.inFlight.delete(installationId));
    this.inFlight.set(installationId, run);
    return run;
  }

  /** Every installation of the app, then external repositories and starred releases. */
  async reconcileAll(): Promise<void> {
    if (this.stopping) return;
    if (await this.github.appConfigured()) {
      const installations = await this.github.listInstallations();
      for (const installation of installations) {
        const reader = PayloadReader.of(installation);
        const installationId = reader.get('id').number();
        if (installationId === undefined) continue;
        await this.database.transaction((manager) => this.installations.upsertFromGithub(manager, reader, new Date()));
        await this.reconcileInstallation(installationId).catch(() => undefined);
      }
    }
    await this.importExternalBaselines();
    await this.pollStarredReleases();
  }

  /** Whether MONITOR_EXTERNAL_PAT is set, without which external repositories cannot be added. */
  externalTokenConfigured(): boolean {
    return Boolean(this.config.github.externalPat);
  }

  /** How many external repositories are watched (not removed). */
  externalCount(): Promise<number> {
    return this.repositories.countExternal(this.database.dataSource.manager);
  }

  /**
   * Adds a public repository watched through MONITOR_EXTERNAL_PAT (at most 20 external ones).
   * A failed call to GitHub throws GitHubCallError (unreachable, rate limited, token refused...).
   */
  async addExternalRepository(fullName: string): Promise<RepositoryEntity | 'limit' | 'not_found' | 'no_token'> {
    if (!this.externalTokenConfigured()) return 'no_token';
    const found = await this.github.getPublicRepository(fullName);
    if (!found) return 'not_found';
    const repository = await this.database.transaction(async (manager) => {
      const existing = await this.repositories.findByName(manager, String(found['full_name'] ?? fullName));
      if (existing) return existing;
      const external = await this.repositories.countExternal(manager);
      if (external >= MAX_EXTERNAL_REPOSITORIES) return 'limit' as const;
      return this.repositories.upsertFromGithub(manager, PayloadReader.of(found), { source: 'external', now: new Date() });
    });
    if (!repository) return 'not_found';
    if (repository !== 'limit' && !repository.baselineImportedAt) await this.importBaseline(repository).catch(() => undefined);
    return repository;
  }

  /** Polls the starred user's repositories for new releases; the first sight of each is a baseline. */
  async pollStarredReleases(): Promise<{ checked: number; notModified: number; published: number }> {
    const figures = { checked: 0, notModified: 0, published: 0 };
    const username = await this.starredUsername.username();
    if (!username || this.stopping) return figures;
    const listTracker = await this.trackers.listTracker(username);
    const starred = await this.github.listStarred(username, listTracker?.etag ?? null);
    const now = new Date();
    if (!starred.notModified) {
      const names = starred.value.map((repository) => PayloadReader.of(repository).get('full_name').string()).filter((name): name is string => Boolean(name));
      await this.database.transaction((manager) => this.trackers.recordStarredList(manager, username, listTracker, { etag: starred.etag, names }, now));
    }
    for (const tracker of await this.trackers.releaseTrackersInOrder(username)) {
      if (this.stopping) break;
      figures.checked++;
      const latest = await this.github.latestRelease(tracker.repositoryFullName, tracker.etag);
      const checkedAt = new Date();
      if (latest.notModified) {
        figures.notModified++;
        await this.database.transaction((manager) => this.trackers.saveChanges(manager, tracker, { lastCheckedAt: checkedAt }));
        continue;
      }
      const release = latest.value ? PayloadReader.of(latest.value) : undefined;
      const releaseId = release?.get('id').number() ?? null;
      // The first check of a repository is its baseline; after it, any other latest release is new
      // (also the first release of a repository that had none at the baseline).
      const isNew = releaseId !== null && tracker.lastCheckedAt !== null && releaseId !== tracker.lastReleaseId;
      await this.database.transaction(async (manager) => {
        if (release && isNew) {
          const recorded = await this.events.record(
            manager,
            {
              repository: await this.repositories.findByName(manager, tracker.repositoryFullName),
              kind: 'release.published',
              category: 'other',
              title: `[${tracker.repositoryFullName}] Release ${release.get('name').string() || release.get('tag_name').string() || ''} published`,
              bodyText: clip(release.get('body').string() ?? '', 1500),
              htmlUrl: release.get('html_url').string() ?? null,
              actor: release.path('author', 'login').string() ?? null,
              identity: releaseIdentity(tracker.repositoryFullName, releaseId),
              occurredAt: release.get('published_at').date() ?? checkedAt,
              notify: true,
              details: { tag: release.get('tag_name').string() ?? null, starred_by: username, source: 'starred' },
            },
            null,
            checkedAt,
          );
          if (recorded) figures.published++;
        }
        await this.trackers.saveChanges(manager, tracker, {
          etag: latest.etag,
          lastReleaseId: releaseId,
          lastReleaseTag: release?.get('tag_name').string() ?? null,
          lastCheckedAt: checkedAt,
        });
      });
    }
    if (figures.published > 0) this.outbox.notifyCommitted();
    return figures;
  }

  private async reconcile(installationId: number): Promise<void> {
    if (!(await this.github.appConfigured())) return;
    const repositories = await this.github.listInstallationRepositories(installationId);
    const now = new Date();
    const toImport = await this.database.transaction(async (manager) => {
      const kept: RepositoryEntity[] = [];
      for (const repository of repositories) {
        const row = await this.repositories.upsertFromGithub(manager, PayloadReader.of(repository), { source: 'installation', installationId, now, reactivate: true });
        if (row) kept.push(row);
      }
      await this.repositories.markStaleRemoved(manager, installationId, kept.map((row) => row.id), now);
      await this.installations.markReconciled(manager, installationId, now);
      return kept.filter((row) => !row.baselineImportedAt && row.status === 'active');
    });
    for (const repository of toImport) {
      if (this.stopping) return;
      await this.importBaseline(repository).catch((error: unknown) =>
        this.logger.warn(`baseline import of ${repository.fullName} failed: ${(error as Error).message}`),
      );
    }
  }

  private async importExternalBaselines(): Promise<void> {
    for (const repository of await this.repositories.pendingExternalBaselines()) await this.importBaseline(repository).catch(() => undefined);
  }

  /** Open issues and pull requests as records only: a baseline never notifies. */
  private async importBaseline(repository: RepositoryEntity): Promise<void> {
    const items = await this.github.listOpenIssues(repository.source === 'installation' ? repository.installationId : null, repository.fullName);
    const now = new Date();
    const baseline: Array<WorkItemKey & WorkItemState> = [];
    for (const item of items) {
      const reader = PayloadReader.of(item as GitHubObject);
      const number = reader.get('number').number();
      if (number === undefined) continue;
      baseline.push({
        repositoryId: repository.id,
        kind: reader.get('pull_request').exists ? 'pull_request' : 'issue',
        number,
        title: clip(reader.get('title').string() ?? '', 1024),
        state: reader.get('state').string() ?? 'open',
        merged: false,
        draft: reader.get('draft').boolean() ?? false,
        author: reader.path('user', 'login').string() ?? null,
        htmlUrl: this.links.accept(reader.get('html_url').value) ?? repository.htmlUrl,
        githubUpdatedAt: reader.get('updated_at').date() ?? null,
      });
    }
    await this.database.transaction(async (manager) => {
      await this.workItems.insertMissing(manager, baseline, now);
      await this.repositories.markBaselineImported(manager, repository.id, now);
    });
  }
}
