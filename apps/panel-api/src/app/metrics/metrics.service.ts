import { Inject, Injectable } from '@nestjs/common';
import { RUN_VERDICTS } from '../common/verdict';
import { createHash } from 'node:crypto';
import { collectProcessMetrics } from '@shared/http-service';
import { Counter, Gauge, Registry } from 'prom-client';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { INTERRUPTED_RUN_STATES, InterruptedRunState, RUN_FAILURE_CATEGORIES, RunState } from '../common/run-outcomes';

/** How a finished run ended: `success`, `failure` (finished without success), or its interrupted state. */
export type RunResult = 'success' | 'failure' | InterruptedRunState;
export type BackupKind = 'auto' | 'manual';
export type BackupResult = 'success' | 'failure';

const LISTENER_STATES = ['starting', 'listening', 'error', 'needs_relogin', 'stopped', 'excluded', 'waiting_for_login'] as const;

/** What the listener and scheduler-lock gauges read at scrape time (the services register themselves). */
export interface ListenerStatusSource {
  status(): Record<string, { state: string }>;
}
export interface SchedulerLockSource {
  isHeld(): boolean;
}
/** The cluster's leases and counters (replicas on PostgreSQL; one owner of everything on SQLite). */
export interface ClusterSource {
  ownedAccounts(): string[];
  isLeader(): boolean;
  readonly counters: { takeovers: number; fencedWritesRefused: number };
}
export interface SearchIndexSource {
  /** Hits recorded but not yet in the search index. */
  pending(): Promise<number>;
}

/**
 * The Prometheus registry of one panel-api instance (its own, never prom-client's global one).
 * The features call the small methods below where a run, a keyword hit or a backup ends; the
 * listener and scheduler-lock gauges read their services when /metrics is scraped.
 */
@Injectable()
export class PanelMetrics {
  readonly registry = new Registry();
  private readonly runs: Counter<'result' | 'failure_category'>;
  private readonly verdicts: Counter<'verdict'>;
  private readonly keywordHits: Counter<'account'>;
  private readonly backups: Counter<'kind' | 'result'>;
  private listeners?: ListenerStatusSource;
  private schedulerLock?: SchedulerLockSource;
  private searchIndex?: SearchIndexSource;
  private cluster?: ClusterSource;

  private readonly accountLabel: (accountName: string) => string;

