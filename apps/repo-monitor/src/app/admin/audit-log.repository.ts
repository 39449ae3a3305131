import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { AuditLogEntity } from './audit-log.entity';

/** An audit log row about to be stored (AuditLogService decides what goes in it). */
export type NewAuditLogEntry = Omit<AuditLogEntity, 'id'>;

/** What the console's audit log can be narrowed to. */
export interface AuditLogFilter {
  /** An action (`auth.login`) or a family of actions (`auth`). */
  action?: string;
  actor?: string;
}

/** The audit log of admin actions: written by every console feature, listed by the console. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Stores one entry, inside `manager`'s transaction when given (so it commits with the change it records). */
  async insert(entry: NewAuditLogEntry, manager: EntityManager = this.database.dataSource.manager): Promise<void> {
    await manager.insert(AuditLogEntity, entry);
  }

  /** Newest first (by id: the order they were recorded in). */
  async find(window: PageWindow, filter: AuditLogFilter = {}): Promise<FoundRows<AuditLogEntity>> {
    const query = this.database.dataSource.manager.createQueryBuilder(AuditLogEntity, 'entry');
    // An action family (`notification_channel`) matches its actions (`notification_channel.created`...); a full action only itself.
    if (filter.action) query.andWhere('(entry.action = :action OR entry.action LIKE :family)', { action: filter.action, family: `${filter.action}.%` });
    if (filter.actor) query.andWhere('entry.actor = :actor', { actor: filter.actor });
    const [rows, total] = await query.orderBy('entry.id', 'DESC').skip(window.skip).take(window.perPage).getManyAndCount();
    return { rows, total };
  }
}
