import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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

  /** Moves the watermark up to `messageId` (never down). */
  async advance(accountName: string, chatId: string, messageId: number): Promise<void> {
    const current = await this.get(accountName, chatId);
    if (current !== undefined && current >= messageId) return;
    this.cache.set(this.key(accountName, chatId), messageId);
    await this.watermarks.upsert({ accountName, chatId, lastMessageId: messageId, updatedAt: new Date() }, ['accountName', 'chatId']);
  }

  /** Forgets the cached values (after a restart of the listeners the database is read again). */
  clearCache(): void {
    this.cache.clear();
  }
}
