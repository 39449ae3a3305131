import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BucketCount, DatabaseWork } from '../../database/database-work';
import { sql } from '../../database/sql';
import type { EventCategory } from '../common/event-category';
import { whereContains } from '../common/list-filters';
import { FoundRows, PageWindow } from '../common/list-page';
import { EventEntity } from './event.entity';

export interface EventFilter {
  repositoryId?: number;
  category?: EventCategory;
  /** A kind (`issues.opened`) or a family of kinds (`issues`). */
  kind?: string;
  since?: Date;
  until?: Date;
  /** Text in the title, body or actor, ignoring case. */
  text?: string;
}

type CountRow = { count: number | string };

/** An event row about to be stored (EventRecorder decides what goes in it). */
export type NewEvent = Omit<EventEntity, 'id'>;

/** The recorded events: EventRecorder stores them, the console's list and the agents' list_events share one query, retention deletes old ones. */
@Injectable()
export class EventRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Stores the event inside `manager`'s transaction unless one with its fingerprint exists; answers its id when it was new. */
  async insertIfNew(manager: EntityManager, event: NewEvent): Promise<number | undefined> {
    const inserted = await this.database.returning<{ id: number | string }>(
      manager,
      sql`INSERT INTO "events" ("repository_id", "delivery_id", "kind", "category", "title", "body_text", "html_url", "actor", "fingerprint", "notified", "occurred_at", "created_at")
       VALUES (${[
         event.repositoryId,
         event.deliveryId,
         event.kind,
         event.category,
         event.title,
         event.bodyText,
         event.htmlUrl,
         event.actor,
         event.fingerprint,
         event.notified,
         event.occurredAt,
         event.createdAt,
       ]})
       ON CONFLICT ("fingerprint") DO NOTHING
       RETURNING "id"`,
    );
    return inserted.length > 0 ? Number(inserted[0].id) : undefined;
  }

  /** The latest `limit` events, newest first (by id). */
  latest(limit: number): Promise<EventEntity[]> {
    return this.database.dataSource.manager.find(EventEntity, { order: { id: 'DESC' }, take: limit });
  }

  /** Events that occurred since `since`, counted per `bucketSeconds` of epoch time and category. */
  async countPerBucketAndCategory(since: Date, bucketSeconds: number): Promise<Array<BucketCount & { category: string }>> {
    const rows = await this.database.rows<{ bucket: number | string; category: string; count: number | string }>(
      sql`SELECT ${this.database.epochBucket('"occurred_at"', bucketSeconds)} AS "bucket", "category", COUNT(*) AS "count" FROM "events"
        WHERE "occurred_at" >= ${since} GROUP BY 1, 2`,
    );
    return rows.map((row) => ({ bucket: Number(row.bucket), category: row.category, count: Number(row.count) }));
  }

  /** Events that occurred in [start, end), counted per category. */
  async countByCategory(start: Date, end: Date): Promise<Record<string, number>> {
    const rows = await this.database.rows<CountRow & { category: string }>(
      sql`SELECT "category", COUNT(*) AS "count" FROM "events" WHERE "occurred_at" >= ${start} AND "occurred_at" < ${end} GROUP BY "category"`,
    );
    return Object.fromEntries(rows.map((row) => [row.category, Number(row.count)]));
  }

  /** The `limit` repositories with the most events in [start, end), most first (ties by name). */
  async busiestRepositories(start: Date, end: Date, limit: number): Promise<Array<{ name: string; count: number }>> {
    const rows = await this.database.rows<CountRow & { name: string }>(
      sql`SELECT r."full_name" AS "name", COUNT(*) AS "count" FROM "events" e JOIN "repositories" r ON r."id" = e."repository_id"
       WHERE e."occurred_at" >= ${start} AND e."occurred_at" < ${end} GROUP BY r."full_name" ORDER BY COUNT(*) DESC, r."full_name" LIMIT ${limit}`,
    );
    return rows.map((row) => ({ name: row.name, count: Number(row.count) }));
  }

  /**
   * Titles (with their repository's owner/name, if any) of the latest `limit` events in [start, end),
   * newest first; digests and reports themselves are left out.
   */
  headlines(start: Date, end: Date, limit: number): Promise<Array<{ title: string; name: string | null }>> {
    return this.database.rows<{ title: string; name: string | null }>(
      sql`SELECT e."title" AS "title", r."full_name" AS "name" FROM "events" e LEFT JOIN "repositories" r ON r."id" = e."repository_id"
       WHERE e."occurred_at" >= ${start} AND e."occurred_at" < ${end} AND e."kind" NOT LIKE 'digest.%' AND e."kind" NOT LIKE 'report.%'
       ORDER BY e."occurred_at" DESC, e."id" DESC LIMIT ${limit}`,
    );
  }

  /**
   * Deletes at most `limit` events created before `createdBefore`, lowest id first, inside `manager`'s
   * transaction; answers how many. An event is kept while an outbox entry that is still pending or
   * sending points at it (the send reads it).
   */
  deleteUnreferencedBefore(manager: EntityManager, createdBefore: Date, limit: number): Promise<number> {
    return this.database.affected(
      manager,
      sql`DELETE FROM "events" WHERE "id" IN (
         SELECT "event"."id" FROM "events" "event"
         WHERE "event"."created_at" < ${createdBefore}
           AND NOT EXISTS (
             SELECT 1 FROM "notification_outbox" "entry"
             WHERE "entry"."event_id" = "event"."id" AND "entry"."state" IN ('pending', 'sending')
           )
         ORDER BY "event"."id" LIMIT ${limit}
       )`,
    );
  }

  /** Newest first (by id: the order they were recorded in). */
  async find(filter: EventFilter, window: PageWindow): Promise<FoundRows<EventEntity>> {
    const builder = this.database.dataSource.getRepository(EventEntity).createQueryBuilder('event');
    if (filter.repositoryId) builder.andWhere('event.repositoryId = :repositoryId', { repositoryId: filter.repositoryId });
    if (filter.category) builder.andWhere('event.category = :category', { category: filter.category });
    if (filter.kind) {
      builder.andWhere(filter.kind.includes('.') ? 'event.kind = :kind' : "(event.kind = :kind OR event.kind LIKE :kindFamily ESCAPE '\\')", {
        kind: filter.kind,
        kindFamily: `${filter.kind.replace(/_/g, '\\_')}.%`,
      });
    }
    if (filter.since) builder.andWhere('event.occurredAt >= :since', { since: this.database.time(filter.since) });
    if (filter.until) builder.andWhere('event.occurredAt < :until', { until: this.database.time(filter.until) });
    whereContains(builder, ['event.title', 'event.bodyText', 'event.actor'], filter.text);
    const [rows, total] = await builder.orderBy('event.id', 'DESC').skip(window.skip).take(window.perPage).getManyAndCount();
    return { rows, total };
  }
}
