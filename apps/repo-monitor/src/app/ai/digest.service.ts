import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { randomUUID } from 'node:crypto';
import { EventRecorder } from '../events/event-recorder';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DatabaseWork } from '../processing/database-work';
import { SystemSettingsService } from '../system-settings/system-settings.service';
import { AiClient } from './ai-client';
import { digestPrompt } from './ai-prompts';
import { dueDigests, periodStart } from './digest-schedule';
import { DigestEntity, DigestPeriod } from './digest.entity';

const FAILED_CONCLUSIONS = ['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure'];
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
    const digests = this.database.dataSource.getRepository(DigestEntity);
    if (await digests.exists({ where: { periodKey } })) return null;
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
      const store = manager.getRepository(DigestEntity);
      if (await store.exists({ where: { periodKey } })) return null;
      const saved = await store.save(
        store.create({
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
        }),
      );
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
    const source = this.database.dataSource;
    const p = (n: number) => this.database.placeholder(n);
    const range = [this.database.time(start), this.database.time(end)];
    const byCategory = (await source.query(
      `SELECT "category", COUNT(*) AS "count" FROM "events" WHERE "occurred_at" >= ${p(1)} AND "occurred_at" < ${p(2)} GROUP BY "category"`,
      range,
    )) as Array<{ category: string; count: string | number }>;
    const busiest = (await source.query(
      `SELECT r."full_name" AS "name", COUNT(*) AS "count" FROM "events" e JOIN "repositories" r ON r."id" = e."repository_id"
       WHERE e."occurred_at" >= ${p(1)} AND e."occurred_at" < ${p(2)} GROUP BY r."full_name" ORDER BY COUNT(*) DESC, r."full_name" LIMIT 5`,
      range,
    )) as Array<{ name: string; count: string | number }>;
    const open = (await source.query(`SELECT "kind", COUNT(*) AS "count" FROM "work_items" WHERE "state" = 'open' GROUP BY "kind"`)) as Array<{ kind: string; count: string | number }>;
    const alerts = (await source.query(
      `SELECT COUNT(*) AS "count" FROM "security_alerts" WHERE "state" = 'open' AND "ignored" = ${this.database.isSqlite ? '0' : 'false'}`,
    )) as Array<{ count: string | number }>;
    const failed = (await source.query(
      `SELECT COUNT(*) AS "count" FROM "workflow_runs" WHERE "updated_at" >= ${p(1)} AND "updated_at" < ${p(2)} AND "conclusion" IN (${FAILED_CONCLUSIONS.map((_, index) => p(index + 3)).join(', ')})`,
      [...range, ...FAILED_CONCLUSIONS],
    )) as Array<{ count: string | number }>;
    const recent = (await source.query(
      `SELECT e."title" AS "title", r."full_name" AS "name" FROM "events" e LEFT JOIN "repositories" r ON r."id" = e."repository_id"
       WHERE e."occurred_at" >= ${p(1)} AND e."occurred_at" < ${p(2)} AND e."kind" NOT LIKE 'digest.%' AND e."kind" NOT LIKE 'report.%'
       ORDER BY e."occurred_at" DESC, e."id" DESC LIMIT 60`,
      range,
    )) as Array<{ title: string; name: string | null }>;
    const openCount = (kind: string) => Number(open.find((row) => row.kind === kind)?.count ?? 0);
    return {
      eventsByCategory: Object.fromEntries(byCategory.map((row) => [row.category, Number(row.count)])),
      busiestRepositories: busiest.map((row) => ({ name: row.name, count: Number(row.count) })),
      openIssues: openCount('issue'),
      openPullRequests: openCount('pull_request'),
      openAlerts: Number(alerts[0]?.count ?? 0),
      failedRuns: Number(failed[0]?.count ?? 0),
      headlines: recent.map((row) => (row.name && !row.title.startsWith('[') ? `[${row.name}] ${row.title}` : row.title)),
    };
  }
}
