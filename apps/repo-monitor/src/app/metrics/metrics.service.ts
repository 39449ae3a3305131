import { Injectable } from '@nestjs/common';
import { collectProcessMetrics } from '@shared/http-service';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { OutboxRepository } from '../outbox/outbox.repository';
import { RepositoryRepository } from '../repositories/repository.repository';
import { SecurityAlertRepository } from '../security-alerts/security-alert.repository';
import { FAILED_RUN_CONCLUSIONS } from '../workflow-runs/run-conclusions';
import { WorkflowRunRepository } from '../workflow-runs/workflow-run.repository';
import { WorkItemKind } from '../work-items/work-item.entity';
import { WorkItemRepository } from '../work-items/work-item.repository';

export type WebhookResult = 'accepted' | 'duplicate' | 'invalid_signature' | 'rate_limited' | 'failed';
export type ReconcileResult = 'succeeded' | 'failed';
/** States the notification worker moves outbox entries into. */
export type OutboxTransition = 'sending' | 'sent' | 'pending' | 'dead';

/** A failed run counts towards the gauge while it is this recent. */
export const FAILED_RUN_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The Prometheus registry of one application instance (not prom-client's global one, so several
 * instances in one process never share figures). Counters are incremented by the features; the
 * gauges read the database when /metrics is scraped.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly webhooks: Counter<'result'>;
  private readonly reconciles: Counter<'result'>;
  private readonly outboxTransitions: Counter<'state'>;
  private readonly aiRequests: Counter<'feature'>;
  private readonly aiFailures: Counter<'feature' | 'code'>;
  private readonly aiDuration: Histogram<'feature' | 'outcome'>;
  private readonly aiTokens: Counter<'feature' | 'kind'>;
  private readonly redeliveries: Counter<'outcome'>;
  private readonly redeliverySweeps: Counter<'result'>;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: OutboxRepository,
    private readonly workItems: WorkItemRepository,
    private readonly runs: WorkflowRunRepository,
    private readonly alerts: SecurityAlertRepository,
    private readonly repositories: RepositoryRepository,
  ) {
    collectProcessMetrics(this.registry);
    const registers = [this.registry];
    this.webhooks = new Counter({
      name: 'monitor_webhook_deliveries_total',
      help:
        'Inbound GitHub webhook deliveries by result (accepted, duplicate, invalid_signature, rate_limited: a bad signature from an ' +
        'address past its limit of bad signatures, failed: refused for another reason)',
      labelNames: ['result'],
      registers,
    });
    for (const result of ['accepted', 'duplicate', 'invalid_signature', 'rate_limited', 'failed'] as const) this.webhooks.inc({ result }, 0);
    this.reconciles = new Counter({ name: 'monitor_reconcile_runs_total', help: 'Reconcile runs of GitHub installations by result', labelNames: ['result'], registers });
    for (const result of ['succeeded', 'failed'] as const) this.reconciles.inc({ result }, 0);
    this.outboxTransitions = new Counter({
      name: 'monitor_outbox_transitions_total',
      help:
        'Outbox entries the notification worker moved into a state: sending (claimed for a send attempt), sent, ' +
        'pending (a retry scheduled, or an expired claim released) and dead (given up); monitor_outbox_entries has the current counts',
      labelNames: ['state'],
      registers,
    });
    for (const state of ['sending', 'sent', 'pending', 'dead'] as const) this.outboxTransitions.inc({ state }, 0);
    this.aiRequests = new Counter({ name: 'monitor_ai_requests_total', help: 'Chat-completion requests by AI feature', labelNames: ['feature'], registers });
    this.aiFailures = new Counter({ name: 'monitor_ai_failures_total', help: 'Failed AI requests by feature and failure code', labelNames: ['feature', 'code'], registers });
    this.aiDuration = new Histogram({
      name: 'monitor_ai_request_duration_seconds',
      help: 'Duration of AI requests (including retries) by feature and outcome',
      labelNames: ['feature', 'outcome'],
      buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
      registers,
    });
    this.redeliveries = new Counter({
      name: 'monitor_redelivery_deliveries_total',
      help: 'Webhook deliveries the redelivery sweep looked at in GitHub\'s list, asked GitHub to send again, saw arrive (recovered) or gave up',
      labelNames: ['outcome'],
      registers,
    });
    this.redeliverySweeps = new Counter({ name: 'monitor_redelivery_sweeps_total', help: 'Redelivery sweeps run by result', labelNames: ['result'], registers });
    this.aiTokens = new Counter({ name: 'monitor_ai_tokens_total', help: 'Tokens reported by the AI endpoint by feature and kind (prompt, completion)', labelNames: ['feature', 'kind'], registers });

    // One scrape reads every database figure once, whichever gauge prom-client collects first.
    let snapshot: Promise<DatabaseFigures> | undefined;
    const figures = (): Promise<DatabaseFigures> => {
      snapshot ??= this.readFigures().finally(() => setTimeout(() => (snapshot = undefined), 0));
      return snapshot;
    };
    new Gauge({
      name: 'monitor_outbox_entries',
      help: 'Current notification outbox entries by state (pending, sending, sent, dead, suppressed), read from the database at scrape time',
      labelNames: ['state'],
      registers,
      async collect() {
        const { outboxStates } = await figures();
        for (const state of ['pending', 'sending', 'sent', 'dead', 'suppressed']) this.set({ state }, outboxStates[state] ?? 0);
      },
    });
    new Gauge({
      name: 'monitor_webhook_deliveries_stored',
      help: 'Stored webhook deliveries by processing status (failed: processing gave up)',
      labelNames: ['status'],
      registers,
      async collect() {
        const { deliveryStatuses } = await figures();
        for (const status of ['accepted', 'processed', 'failed']) this.set({ status }, deliveryStatuses[status] ?? 0);
      },
    });
    new Gauge({
      name: 'monitor_open_work_items',
      help: 'Open issues and pull requests of watched repositories',
      labelNames: ['kind'],
      registers,
      async collect() {
        const { openItems } = await figures();
        this.set({ kind: 'issue' }, openItems.issue);
        this.set({ kind: 'pull_request' }, openItems.pull_request);
      },
    });
    new Gauge({
      name: 'monitor_failed_workflow_runs',
      help: 'Workflow runs that concluded as failed, timed out, cancelled, action required or startup failure in the last 24 hours',
      registers,
      async collect() {
        this.set((await figures()).failedRuns);
      },
    });
    new Gauge({
      name: 'monitor_open_security_alerts',
      help: 'Open security alerts that are not ignored',
      registers,
      async collect() {
        this.set((await figures()).openAlerts);
      },
    });
    new Gauge({
      name: 'monitor_active_repositories',
      help: 'Active watched repositories',
      registers,
      async collect() {
        this.set((await figures()).activeRepositories);
      },
    });
  }

  webhookReceived(result: WebhookResult): void {
    this.webhooks.inc({ result });
  }

  reconcileFinished(result: ReconcileResult): void {
    this.reconciles.inc({ result });
  }

  redeliveryCounted(outcome: 'looked_at' | 'requested' | 'recovered' | 'given_up', count: number): void {
    if (count > 0) this.redeliveries.inc({ outcome }, count);
  }

  redeliverySwept(result: 'succeeded' | 'failed'): void {
    this.redeliverySweeps.inc({ result });
  }

  outboxMoved(state: OutboxTransition, count = 1): void {
    if (count > 0) this.outboxTransitions.inc({ state }, count);
  }

  aiRequestFinished(feature: string, outcome: { ok: boolean; code?: string; elapsedMs: number; promptTokens?: number; completionTokens?: number }): void {
    this.aiRequests.inc({ feature });
    if (!outcome.ok) this.aiFailures.inc({ feature, code: outcome.code ?? 'unknown' });
    this.aiDuration.observe({ feature, outcome: outcome.ok ? 'ok' : 'failed' }, outcome.elapsedMs / 1000);
    if (outcome.promptTokens) this.aiTokens.inc({ feature, kind: 'prompt' }, outcome.promptTokens);
    if (outcome.completionTokens) this.aiTokens.inc({ feature, kind: 'completion' }, outcome.completionTokens);
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Each figure asked of its aggregate's repository (the dashboard asks the same ones). */
  private async readFigures(): Promise<DatabaseFigures> {
    return {
      outboxStates: await this.outbox.countByState(),
      deliveryStatuses: await this.deliveries.countByStatus(),
      openItems: await this.workItems.countOpenByKind(),
      failedRuns: await this.runs.countConcluded(FAILED_RUN_CONCLUSIONS, new Date(Date.now() - FAILED_RUN_WINDOW_MS)),
      openAlerts: await this.alerts.countOpen(),
      activeRepositories: await this.repositories.countActive(),
    };
  }
}

interface DatabaseFigures {
  outboxStates: Partial<Record<string, number>>;
  deliveryStatuses: Partial<Record<string, number>>;
  openItems: Record<WorkItemKind, number>;
  failedRuns: number;
  openAlerts: number;
  activeRepositories: number;
}
