import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { AuditLogService } from '../admin/audit-log.service';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { GitHubOctokits } from '../github/github-octokits';
import { MetricsService } from '../metrics/metrics.service';
import { SettingsStore } from '../settings/settings.store';
import { RecoveredDeliveryEntity } from './recovered-delivery.entity';
import { FailedDelivery, RecoveredDeliveryRepository } from './recovered-delivery.repository';

/** GitHub keeps an App's webhook deliveries, and redelivers them, for 3 days. */
export const GITHUB_DELIVERY_RETENTION_MS = 3 * 24 * 3600_000;
/** A delivery closer than this to the end of GitHub's window is given up rather than asked for. */
export const RETENTION_MARGIN_MS = 30 * 60_000;
/** Redeliveries asked for one delivery before it is given up. */
export const MAX_REQUESTS_PER_DELIVERY = 3;
/** After asking, a delivery is asked for again only once GitHub tried and failed, or after this long. */
export const REQUEST_PENDING_MS = 10 * 60_000;
/** Pages of 100 deliveries read per sweep at most. */
export const MAX_PAGES = 50;
/** pg_try_advisory_lock key: one sweep at a time across every replica of this database. */
export const REDELIVERY_LOCK_KEY = 7_312_032_001;
const LAST_SWEEP_KEY = 'redelivery.last_sweep';
const FIRST_SWEEP_DELAY_MS = 5_000;
const GUID = /^[A-Za-z0-9._-]{1,128}$/;
const CURSOR = /^[A-Za-z0-9_=+/-]{1,200}$/;

export type SweepSkip = 'disabled' | 'not_configured' | 'running_elsewhere';

/** What one sweep did. */
export interface SweepResult {
  ran: boolean;
  skipped: SweepSkip | null;
  /** Distinct deliveries (guids) in GitHub's list. */
  lookedAt: number;
  /** Of those, failed and not in the inbox. */
  failed: number;
  requested: number;
  recovered: number;
  givenUp: number;
  /** The sweep failed before its end (listing failed, say); what it did until then is counted. */
  error: string | null;
  startedAt: string;
  finishedAt: string;
}

interface ListedAttempt {
  id: string;
  guid: string;
  deliveredAt: Date;
  ok: boolean;
  event: string;
  action: string | null;
}

/** One list item as GitHub sends it, checked field by field (every byte from the network is hostile). */
function readAttempt(item: unknown): ListedAttempt | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const record = item as Record<string, unknown>;
  const id = record['id'];
  const guid = record['guid'];
  const deliveredAt = typeof record['delivered_at'] === 'string' ? new Date(record['delivered_at']) : undefined;
  const statusCode = record['status_code'];
  const event = record['event'];
  const action = record['action'];
  if ((typeof id !== 'number' && typeof id !== 'bigint') || typeof id === 'number' && (!Number.isSafeInteger(id) || id < 1)) return undefined;
  if (typeof guid !== 'string' || !GUID.test(guid)) return undefined;
  if (!deliveredAt || Number.isNaN(deliveredAt.getTime())) return undefined;
  if (typeof statusCode !== 'number' || typeof event !== 'string' || event.length === 0) return undefined;
  return {
    id: String(id),
    guid,
    deliveredAt,
    ok: statusCode >= 200 && statusCode < 300,
    event: event.slice(0, 64),
    action: typeof action === 'string' ? action.slice(0, 64) : null,
  };
}

