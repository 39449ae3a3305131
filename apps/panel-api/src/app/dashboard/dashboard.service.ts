import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, FindOptionsWhere, LessThan, MoreThanOrEqual, Repository } from 'typeorm';
import { KeywordHit } from '../keyword-hits/entities/keyword-hit.entity';
import { SignLog } from '../runs/entities/sign-log.entity';
import { SettingsService } from '../settings/settings.service';
import { CategoryCountDto, DashboardStatsDto, DayCountDto, RunListDto, RunListQueryDto } from './dto/dashboard.dto';
import { addDays, isDay, startOfZonedDay, zonedDay } from './zoned-days';
import { ValidationFailed } from '../common/panel-error';
import { runMessageFields } from '../common/run-outcomes';

/** Counts for the dashboard and the run history across tasks, by days of the configured time zone. */
@Injectable()
export class DashboardService {
  constructor(
    @InjectRepository(SignLog) private readonly logs: Repository<SignLog>,
    @InjectRepository(KeywordHit) private readonly hits: Repository<KeywordHit>,
    private readonly settings: SettingsService,
  ) {}

  timeZone(): string {
    return this.settings.getGlobal().timezone || 'UTC';
  }

  async runs(query: RunListQueryDto): Promise<RunListDto> {
    const timeZone = this.timeZone();
    for (const [name, value] of [
      ['since', query.since],
      ['until', query.until],
    ] as const) {
      if (value !== undefined && !isDay(value)) throw new ValidationFailed(`${name} is not a calendar day`);
    }
    if (query.since && query.until && query.since > query.until) throw new ValidationFailed('since must not be after until');
    const where: FindOptionsWhere<SignLog> = {};
    if (query.account) where.accountName = query.account;
    if (query.task) where.taskName = query.task;
    if (query.status) where.success = query.status === 'success';
    if (query.failure_category) where.failureCategory = query.failure_category;
    if (query.verdict) where.verdict = query.verdict;
    const from = query.since ? startOfZonedDay(query.since, timeZone) : undefined;
    const to = query.until ? startOfZonedDay(addDays(query.until, 1), timeZone) : undefined;
    if (from && to) where.createdAt = Between(from, new Date(to.getTime() - 1));
    else if (from) where.createdAt = MoreThanOrEqual(from);
    else if (to) where.createdAt = LessThan(to);
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const [rows, total] = await this.logs.findAndCount({ where, order: { createdAt: 'DESC', id: 'DESC' }, take: limit, skip: offset });
    return {
      items: rows.map((row) => ({
        run_id: row.runId,
        task_name: row.taskName,
        account_name: row.accountName,
        trigger: row.trigger,
        state: row.state,
        success: row.success,
        failure_category: row.failureCategory,
        message: row.message,
        ...runMessageFields({ message: row.message, success: row.success, failure_category: row.failureCategory }),
        attempts: row.attempts,
        verdict: row.verdict ?? null,
        verdict_text: row.verdictText ?? null,
        created_at: row.createdAt.toISOString(),
      })),
      total,
      limit,
      offset,
      time_zone: timeZone,
    };
  }

  /**
   * Today's successes and failures and a per-day series (runs and keyword hits), each day counted
   * by the database over an indexed time range of that day in the configured time zone.
   */
  async stats(days: number): Promise<DashboardStatsDto> {
    const timeZone = this.timeZone();
    const today = zonedDay(new Date(), timeZone);
    const series: DayCountDto[] = [];
    for (let index = days - 1; index >= 0; index -= 1) {
      const day = addDays(today, -index);
      const range = Between(startOfZonedDay(day, timeZone), new Date(startOfZonedDay(addDays(day, 1), timeZone).getTime() - 1));
      const [success, failure, alreadyDone, unconfirmed, keywordHits] = await Promise.all([
        this.logs.count({ where: { createdAt: range, success: true } }),
        this.logs.count({ where: { createdAt: range, success: false } }),
        this.logs.count({ where: { createdAt: range, verdict: 'already_done' } }),
        this.logs.count({ where: { createdAt: range, verdict: 'unconfirmed' } }),
        this.hits.count({ where: { hitAt: range } }),
      ]);
      series.push({ day, success, failure, already_done: alreadyDone, unconfirmed, keyword_hits: keywordHits });
    }
    const first = startOfZonedDay(series[0].day, timeZone);
    const categories = await this.logs
      .createQueryBuilder('log')
      .select('log.failureCategory', 'category')
      .addSelect('COUNT(*)', 'count')
      .where('log.success = :success AND log.createdAt >= :first', { success: false, first })
      .groupBy('log.failureCategory')
      .getRawMany<{ category: string; count: string | number }>();
    const failureCategories: CategoryCountDto[] = categories
      .map((row) => ({ category: row.category, count: Number(row.count) }))
      .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
    const last = series[series.length - 1];
    return {
      time_zone: timeZone,
      today,
      today_success: last.success,
      today_failure: last.failure,
      today_already_done: last.already_done,
      today_unconfirmed: last.unconfirmed,
      today_keyword_hits: last.keyword_hits,
      days: series,
      failure_categories: failureCategories,
    };
  }
}
