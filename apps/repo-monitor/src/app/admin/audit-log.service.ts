import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogEntity } from './audit-log.entity';

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
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(entry: AuditEntry, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).insert(AuditLogEntity, {
      createdAt: new Date(),
      actor: entry.actor.slice(0, 64),
      action: entry.action,
      target: entry.target?.slice(0, 255) ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
      clientIp: entry.clientIp?.slice(0, 64) ?? null,
    });
  }

  async list(page: number, perPage: number): Promise<AuditPage> {
    const [items, total] = await this.dataSource.manager.findAndCount(AuditLogEntity, {
      order: { id: 'DESC' },
      skip: (page - 1) * perPage,
      take: perPage,
    });
    return { items, total };
  }
}
