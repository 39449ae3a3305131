import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { ListenerWatermark } from './entities/listener-watermark.entity';

/**
 * The last handled message id per account and chat, in the database. Reads are cached; every
 * advance is written at once (only messages of monitored chats advance it).
 */
@Injectable()
export class WatermarkStore {
  private readonly cache = new Map<string, number>();

  constructor(@InjectRepository(ListenerWatermark) private readonly watermarks: Repository<ListenerWatermark>) {}

  private key(accountName: string, chatId: string): string {
    return `${accountName}\u0000${chatId}`;
  }

  /** The watermark, or undefined when this chat was never listened to by this account. */
  async get(accountName: string, chatId: string): Promise<number | undefined> {
    const key = this.key(accountName, chatId);
    if (this.cache.has(key)) return this.cache.get(key);
    const row = await this.watermarks.findOneBy({ accountName, chatId });
    if (row) this.cache.set(key, row.lastMessageId);
    return row?.lastMessageId;
  }

  /**
   * Moves the watermark up to `messageId` (never down). `fence` runs first in the same transaction
   * (replicas: the account's lease), so a replica that lost the account cannot move the watermark
   * past messages whose hits the new owner has still to record. The cached value moves only once
   * the write is stored.
   */
  async advance(accountName: string, chatId: string, messageId: number, fence?: (manager: EntityManager) => Promise<void>): Promise<void> {
    const current = await this.get(accountName, chatId);
    if (current !== undefined && current >= messageId) return;
    const row = { accountName, chatId, lastMessageId: messageId, updatedAt: new Date() };
    if (fence) {
      await this.watermarks.manager.transaction(async (manager) => {
        await fence(manager);
        await manager.getRepository(ListenerWatermark).upsert(row, ['accountName', 'chatId']);
      });
    } else {
      await this.watermarks.upsert(row, ['accountName', 'chatId']);
    }
    const key = this.key(accountName, chatId);
    const cached = this.cache.get(key);
    if (cached === undefined || cached < messageId) this.cache.set(key, messageId);
  }

  /** Forgets the cached values (after a restart of the listeners the database is read again). */
  clearCache(): void {
    this.cache.clear();
  }
}
