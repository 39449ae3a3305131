import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql, storedBoolean, storedTime } from '../../database/sql';
import { EventRoutingEntity } from './event-routing.entity';
import { NotificationRuleEntity } from './notification-rule.entity';

interface RoutedEventRow {
  id: number | string;
  kind: string;
  category: string;
  title: string;
  notified: boolean | number | string;
  occurred_at: string | Date;
  facts: string | null;
  decision: string | null;
  routed_at: string | Date | null;
}

/** An event as its routing explanation needs it. */
export interface RoutedEvent {
  id: number;
  kind: string;
  category: string;
  title: string;
  notified: boolean;
  occurredAt: Date;
  /** null when no routing was recorded for the event. */
  routing: { facts: string; decision: string; routedAt: Date } | null;
}

function routedEvent(row: RoutedEventRow): RoutedEvent {
  return {
    id: Number(row.id),
    kind: row.kind,
    category: row.category,
    title: row.title,
    notified: storedBoolean(row.notified),
    occurredAt: storedTime(row.occurred_at) ?? new Date(0),
    routing: row.facts !== null && row.decision !== null ? { facts: row.facts, decision: row.decision, routedAt: storedTime(row.routed_at) ?? new Date(0) } : null,
  };
}

/** Rules in the order they are consulted, and the routing recorded for each notifying event. */
@Injectable()
export class NotificationRuleRepository {
  constructor(private readonly database: DatabaseWork) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.database.dataSource.manager;
  }

  all(manager?: EntityManager): Promise<NotificationRuleEntity[]> {
    return this.manager(manager).find(NotificationRuleEntity, { order: { position: 'ASC', createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string, manager?: EntityManager): Promise<NotificationRuleEntity | null> {
    return this.manager(manager).findOne(NotificationRuleEntity, { where: { id } });
  }

  count(manager?: EntityManager): Promise<number> {
    return this.manager(manager).count(NotificationRuleEntity);
  }

  async nextPosition(manager: EntityManager): Promise<number> {
    const rows = await this.database.rows<{ top: number | string | null }>(sql`SELECT MAX("position") AS "top" FROM "notification_rules"`, manager);
    return Number(rows[0]?.top ?? 0) + 1;
  }

  async insert(entity: NotificationRuleEntity, manager: EntityManager): Promise<void> {
    await manager.insert(NotificationRuleEntity, entity);
  }

  async update(id: string, changes: Partial<Omit<NotificationRuleEntity, 'id' | 'createdAt'>>, manager: EntityManager): Promise<void> {
    await manager.update(NotificationRuleEntity, { id }, changes);
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await manager.delete(NotificationRuleEntity, { id });
  }

  async deleteAll(manager: EntityManager): Promise<void> {
    await manager.createQueryBuilder().delete().from(NotificationRuleEntity).execute();
  }

  async recordRouting(manager: EntityManager, row: EventRoutingEntity): Promise<void> {
    await manager.insert(EventRoutingEntity, row);
  }

  /** An event and the routing recorded for it (null: recorded before routing was, or not notifying). */
  async routingOf(eventId: number): Promise<RoutedEvent | undefined> {
    const rows = await this.database.rows<RoutedEventRow>(
      sql`SELECT e."id", e."kind", e."category", e."title", e."notified", e."occurred_at", r."facts", r."decision", r."created_at" AS "routed_at"
          FROM "events" e LEFT JOIN "event_routing" r ON r."event_id" = e."id" WHERE e."id" = ${eventId}`,
    );
    return rows[0] ? routedEvent(rows[0]) : undefined;
  }

  /** The newest `limit` events with recorded routing (the dry run's sample), newest first. */
  async recentRoutings(limit: number): Promise<RoutedEvent[]> {
    const rows = await this.database.rows<RoutedEventRow>(
      sql`SELECT e."id", e."kind", e."category", e."title", e."notified", e."occurred_at", r."facts", r."decision", r."created_at" AS "routed_at"
          FROM "event_routing" r JOIN "events" e ON e."id" = r."event_id" ORDER BY r."event_id" DESC LIMIT ${limit}`,
    );
    return rows.map(routedEvent);
  }
}