  constructor(@Inject(PANEL_CONFIG) config: Pick<PanelConfig, 'metrics'>) {
    this.accountLabel = config.metrics.accountLabels === 'name' ? (name) => name : accountLabelHash;
    collectProcessMetrics(this.registry);
    const registers = [this.registry];
    this.runs = new Counter({
      name: 'panel_runs_total',
      help:
        'Finished sign-task runs by result (success, failure, cancelled, timeout, stale) and failure category ' +
        '(none for a success; the categories of the run details otherwise)',
      labelNames: ['result', 'failure_category'],
      registers,
    });
    this.runs.inc({ result: 'success', failure_category: 'none' }, 0);
    for (const category of RUN_FAILURE_CATEGORIES) this.runs.inc({ result: 'failure', failure_category: category }, 0);
    this.verdicts = new Counter({
      name: 'panel_run_verdicts_total',
      help: "Finished runs of tasks that read the bot's answer, by verdict (success, already_done, failed, unconfirmed)",
      labelNames: ['verdict'],
      registers,
    });
    for (const verdict of RUN_VERDICTS) this.verdicts.inc({ verdict }, 0);
    this.keywordHits = new Counter({
      name: 'panel_keyword_hits_total',
      help:
        'Keyword hits recorded by the listeners (a replayed message is counted once), by account: the first 12 hex digits of the ' +
        "SHA-256 of the account name, or the name itself with APP_METRICS_ACCOUNT_LABELS=name",
      labelNames: ['account'],
      registers,
    });
    this.backups = new Counter({
      name: 'panel_backups_total',
      help: 'Finished backups by kind (auto: the scheduled one, manual: POST /api/ops/backup/export) and result',
      labelNames: ['kind', 'result'],
      registers,
    });
    for (const kind of ['auto', 'manual'] as const) for (const result of ['success', 'failure'] as const) this.backups.inc({ kind, result }, 0);
    const sources = { listeners: () => this.listeners, schedulerLock: () => this.schedulerLock, searchIndex: () => this.searchIndex, cluster: () => this.cluster };
    new Gauge({
      name: 'panel_cluster_leases_held',
      help: 'Account leases this replica holds and trusts now (replicas on PostgreSQL; 0 on SQLite, where the one instance owns every account)',
      registers,
      collect() {
        this.set(sources.cluster()?.ownedAccounts().length ?? 0);
      },
    });
    new Gauge({
      name: 'panel_cluster_leader',
      help: 'Whether this replica leads and so runs the system jobs (1) or not (0)',
      registers,
      collect() {
        this.set(sources.cluster()?.isLeader() ? 1 : 0);
      },
    });
    new Counter({
      name: 'panel_cluster_takeovers_total',
      help: 'Account leases this replica took over after they expired on another replica (a replica that died or paused)',
      registers,
      collect() {
        this.reset();
        this.inc(sources.cluster()?.counters.takeovers ?? 0);
      },
    });
    new Counter({
      name: 'panel_cluster_fenced_writes_refused_total',
      help: 'Writes for an account refused because this replica no longer held its lease with that epoch',
      registers,
      collect() {
        this.reset();
        this.inc(sources.cluster()?.counters.fencedWritesRefused ?? 0);
      },
    });
    new Gauge({
      name: 'panel_listener_connections',
      help: 'Keyword listeners by state (listening: connected to Telegram and receiving messages)',
      labelNames: ['state'],
      registers,
      collect() {
        const counts = new Map<string, number>(LISTENER_STATES.map((state) => [state, 0]));
        for (const { state } of Object.values(sources.listeners()?.status() ?? {})) {
          counts.set(state, (counts.get(state) ?? 0) + 1);
        }
        for (const [state, count] of counts) this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'panel_scheduler_lock_held',
      help: 'Whether this instance holds the scheduler lock and so runs the schedules (1) or not (0); always 1 with APP_SCHEDULER_LOCK=0',
      registers,
      collect() {
        this.set(sources.schedulerLock()?.isHeld() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'panel_keyword_hits_search_backlog',
      help:
        'Keyword hits recorded but not yet in the SQLite search index (FTS5, fed in batches about every second); always 0 on PostgreSQL. ' +
        'Searches stay exact meanwhile; a backlog that keeps growing means indexing fails (the log says why)',
      registers,
      async collect() {
        const source = sources.searchIndex();
        if (!source) return this.set(0);
        try {
          this.set(await source.pending());
        } catch {
          // A failed count leaves the last value: the rest of the scrape does not depend on it.
        }
      },
    });
  }

  watchListeners(source: ListenerStatusSource): void {
    this.listeners = source;
  }

  watchSchedulerLock(source: SchedulerLockSource): void {
    this.schedulerLock = source;
  }

  watchCluster(source: ClusterSource): void {
    this.cluster = source;
  }

  watchSearchIndex(source: SearchIndexSource): void {
    this.searchIndex = source;
  }

  runFinished(run: { success?: boolean | null; state: RunState; failure_category: string; verdict?: string | null }): void {
    if (run.verdict) this.verdicts.inc({ verdict: run.verdict });
    const interrupted = INTERRUPTED_RUN_STATES.find((state) => state === run.state);
    const result: RunResult = run.success === true ? 'success' : (interrupted ?? 'failure');
    this.runs.inc({ result, failure_category: run.success === true ? 'none' : run.failure_category });
  }

  keywordHitRecorded(accountName: string): void {
    this.keywordHits.inc({ account: this.accountLabel(accountName) });
  }

  backupFinished(kind: BackupKind, result: BackupResult): void {
    this.backups.inc({ kind, result });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * The `account` label of a metric by default: a stable short hash of the account name, so a scrape
 * (often readable by more people than the panel) does not list the Telegram accounts. An operator
 * who knows a name finds its series with `printf %s NAME | sha256sum | cut -c1-12`.
 */
export function accountLabelHash(accountName: string): string {
  return createHash('sha256').update(accountName, 'utf8').digest('hex').slice(0, 12);
}
