import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuditLogEntity } from './audit-log.entity';
import { AuditLogRepository, AuditLogFilter } from './audit-log.repository';

export interface AuditEntry {
  actor: string;
  action: string;
  target?: string;
  /** Field names and non-secret values only: what changed, never the secret itself. */
  details?: Record<string, unknown>;
  clientIp?: string;
}

export interface AuditPage {
  items: AuditLogEntity[];
  total: number;
}

/** Records admin actions; a write can pass its transaction's manager so the entry commits with it. */
@Injectable()
export class AuditLogService {
  constructor(private readonly records: AuditLogRepository) {}

  async record(entry: AuditEntry, manager?: EntityManager): Promise<void> {
    await this.records.insert(
      {
        createdAt: new Date(),
        actor: entry.actor.slice(0, 64),
        action: entry.action,
        target: entry.target?.slice(0, 255) ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
        clientIp: entry.clientIp?.slice(0, 64) ?? null,
      },
      manager,
    );
  }

  async list(page: number, perPage: number, filter: AuditLogFilter = {}): Promise<AuditPage> {
    const { rows, total } = await this.records.find({ page, perPage, skip: (page - 1) * perPage }, filter);
    return { items: rows, total };
  }
}
