import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { ChannelKind, NotificationChannelEntity } from './notification-channel.entity';

/** What an edit may change of a channel (never its id, kind or creation time). */
export type NotificationChannelChanges = Partial<Omit<NotificationChannelEntity, 'id' | 'kind' | 'createdAt'>>;

/**
 * The notification channels: the console's list and edits (NotificationChannelsService runs each
 * write in a transaction with its audit entry, passing that transaction's manager), the enabled
 * channels the notifier delivers through, and the dashboard's counts. A statement runs on its own
 * when no manager is given.
 */
@Injectable()
export class NotificationChannelRepository {
  constructor(private readonly database: DatabaseWork) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.database.dataSource.manager;
  }

  /** Oldest first (by creation, then id). */
  async find(window: PageWindow): Promise<FoundRows<NotificationChannelEntity>> {
    const [rows, total] = await this.manager().findAndCount(NotificationChannelEntity, { order: { createdAt: 'ASC', id: 'ASC' }, skip: window.skip, take: window.perPage });
    return { rows, total };
  }

  findById(id: string): Promise<NotificationChannelEntity | null> {
    return this.manager().findOne(NotificationChannelEntity, { where: { id } });
  }

  /** The enabled channels, oldest first: what a notification is delivered through. */
  enabled(): Promise<NotificationChannelEntity[]> {
    return this.manager().find(NotificationChannelEntity, { where: { enabled: true }, order: { createdAt: 'ASC' } });
  }

  /** How many channels are enabled; with `testedOk`, only those whose last test succeeded. */
  countEnabled(options: { testedOk?: boolean } = {}): Promise<number> {
    return this.manager().count(NotificationChannelEntity, { where: { enabled: true, ...(options.testedOk ? { lastTestOk: true } : {}) } });
  }

  /** How many channels of `kind` exist (seeding from the environment creates one only when there is none). */
  countOfKind(kind: ChannelKind, manager?: EntityManager): Promise<number> {
    return this.manager(manager).count(NotificationChannelEntity, { where: { kind } });
  }

  /** Whether a channel is named exactly `name` (names are unique). */
  async nameTaken(name: string, manager?: EntityManager): Promise<boolean> {
    return (await this.manager(manager).count(NotificationChannelEntity, { where: { name } })) > 0;
  }

  /** Stores a new channel; a taken name fails with the driver's unique violation (the caller answers conflict). */
  async insert(channel: NotificationChannelEntity, manager?: EntityManager): Promise<void> {
    await this.manager(manager).insert(NotificationChannelEntity, channel);
  }

  /** Changes only the given columns of the channel, so a concurrent edit of other columns is kept. */
  async update(id: string, changes: NotificationChannelChanges, manager?: EntityManager): Promise<void> {
    await this.manager(manager).update(NotificationChannelEntity, { id }, changes);
  }

  async delete(id: string, manager?: EntityManager): Promise<void> {
    await this.manager(manager).delete(NotificationChannelEntity, { id });
  }
}
