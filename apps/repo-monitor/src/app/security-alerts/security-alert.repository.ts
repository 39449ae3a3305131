import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql } from '../../database/sql';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { SecurityAlertEntity, SecurityAlertKind } from './security-alert.entity';

export interface SecurityAlertFilter {
  repositoryId?: number;
  kind?: SecurityAlertKind;
  ignored?: boolean;
  state?: string;
  severity?: string;
  /** Text in the summary, ignoring case. */
  text?: string;
}

/** An alert as GitHub reports it, as stored; unique per repository, kind and number. */
export interface SecurityAlertState {
  repositoryId: number;
  kind: SecurityAlertKind;
  number: number;
  state: string;
  severity: string | null;
  summary: string;
  htmlUrl: string;
}

/**
 * The security alerts: the console's list and the agents' list_alerts share one query; processing
 * writes them inside its transaction.
 */
@Injectable()
export class SecurityAlertRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Most recently updated first. */
  async find(filter: SecurityAlertFilter, window: PageWindow): Promise<FoundRows<SecurityAlertEntity>> {
    const builder = this.database.dataSource.getRepository(SecurityAlertEntity).createQueryBuilder('alert');
    if (filter.repositoryId) builder.andWhere('alert.repositoryId = :repositoryId', { repositoryId: filter.repositoryId });
    if (filter.kind) builder.andWhere('alert.kind = :kind', { kind: filter.kind });
    if (filter.ignored !== undefined) builder.andWhere('alert.ignored = :ignored', { ignored: filter.ignored });
    if (filter.state) builder.andWhere('alert.state = :state', { state: filter.state });
    if (filter.severity) builder.andWhere('alert.severity = :severity', { severity: filter.severity });
    whereContains(builder, ['alert.summary'], filter.text);
    const [rows, total] = await builder
      .orderBy('alert.updatedAt', 'DESC')
      .addOrderBy('alert.id', 'DESC')
      .skip(window.skip)
      .take(window.perPage)
      .getManyAndCount();
    return { rows, total };
  }

  /** How many alerts are open and not ignored (the dashboard's tile, the digests' facts, the metrics' gauge). */
  async countOpen(): Promise<number> {
    const rows = await this.database.rows<{ count: string | number }>(sql`SELECT COUNT(*) AS "count" FROM "security_alerts" WHERE "state" = 'open' AND "ignored" = ${false}`);
    return Number(rows[0]?.count ?? 0);
  }

  /** Ignores an alert (no more notifications for it) or stops ignoring it; null when there is no such alert. */
  async setIgnored(id: number, ignored: boolean, now: Date): Promise<SecurityAlertEntity | null> {
    const row = await this.database.dataSource.getRepository(SecurityAlertEntity).findOne({ where: { id } });
    if (!row) return null;
    row.ignored = ignored;
    row.ignoredAt = ignored ? now : null;
    row.updatedAt = now;
    await this.database.transaction((manager) => manager.save(row));
    return row;
  }

  /** Creates or refreshes the alert (a new one is not ignored) and answers the row, whose `ignored` says whether to notify. */
  async upsert(manager: EntityManager, alert: SecurityAlertState, now: Date): Promise<SecurityAlertEntity> {
    const store = manager.getRepository(SecurityAlertEntity);
    const { repositoryId, kind, number, ...state } = alert;
    const row =
      (await store.findOne({ where: { repositoryId, kind, number } })) ??
      store.create({ repositoryId, kind, number, ignored: false, ignoredAt: null, createdAt: now });
    Object.assign(row, state, { updatedAt: now });
    return store.save(row);
  }
}
