import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, MoreThanOrEqual } from 'typeorm';
import { DigestEntity, DigestPeriod } from '../ai/digest.entity';
import { MAX_PAGE, MAX_PER_PAGE } from '../common/list-page';
import { EventCategory, EventEntity } from '../events/event.entity';
import { DatabaseWork } from '../processing/database-work';
import { RepositoryEntity, RepositoryStatus } from '../repositories/repository.entity';
import { SecurityAlertEntity, SecurityAlertKind } from '../security-alerts/security-alert.entity';
import { WorkItemEntity, WorkItemKind } from '../work-items/work-item.entity';

export interface Paging {
  page?: number;
  per_page?: number;
}

export interface AgentPage<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
}

function window(paging: Paging): { page: number; perPage: number; skip: number } {
  const page = Math.min(MAX_PAGE, Math.max(1, paging.page ?? 1));
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, paging.per_page ?? 20));
  return { page, perPage, skip: (page - 1) * perPage };
}

/** What the MCP tools read: the stored records, newest first, in the console's list shape. */
@Injectable()
export class AgentReadModel {
  constructor(private readonly database: DatabaseWork) {}

  async repositories(filter: Paging & { status?: RepositoryStatus }): Promise<AgentPage<Record<string, unknown>>> {
    const w = window(filter);
    const where: FindOptionsWhere<RepositoryEntity> = filter.status ? { status: filter.status } : {};
    const [rows, total] = await this.database.dataSource
      .getRepository(RepositoryEntity)
      .findAndCount({ where, order: { fullName: 'ASC' }, skip: w.skip, take: w.perPage });
    const items = rows.map((row) => ({
      id: row.id,
      full_name: row.fullName,
      html_url: row.htmlUrl,
      private: row.private,
      source: row.source,
      status: row.status,
    }));
    return { items, page: w.page, per_page: w.perPage, total };
  }

  async events(filter: Paging & { repository?: string; category?: EventCategory; kind?: string; since?: string }): Promise<AgentPage<Record<string, unknown>>> {
    const w = window(filter);
    const names = await this.repositoryNames();
    const where: FindOptionsWhere<EventEntity> = {};
    if (filter.repository) {
      const id = await this.repositoryId(filter.repository);
      if (id === undefined) return { items: [], page: w.page, per_page: w.perPage, total: 0 };
      where.repositoryId = id;
    }
    if (filter.category) where.category = filter.category;
    if (filter.kind) where.kind = filter.kind;
    if (filter.since) where.occurredAt = MoreThanOrEqual(new Date(filter.since));
    const [rows, total] = await this.database.dataSource
      .getRepository(EventEntity)
      .findAndCount({ where, order: { occurredAt: 'DESC', id: 'DESC' }, skip: w.skip, take: w.perPage });
    const items = rows.map((row) => ({
      id: row.id,
      repository: row.repositoryId === null ? null : (names.get(row.repositoryId) ?? null),
      kind: row.kind,
      category: row.category,
      title: row.title,
      body_text: row.bodyText,
      html_url: row.htmlUrl,
      actor: row.actor,
      occurred_at: row.occurredAt.toISOString(),
    }));
    return { items, page: w.page, per_page: w.perPage, total };
  }

  async workItems(filter: Paging & { repository?: string; kind?: WorkItemKind; state?: string }): Promise<AgentPage<Record<string, unknown>>> {
    const w = window(filter);
    const names = await this.repositoryNames();
    const where: FindOptionsWhere<WorkItemEntity> = {};
    if (filter.repository) {
      const id = await this.repositoryId(filter.repository);
      if (id === undefined) return { items: [], page: w.page, per_page: w.perPage, total: 0 };
      where.repositoryId = id;
    }
    if (filter.kind) where.kind = filter.kind;
    if (filter.state) where.state = filter.state;
    const [rows, total] = await this.database.dataSource
      .getRepository(WorkItemEntity)
      .findAndCount({ where, order: { updatedAt: 'DESC', id: 'DESC' }, skip: w.skip, take: w.perPage });
    const items = rows.map((row) => ({
      id: row.id,
      repository: names.get(row.repositoryId) ?? null,
      kind: row.kind,
      number: row.number,
      title: row.title,
      state: row.state,
      merged: row.merged,
      draft: row.draft,
      author: row.author,
      html_url: row.htmlUrl,
      updated_at: row.updatedAt.toISOString(),
    }));
    return { items, page: w.page, per_page: w.perPage, total };
  }

  async alerts(filter: Paging & { repository?: string; kind?: SecurityAlertKind; state?: string }): Promise<AgentPage<Record<string, unknown>>> {
    const w = window(filter);
    const names = await this.repositoryNames();
    const where: FindOptionsWhere<SecurityAlertEntity> = {};
    if (filter.repository) {
      const id = await this.repositoryId(filter.repository);
      if (id === undefined) return { items: [], page: w.page, per_page: w.perPage, total: 0 };
      where.repositoryId = id;
    }
    if (filter.kind) where.kind = filter.kind;
    if (filter.state) where.state = filter.state;
    const [rows, total] = await this.database.dataSource
      .getRepository(SecurityAlertEntity)
      .findAndCount({ where, order: { updatedAt: 'DESC', id: 'DESC' }, skip: w.skip, take: w.perPage });
    const items = rows.map((row) => ({
      id: row.id,
      repository: names.get(row.repositoryId) ?? null,
      kind: row.kind,
      number: row.number,
      state: row.state,
      severity: row.severity,
      summary: row.summary,
      html_url: row.htmlUrl,
      ignored: row.ignored,
      updated_at: row.updatedAt.toISOString(),
    }));
    return { items, page: w.page, per_page: w.perPage, total };
  }

  /** The newest digest (of one period when given), or null when none was produced yet. */
  async latestDigest(period?: DigestPeriod): Promise<Record<string, unknown> | null> {
    const row = await this.database.dataSource
      .getRepository(DigestEntity)
      .findOne({ where: period ? { period } : {}, order: { createdAt: 'DESC', id: 'DESC' } });
    if (!row) return null;
    return {
      id: row.id,
      period: row.period,
      period_start: row.periodStart.toISOString(),
      period_end: row.periodEnd.toISOString(),
      source: row.source,
      fallback_reason: row.fallbackReason,
      title: row.title,
      body: row.body,
      created_at: row.createdAt.toISOString(),
    };
  }

  private async repositoryId(fullName: string): Promise<number | undefined> {
    const rows = await this.database.dataSource
      .getRepository(RepositoryEntity)
      .createQueryBuilder('repository')
      .select(['repository.id'])
      .where('LOWER(repository.full_name) = :name', { name: fullName.toLowerCase() })
      .getMany();
    return rows[0]?.id;
  }

  private async repositoryNames(): Promise<Map<number, string>> {
    const rows = await this.database.dataSource.getRepository(RepositoryEntity).find({ select: { id: true, fullName: true } });
    return new Map(rows.map((row) => [row.id, row.fullName]));
  }
}
