import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { rawSql, sql, storedBoolean, storedTime } from '../../database/sql';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { WorkItemEntity, WorkItemKind } from './work-item.entity';

export interface WorkItemFilter {
  repositoryId?: number;
  kind?: WorkItemKind;
  state?: string;
  /** Text in the title or author, or the number (`42` or `#42`), ignoring case. */
  text?: string;
}

/** What GitHub says about one issue or pull request, as stored. */
export interface WorkItemState {
  title: string;
  state: string;
  merged: boolean;
  draft: boolean;
  author: string | null;
  htmlUrl: string;
  /** GitHub's `updated_at`: an older state never overwrites a newer one. */
  githubUpdatedAt: Date | null;
}

/** Which issue or pull request: unique per repository, kind and number. */
export interface WorkItemKey {
  repositoryId: number;
  kind: WorkItemKind;
  number: number;
}

/**
 * Issues and pull requests: the console's list and the agents' list_work_items share one query; the
 * writes of processing and of the baseline import run inside the caller's transaction.
 */
@Injectable()
export class WorkItemRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Most recently updated first. */
  async find(filter: WorkItemFilter, window: PageWindow): Promise<FoundRows<WorkItemEntity>> {
    const builder = this.database.dataSource.getRepository(WorkItemEntity).createQueryBuilder('item');
    if (filter.repositoryId) builder.andWhere('item.repositoryId = :repositoryId', { repositoryId: filter.repositoryId });
    if (filter.kind) builder.andWhere('item.kind = :kind', { kind: filter.kind });
    if (filter.state) builder.andWhere('item.state = :state', { state: filter.state });
    const number = filter.text && /^#?\d{1,9}$/.test(filter.text) ? Number(filter.text.replace('#', '')) : undefined;
    if (number !== undefined) builder.andWhere('item.number = :number', { number });
    else whereContains(builder, ['item.title', 'item.author'], filter.text);
    const [rows, total] = await builder
      .orderBy('item.updatedAt', 'DESC')
      .addOrderBy('item.id', 'DESC')
      .skip(window.skip)
      .take(window.perPage)
      .getManyAndCount();
    return { rows, total };
  }

  /** How many issues and pull requests are open (the dashboard's tiles, the digests' facts, the metrics' gauge). */
  async countOpenByKind(): Promise<Record<WorkItemKind, number>> {
    const rows = await this.database.rows<{ kind: string; count: string | number }>(sql`SELECT "kind", COUNT(*) AS "count" FROM "work_items" WHERE "state" = 'open' GROUP BY "kind"`);
    const count = (kind: WorkItemKind) => Number(rows.find((row) => row.kind === kind)?.count ?? 0);
    return { issue: count('issue'), pull_request: count('pull_request') };
  }

  /**
   * Stores the item's state unless the stored one is newer (by GitHub's updated_at), and answers the
   * row as it now stands.
   */
  async upsertIfNewer(manager: EntityManager, key: WorkItemKey, state: WorkItemState, now: Date): Promise<WorkItemEntity> {
    // One statement: insert, or update unless the stored state is newer. A stale delivery changes
    // nothing and RETURNING answers no row; the row as stored is read then (the rare case).
    const [written] = await this.database.returning<WorkItemRow>(
      manager,
      sql`INSERT INTO "work_items" ("repository_id", "kind", "number", "title", "state", "merged", "draft", "author", "html_url", "github_updated_at", "created_at", "updated_at")
       VALUES (${key.repositoryId}, ${key.kind}, ${key.number}, ${state.title}, ${state.state}, ${state.merged}, ${state.draft}, ${state.author}, ${state.htmlUrl}, ${state.githubUpdatedAt}, ${now}, ${now})
       ON CONFLICT ("repository_id", "kind", "number") DO UPDATE SET
         "title" = excluded."title", "state" = excluded."state", "merged" = excluded."merged", "draft" = excluded."draft", "author" = excluded."author",
         "html_url" = excluded."html_url", "github_updated_at" = excluded."github_updated_at", "updated_at" = excluded."updated_at"
       WHERE "work_items"."github_updated_at" IS NULL OR excluded."github_updated_at" IS NULL OR excluded."github_updated_at" >= "work_items"."github_updated_at"
       RETURNING ${WORK_ITEM_COLUMNS}`,
    );
    const row =
      written ??
      (await this.database.rows<WorkItemRow>(
        sql`SELECT ${WORK_ITEM_COLUMNS} FROM "work_items" WHERE "repository_id" = ${key.repositoryId} AND "kind" = ${key.kind} AND "number" = ${key.number}`,
        manager,
      ))[0];
    return workItemFromRow(row);
  }

  /**
   * Inserts the items not stored yet and leaves the others alone: a webhook may already have written
   * a newer state while the baseline import ran.
   */
  async insertMissing(manager: EntityManager, items: ReadonlyArray<WorkItemKey & WorkItemState>, now: Date): Promise<void> {
    const store = manager.getRepository(WorkItemEntity);
    for (const item of items) {
      const existing = await store.findOne({ where: { repositoryId: item.repositoryId, kind: item.kind, number: item.number } });
      if (existing) continue;
      await store.save(store.create({ ...item, createdAt: now, updatedAt: now }));
    }
  }
}

const WORK_ITEM_COLUMNS = rawSql(
  '"id", "repository_id", "kind", "number", "title", "state", "merged", "draft", "author", "html_url", "github_updated_at", "created_at", "updated_at"',
);

/** A work_items row as a raw query answers it on either driver. */
interface WorkItemRow {
  id: number | string;
  repository_id: number | string;
  kind: WorkItemKind;
  number: number | string;
  title: string;
  state: string;
  merged: boolean | number;
  draft: boolean | number;
  author: string | null;
  html_url: string;
  github_updated_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

function workItemFromRow(row: WorkItemRow): WorkItemEntity {
  return Object.assign(new WorkItemEntity(), {
    id: Number(row.id),
    repositoryId: Number(row.repository_id),
    kind: row.kind,
    number: Number(row.number),
    title: row.title,
    state: row.state,
    merged: storedBoolean(row.merged),
    draft: storedBoolean(row.draft),
    author: row.author,
    htmlUrl: row.html_url,
    githubUpdatedAt: storedTime(row.github_updated_at) ?? null,
    createdAt: storedTime(row.created_at) as Date,
    updatedAt: storedTime(row.updated_at) as Date,
  });
}
