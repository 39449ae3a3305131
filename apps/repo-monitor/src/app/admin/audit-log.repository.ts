import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { AuditLogEntity } from './audit-log.entity';

/** An audit log row about to be stored (AuditLogService decides what goes in it). */
export type NewAuditLogEntry = Omit<AuditLogEntity, 'id'>;

/** The audit log of admin actions: written by every console feature, listed by the console. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Stores one entry, inside `manager`'s transaction when given (so it commits with the change it records). */
  async insert(entry: NewAuditLogEntry, manager: EntityManager = this.database.dataSource.manager): Promise<void> {
    await manager.insert(AuditLogEntity, entry);
  }

  /** Newest first (by id: the order they were recorded in). */
  async find(window: PageWindow): Promise<FoundRows<AuditLogEntity>> {
    const [rows, total] = await this.database.dataSource.manager.findAndCount(AuditLogEntity, { order: { id: 'DESC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }
}
