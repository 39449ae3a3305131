import { Injectable } from '@nestjs/common';
import { digestDto, DigestDto } from '../ai/dto/ai.dto';
import { DigestPeriod } from '../ai/digest.entity';
import { DigestRepository } from '../ai/digest.repository';
import type { EventCategory } from '../common/event-category';
import { FoundRows, listPage, ListPage, MAX_PAGE, MAX_PER_PAGE, PageWindow } from '../common/list-page';
import { EventDto } from '../events/events.controller';
import { EventRepository } from '../events/event.repository';
import { RepositoryDto } from '../repositories/dto/repository.dto';
import { RepositoryStatus } from '../repositories/repository.entity';
import { RepositoryRepository } from '../repositories/repository.repository';
import { SecurityAlertDto } from '../security-alerts/security-alerts.controller';
import { SecurityAlertKind } from '../security-alerts/security-alert.entity';
import { SecurityAlertRepository } from '../security-alerts/security-alert.repository';
import { WorkItemDto } from '../work-items/work-items.controller';
import { WorkItemKind } from '../work-items/work-item.entity';
import { WorkItemRepository } from '../work-items/work-item.repository';

export interface Paging {
  page?: number;
  per_page?: number;
}

/** A row as /api/v1 answers it, plus the owner/name of its repository (agents ask by name, not by id). */
export type WithRepositoryName<T> = T & { repository: string | null };

function window(paging: Paging): PageWindow {
  const page = Math.min(MAX_PAGE, Math.max(1, paging.page ?? 1));
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, paging.per_page ?? 20));
  return { page, perPage, skip: (page - 1) * perPage };
}

/**
 * What the MCP tools read: the same queries and the same row mappings as the console's lists under
 * /api/v1 (the repositories of each aggregate and their DTOs), with repositories named instead of
 * numbered.
 */
@Injectable()
export class AgentReadModel {
  constructor(
    private readonly repositoryRecords: RepositoryRepository,
    private readonly eventRecords: EventRepository,
    private readonly workItemRecords: WorkItemRepository,
    private readonly alertRecords: SecurityAlertRepository,
    private readonly digestRecords: DigestRepository,
  ) {}

  async repositories(filter: Paging & { status?: RepositoryStatus }): Promise<ListPage<RepositoryDto>> {
    const w = window(filter);
    const found = await this.repositoryRecords.find({ status: filter.status }, w);
    return listPage(found.rows.map(RepositoryDto.of), found.total, w);
  }

  events(filter: Paging & { repository?: string; category?: EventCategory; kind?: string; since?: string }): Promise<ListPage<WithRepositoryName<EventDto>>> {
    return this.named(filter, EventDto.of, (repositoryId, w) =>
      this.eventRecords.find({ repositoryId, category: filter.category, kind: filter.kind, since: filter.since ? new Date(filter.since) : undefined }, w),
    );
  }

  workItems(filter: Paging & { repository?: string; kind?: WorkItemKind; state?: string }): Promise<ListPage<WithRepositoryName<WorkItemDto>>> {
    return this.named(filter, WorkItemDto.of, (repositoryId, w) => this.workItemRecords.find({ repositoryId, kind: filter.kind, state: filter.state }, w));
  }

  alerts(filter: Paging & { repository?: string; kind?: SecurityAlertKind; state?: string }): Promise<ListPage<WithRepositoryName<SecurityAlertDto>>> {
    return this.named(filter, SecurityAlertDto.of, (repositoryId, w) => this.alertRecords.find({ repositoryId, kind: filter.kind, state: filter.state }, w));
  }

  /** The newest digest (of one period when given), or null when none was produced yet. */
  async latestDigest(period?: DigestPeriod): Promise<DigestDto | null> {
    const found = await this.digestRecords.find(period, { page: 1, perPage: 1, skip: 0 });
    return found.rows.length > 0 ? digestDto(found.rows[0]) : null;
  }

  /** One page of rows of a repository given by name (none when no such repository is stored), each with its repository's name. */
  private async named<Row extends { repositoryId: number | null }, Dto>(
    filter: Paging & { repository?: string },
    toDto: (row: Row) => Dto,
    find: (repositoryId: number | undefined, w: PageWindow) => Promise<FoundRows<Row>>,
  ): Promise<ListPage<WithRepositoryName<Dto>>> {
    const w = window(filter);
    let repositoryId: number | undefined;
    if (filter.repository) {
      repositoryId = await this.repositoryRecords.idByName(filter.repository);
      if (repositoryId === undefined) return listPage([], 0, w);
    }
    const [found, names] = await Promise.all([find(repositoryId, w), this.repositoryRecords.namesById()]);
    const items = found.rows.map((row) => ({ ...toDto(row), repository: row.repositoryId === null ? null : (names.get(row.repositoryId) ?? null) }));
    return listPage(items, found.total, w);
  }
}
