import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { sql } from '../../database/sql';
import { EventRoutingEntity } from './event-routing.entity';
import { NotificationRuleEntity } from './notification-rule.entity';

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

  routingOf(eventId: number): Promise<EventRoutingEntity | null> {
    return this.manager().findOne(EventRoutingEntity, { where: { eventId } });
  }

  /** The routing recorded for the newest `limit` notifying events (the dry run's sample), newest first. */
  recentRoutings(limit: number): Promise<EventRoutingEntity[]> {
    return this.manager().find(EventRoutingEntity, { order: { eventId: 'DESC' }, take: limit });
  }
}
