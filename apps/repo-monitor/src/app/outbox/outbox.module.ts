import { Module } from '@nestjs/common';
import { OutboxRepository } from './outbox.repository';

/**
 * The notification outbox's records: the notification worker claims and settles them, the console
 * and its dashboard list them, the metrics count them and retention removes the settled ones.
 */
@Module({ providers: [OutboxRepository], exports: [OutboxRepository] })
export class OutboxModule {}
