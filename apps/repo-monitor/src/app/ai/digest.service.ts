import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { EventRecorder } from '../events/event-recorder';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { EventRepository } from '../events/event.repository';
import { DatabaseWork } from '../../database/database-work';
import { SecurityAlertRepository } from '../security-alerts/security-alert.repository';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { WorkItemRepository } from '../work-items/work-item.repository';
import { FAILED_RUN_CONCLUSIONS } from '../workflow-runs/run-conclusions';
import { WorkflowRunRepository } from '../workflow-runs/workflow-run.repository';
import { AiClient } from './ai-client';
import { digestPrompt } from './ai-prompts';
import { dueDigests, periodStart } from './digest-schedule';
import { DigestEntity, DigestPeriod } from './digest.entity';
import { DigestRepository } from './digest.repository';

const TITLES: Record<DigestPeriod, string> = { daily: 'Daily digest', weekly: 'Weekly report', monthly: 'Monthly report' };
/** Event kinds: the channel filter knows `digest` and `report`. */
const EVENT_KINDS: Record<DigestPeriod, string> = { daily: 'digest.daily', weekly: 'report.weekly', monthly: 'report.monthly' };

export interface DigestFacts {
  eventsByCategory: Record<string, number>;
  busiestRepositories: Array<{ name: string; count: number }>;
  openIssues: number;
  openPullRequests: number;
  openAlerts: number;
  failedRuns: number;
  headlines: string[];
}

/** The template digest: what goes out when AI is off, times out or fails. */
export function templateDigest(title: string, facts: DigestFacts): string {
  const total = Object.values(facts.eventsByCategory).reduce((sum, count) => sum + count, 0);
  const categories = Object.entries(facts.eventsByCategory)
    .sort(([, a], [, b]) => b - a)
    .map(([category, count]) => `${category} ${count}`)
    .join(', ');
  const lines = [
    title,
    `Events: ${total}${categories ? ` (${categories})` : ''}`,
    `Open now: ${facts.openIssues} issues, ${facts.openPullRequests} pull requests, ${facts.openAlerts} security alerts`,
    `Failed workflow runs: ${facts.failedRuns}`,
  ];
  if (facts.busiestRepositories.length > 0) lines.push(`Most active: ${facts.busiestRepositories.map((repository) => `${repository.name} (${repository.count})`).join(', ')}`);
  if (facts.headlines.length > 0) lines.push('Latest:', ...facts.headlines.slice(0, 10).map((headline) => `- ${headline}`));
  return lines.join('\n');
}

/**
 * Daily digests and weekly / monthly reports at the configured local time (general settings: time
 * zone, digest time, report switches). Written by the model when AI digests are on, otherwise, and
 * whenever the model times out or fails, the template goes out: delivery never depends on AI.
 */
@Injectable()
export class DigestService {
  private readonly logger = new Logger(DigestService.name);
  private lastTick = new Date();
  private ticking: Promise<void> | undefined;

  constructor(
    private readonly database: DatabaseWork,
    private readonly ai: AiClient,
    private readonly events: EventRecorder,
    private readonly outbox: NotificationOutboxService,
    private readonly systemSettings: SystemSettingsService,
    private readonly digests: DigestRepository,
    private readonly eventRecords: EventRepository,
    private readonly workItems: WorkItemRepository,
    private readonly alerts: SecurityAlertRepository,
    private readonly runs: WorkflowRunRepository,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'repo-monitor-digests' })
  async onMinute(): Promise<void> {
    await this.tick(new Date());
  }

  /** Produces every digest scheduled since the last tick (only while running: no catch-up burst at boot). */
  async tick(now: Date): Promise<DigestEntity[]> {
    const previous = this.lastTick;
    if (now.getTime() <= previous.getTime()) return [];
    this.lastTick = now;
    const settings = await this.systemSettings.current();
    const due = dueDigests(previous, now, {
      timeZone: settings.time_zone,
      digestTime: settings.digest_time,
      weekly: settings.weekly_report,
      monthly: { enabled: settings.monthly_report.enabled, day: settings.monthly_report.day },
    });
    const produced: DigestEntity[] = [];
    for (const digest of due) {
      try {
        const row = await this.produce(digest.period, digest.at, digest.key);
        if (row) produced.push(row);
      } catch (error) {
        this.logger.error(`${digest.key} failed: ${(error as Error).message}`);
      }
    }
    return produced;
  }

  /** Produces one digest now (the console's "send now"); scheduled ones pass their unique key. */
  async produce(period: DigestPeriod, end: Date, periodKey = `manual:${period}:${randomUUID()}`): Promise<DigestEntity | null> {
    if (await this.digests.periodKeyTaken(periodKey)) return null;
    const start = periodStart(period, end);
    const facts = await this.facts(start, end);
    const settings = await this.systemSettings.current();
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: settings.time_zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(end);
    const title = `${TITLES[period]} ${day}`;
    const template = templateDigest(title, facts);
    const outcome = await this.ai.completeFor('digest', digestPrompt(TITLES[period].toLowerCase(), template, facts.headlines));
    const body = outcome.ok ? `${title}\n${outcome.text}` : template;
    if (!outcome.ok && outcome.code !== 'disabled') this.logger.warn(`AI digest unavailable (${outcome.code}); sending the template`);
    const now = new Date();
    const row = await this.database.transaction(async (manager) => {
      if (await this.digests.periodKeyTaken(periodKey, manager)) return null;
      const saved = await this.digests.insert(manager, {
        period,
        periodKey,
        periodStart: start,
        periodEnd: end,
        source: outcome.ok ? 'ai' : 'template',
        fallbackReason: outcome.ok ? null : outcome.code,
        title,
        body,
        eventId: null,
        createdAt: now,
      });
      await this.events.record(
        manager,
        {
          repository: null,
          kind: EVENT_KINDS[period],
          category: 'other',
          title,
          bodyText: body.slice(title.length + 1),
          htmlUrl: null,
          actor: null,
          identity: `digest:${periodKey}`,
          occurredAt: end,
          notify: true,
          details: { period, period_start: start.toISOString(), period_end: end.toISOString(), source: saved.source, digest_id: saved.id },
        },
        null,
        now,
      );
      return saved;
    });
    if (row) this.outbox.notifyCommitted();
    return row;
  }

  async facts(start: Date, end: Date): Promise<DigestFacts> {
    const eventsByCategory = await this.eventRecords.countByCategory(start, end);
    const busiestRepositories = await this.eventRecords.busiestRepositories(start, end, 5);
    const open = await this.workItems.countOpenByKind();
    const openAlerts = await this.alerts.countOpen();
    const failedRuns = await this.runs.countConcluded(FAILED_RUN_CONCLUSIONS, start, end);
    const recent = await this.eventRecords.headlines(start, end, 60);
    return {
      eventsByCategory,
      busiestRepositories,
      openIssues: open.issue,
      openPullRequests: open.pull_request,
      openAlerts,
      failedRuns,
      headlines: recent.map((row) => (row.name && !row.title.startsWith('[') ? `[${row.name}] ${row.title}` : row.title)),
    };
  }
}