/** The `cursor` of the Link header's `next` relation; the URL itself is never followed. */
export function nextCursor(link: string | undefined): string | undefined {
  const next = link?.split(',').find((part) => /rel="next"/.test(part));
  const url = next ? /<([^>]+)>/.exec(next)?.[1] : undefined;
  if (!url) return undefined;
  try {
    const cursor = new URL(url).searchParams.get('cursor');
    return cursor && CURSOR.test(cursor) ? cursor : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GitHub does not redeliver a failed webhook delivery by itself. With a GitHub App configured, this
 * reads the App's recent deliveries (`GET /app/hook/deliveries`, cursor paging) at start and every
 * MONITOR_REDELIVERY_INTERVAL, finds the deliveries no attempt of which succeeded and that the inbox
 * does not hold (by guid, the X-GitHub-Delivery header), and asks GitHub to send them again
 * (`POST /app/hook/deliveries/{id}/attempts`), oldest first, at most MONITOR_REDELIVERY_MAX_ATTEMPTS per
 * sweep. A redelivered delivery keeps its guid, so the inbox takes it once like any other. One sweep
 * runs at a time across replicas (PostgreSQL advisory lock); every step is kept in recovered_deliveries.
 */
@Injectable()
export class RedeliverySweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RedeliverySweepService.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;
  private stopping = false;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    private readonly database: DatabaseWork,
    private readonly octokits: GitHubOctokits,
    private readonly records: RecoveredDeliveryRepository,
    private readonly settings: SettingsStore,
    private readonly audit: AuditLogService,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.redelivery.enabled) return;
    this.schedule(Math.min(FIRST_SWEEP_DELAY_MS, this.config.redelivery.intervalMs));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** The result of the last sweep on any replica, or undefined before the first. */
  lastSweep(): Promise<SweepResult | undefined> {
    return this.settings.get<SweepResult>(LAST_SWEEP_KEY);
  }

  /** Runs a sweep now (or joins the one running in this process). */
  sweep(): Promise<SweepResult> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      void this.sweep()
        .catch((error: unknown) => this.logger.error(`redelivery sweep failed: ${(error as Error).message}`))
        .finally(() => this.schedule(this.config.redelivery.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async run(): Promise<SweepResult> {
    const startedAt = new Date();
    const result: SweepResult = { ran: false, skipped: null, lookedAt: 0, failed: 0, requested: 0, recovered: 0, givenUp: 0, error: null, startedAt: startedAt.toISOString(), finishedAt: '' };
    const finish = (): SweepResult => ({ ...result, finishedAt: new Date().toISOString() });
    if (!this.config.redelivery.enabled) return { ...finish(), skipped: 'disabled' };
    if (!(await this.octokits.appConfigured())) return { ...finish(), skipped: 'not_configured' };
    const locked = await this.database.onOneInstance(REDELIVERY_LOCK_KEY, async () => {
      result.ran = true;
      try {
        await this.sweepLocked(result);
      } catch (error) {
        result.error = (error as Error).message.slice(0, 300);
        this.logger.warn(`redelivery sweep stopped: ${result.error}`);
      }
      return true;
    });
    if (!locked) return { ...finish(), skipped: 'running_elsewhere' };
    const done = finish();
    await this.report(done);
    return done;
  }

  private async sweepLocked(result: SweepResult): Promise<void> {
    const now = new Date();
    const attempts = await this.listRecentAttempts(now);
    const byGuid = new Map<string, ListedAttempt[]>();
    for (const attempt of attempts) byGuid.set(attempt.guid, [...(byGuid.get(attempt.guid) ?? []), attempt]);
    result.lookedAt = byGuid.size;
    this.metrics?.redeliveryCounted('looked_at', byGuid.size);

    const failedGuids = [...byGuid].filter(([, list]) => !list.some((attempt) => attempt.ok)).map(([guid]) => guid);
    const accepted = await this.records.inInbox(failedGuids);
    const failed: Array<FailedDelivery & { latestAt: Date }> = failedGuids
      .filter((guid) => !accepted.has(guid))
      .map((guid) => {
        const list = (byGuid.get(guid) as ListedAttempt[]).sort((a, b) => a.deliveredAt.getTime() - b.deliveredAt.getTime());
        const first = list[0] as ListedAttempt;
        const latest = list[list.length - 1] as ListedAttempt;
        return { guid, event: first.event, action: first.action, githubDeliveryId: latest.id, firstAttemptAt: first.deliveredAt, latestAt: latest.deliveredAt };
      })
      .sort((a, b) => a.firstAttemptAt.getTime() - b.firstAttemptAt.getTime());
    result.failed = failed.length;

    const known = await this.records.byGuid(failed.map((delivery) => delivery.guid));
    const app = await this.octokits.app();
    let budget = this.config.redelivery.maxAttemptsPerSweep;
    const givenUp: Array<{ id: number; reason: string }> = [];
    for (const delivery of failed) {
      if (this.stopping) break;
      const existing = known.get(delivery.guid);
      if (existing && (existing.status === 'given_up' || existing.status === 'recovered')) continue;
      const row = await this.records.noteFailed(delivery, existing, now);
      if (now.getTime() - delivery.latestAt.getTime() > GITHUB_DELIVERY_RETENTION_MS - RETENTION_MARGIN_MS) {
        givenUp.push({ id: row.id, reason: 'outside the 3 days GitHub keeps deliveries' });
        continue;
      }
      if (row.requests >= MAX_REQUESTS_PER_DELIVERY) {
        givenUp.push({ id: row.id, reason: `GitHub could not deliver it after ${MAX_REQUESTS_PER_DELIVERY} redeliveries` });
        continue;
      }
      if (this.stillPending(row, delivery.latestAt, now)) continue;
      if (budget <= 0) continue;
      budget--;
      try {
        await app.octokit.request('POST /app/hook/deliveries/{delivery_id}/attempts', { delivery_id: Number(delivery.githubDeliveryId) });
        await this.records.markRequested(row, now);
        result.requested++;
      } catch (error) {
        const status = (error as { status?: unknown }).status;
        await this.records.noteRequestFailed(row, `GitHub answered ${typeof status === 'number' ? status : 'with an error'} to the redelivery request`, now);
      }
    }
    for (const reason of new Set(givenUp.map((entry) => entry.reason))) {
      result.givenUp += await this.records.resolve(givenUp.filter((entry) => entry.reason === reason).map((entry) => entry.id), 'given_up', now, reason);
    }

    // Whatever the inbox now holds is recovered, whether GitHub's list still shows it or not.
    const open = await this.records.open();
    const arrived = await this.records.inInbox(open.map((row) => row.guid));
    result.recovered = await this.records.resolve(open.filter((row) => arrived.has(row.guid)).map((row) => row.id), 'recovered', now);
    this.metrics?.redeliveryCounted('requested', result.requested);
    this.metrics?.redeliveryCounted('recovered', result.recovered);
    this.metrics?.redeliveryCounted('given_up', result.givenUp);
  }

  /** Asked already, and GitHub has not tried since (nor for a long time): wait for its attempt. */
  private stillPending(row: RecoveredDeliveryEntity, latestAttemptAt: Date, now: Date): boolean {
    if (row.status !== 'requested' || !row.lastRequestedAt) return false;
    return latestAttemptAt.getTime() < row.lastRequestedAt.getTime() && now.getTime() - row.lastRequestedAt.getTime() < REQUEST_PENDING_MS;
  }

  /** Every attempt of the last 3 days, newest first, page by page through the Link header's cursor. */
  private async listRecentAttempts(now: Date): Promise<ListedAttempt[]> {
    const app = await this.octokits.app();
    const since = now.getTime() - GITHUB_DELIVERY_RETENTION_MS;
    const attempts: ListedAttempt[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const response = await app.octokit.request('GET /app/hook/deliveries', { per_page: 100, ...(cursor ? { cursor } : {}) });
      const items: unknown[] = Array.isArray(response.data) ? response.data : [];
      const read = items.map(readAttempt).filter((attempt): attempt is ListedAttempt => attempt !== undefined);
      attempts.push(...read.filter((attempt) => attempt.deliveredAt.getTime() >= since));
      if (read.length === 0 || read.every((attempt) => attempt.deliveredAt.getTime() < since)) break;
      cursor = nextCursor(typeof response.headers.link === 'string' ? response.headers.link : undefined);
      if (!cursor) break;
    }
    return attempts;
  }

  private async report(result: SweepResult): Promise<void> {
    this.metrics?.redeliverySwept(result.error ? 'failed' : 'succeeded');
    try {
      await this.settings.set(LAST_SWEEP_KEY, result);
      if (result.requested + result.recovered + result.givenUp > 0) {
        await this.audit.record({
          actor: 'system',
          action: 'redelivery.swept',
          details: { looked_at: result.lookedAt, failed: result.failed, requested: result.requested, recovered: result.recovered, given_up: result.givenUp },
        });
        this.logger.log(`redelivery sweep: ${result.lookedAt} looked at, ${result.requested} asked for, ${result.recovered} recovered, ${result.givenUp} given up`);
      }
    } catch (error) {
      this.logger.warn(`could not record the redelivery sweep: ${(error as Error).message}`);
    }
  }
}
