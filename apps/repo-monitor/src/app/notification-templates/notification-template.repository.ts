import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql, storedTime } from '../../database/sql';
import { NotificationTemplateEntity } from './notification-template.entity';

/** A recorded event as a template preview needs it (with the facts routing recorded, when it did). */
export interface PreviewEventRow {
  id: number;
  kind: string;
  category: string;
  repository: string | null;
  title: string;
  bodyText: string;
  htmlUrl: string | null;
  actor: string | null;
  occurredAt: Date;
  facts: string | null;
}

interface PreviewEventSqlRow {
  id: number | string;
  kind: string;
  category: string;
  repository: string | null;
  title: string;
  body_text: string;
  html_url: string | null;
  actor: string | null;
  occurred_at: string | Date;
  facts: string | null;
}

/** Templates of channels and rules, and the recorded events a preview renders. */
@Injectable()
export class NotificationTemplateRepository {
  constructor(private readonly database: DatabaseWork) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.database.dataSource.manager;
  }

  all(manager?: EntityManager): Promise<NotificationTemplateEntity[]> {
    return this.manager(manager).find(NotificationTemplateEntity, { order: { owner: 'ASC', part: 'ASC', eventKind: 'ASC' } });
  }

  findById(id: string): Promise<NotificationTemplateEntity | null> {
    return this.manager().findOne(NotificationTemplateEntity, { where: { id } });
  }

  findByOwner(owner: string, part: NotificationTemplateEntity['part'], eventKind: string, manager?: EntityManager): Promise<NotificationTemplateEntity | null> {
    return this.manager(manager).findOne(NotificationTemplateEntity, { where: { owner, part, eventKind } });
  }

  async countByOwner(owner: string, manager?: EntityManager): Promise<number> {
    return this.manager(manager).count(NotificationTemplateEntity, { where: { owner } });
  }

  async insert(entity: NotificationTemplateEntity, manager: EntityManager): Promise<void> {
    await manager.insert(NotificationTemplateEntity, entity);
  }

  async update(id: string, changes: Pick<NotificationTemplateEntity, 'body' | 'updatedAt'>, manager: EntityManager): Promise<void> {
    await manager.update(NotificationTemplateEntity, { id }, changes);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.delete(NotificationTemplateEntity, { id });
  }

  async deleteAll(manager: EntityManager): Promise<void> {
    await manager.createQueryBuilder().delete().from(NotificationTemplateEntity).execute();
  }

  async ruleExists(id: string, manager?: EntityManager): Promise<boolean> {
    return (await this.database.rows(sql`SELECT 1 AS "one" FROM "notification_rules" WHERE "id" = ${id}`, manager)).length > 0;
  }

  /** The event `id`, or the newest routed event of the kind (`*`: any, a family, or an exact kind). */
  async previewEvent(selector: { id: number } | { kind: string }): Promise<PreviewEventRow | undefined> {
    const columns = sql`SELECT e."id", e."kind", e."category", p."full_name" AS "repository", e."title", e."body_text", e."html_url", e."actor", e."occurred_at", r."facts"`;
    let rows: PreviewEventSqlRow[];
    if ('id' in selector) {
      rows = await this.database.rows<PreviewEventSqlRow>(
        sql`${columns} FROM "events" e LEFT JOIN "event_routing" r ON r."event_id" = e."id" LEFT JOIN "repositories" p ON p."id" = e."repository_id" WHERE e."id" = ${selector.id}`,
      );
    } else {
      const kind = selector.kind;
      const filter = kind === '*' ? sql`` : kind.includes('.') ? sql`WHERE e."kind" = ${kind}` : sql`WHERE e."kind" = ${kind} OR e."kind" LIKE ${`${kind}.%`}`;
      rows = await this.database.rows<PreviewEventSqlRow>(
        sql`${columns} FROM "event_routing" r JOIN "events" e ON e."id" = r."event_id" LEFT JOIN "repositories" p ON p."id" = e."repository_id" ${filter} ORDER BY e."id" DESC LIMIT 1`,
      );
    }
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: Number(row.id),
      kind: row.kind,
      category: row.category,
      repository: row.repository,
      title: row.title,
      bodyText: row.body_text,
      htmlUrl: row.html_url,
      actor: row.actor,
      occurredAt: storedTime(row.occurred_at) ?? new Date(0),
      facts: row.facts,
    };
  }
}
