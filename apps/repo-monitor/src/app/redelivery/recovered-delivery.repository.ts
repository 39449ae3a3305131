import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { FoundRows, PageWindow } from '../common/list-page';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import { RecoveredDeliveryEntity, RecoveredDeliveryStatus } from './recovered-delivery.entity';

/** What the sweep learned about one failed guid. */
export interface FailedDelivery {
  guid: string;
  event: string;
  action: string | null;
  githubDeliveryId: string;
  firstAttemptAt: Date;
}

const OPEN: RecoveredDeliveryStatus[] = ['missing', 'requested'];
const GUID_BATCH = 500;

/** The recovered_deliveries table, and which guids the inbox already holds. */
@Injectable()
export class RecoveredDeliveryRepository {
  constructor(private readonly database: DatabaseWork) {}

  private get store() {
    return this.database.dataSource.getRepository(RecoveredDeliveryEntity);
  }

  /** Newest failure first; `status` narrows the list. */
  async list(window: PageWindow, status?: RecoveredDeliveryStatus): Promise<FoundRows<RecoveredDeliveryEntity>> {
    const [rows, total] = await this.store.findAndCount({
      where: status ? { status } : {},
      order: { firstAttemptAt: 'DESC', id: 'DESC' },
      skip: window.skip,
      take: window.perPage,
    });
    return { rows, total };
  }

  /** The rows of these guids, by guid. */
  async byGuid(guids: readonly string[]): Promise<Map<string, RecoveredDeliveryEntity>> {
    const found = new Map<string, RecoveredDeliveryEntity>();
    for (let start = 0; start < guids.length; start += GUID_BATCH) {
      for (const row of await this.store.find({ where: { guid: In(guids.slice(start, start + GUID_BATCH)) } })) found.set(row.guid, row);
    }
    return found;
  }

  /** Rows still waiting for their delivery (missing or requested). */
  open(): Promise<RecoveredDeliveryEntity[]> {
    return this.store.find({ where: { status: In(OPEN) } });
  }

  /** Which of these guids the inbox has accepted (X-GitHub-Delivery is the inbox's unique key). */
  async inInbox(guids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    const deliveries = this.database.dataSource.getRepository(WebhookDeliveryEntity);
    for (let start = 0; start < guids.length; start += GUID_BATCH) {
      const rows = await deliveries.find({ select: { deliveryId: true }, where: { deliveryId: In(guids.slice(start, start + GUID_BATCH)) } });
      for (const row of rows) found.add(row.deliveryId);
    }
    return found;
  }

  /** Records a failed guid as missing (or refreshes the latest attempt id of a known one). */
  async noteFailed(failed: FailedDelivery, existing: RecoveredDeliveryEntity | undefined, now: Date): Promise<RecoveredDeliveryEntity> {
    const row =
      existing ??
      this.store.create({
        guid: failed.guid,
        event: failed.event.slice(0, 64),
        action: failed.action?.slice(0, 64) ?? null,
        firstAttemptAt: failed.firstAttemptAt,
        status: 'missing',
        requests: 0,
        lastRequestedAt: null,
        resolvedAt: null,
        reason: null,
        createdAt: now,
      });
    Object.assign(row, { githubDeliveryId: failed.githubDeliveryId, updatedAt: now });
    return this.store.save(row);
  }

  async markRequested(row: RecoveredDeliveryEntity, now: Date): Promise<void> {
    await this.store.update({ id: row.id }, { status: 'requested', requests: row.requests + 1, lastRequestedAt: now, reason: null, updatedAt: now });
  }

  /** Records why a request for a redelivery failed, leaving the row open for the next sweep. */
  async noteRequestFailed(row: RecoveredDeliveryEntity, reason: string, now: Date): Promise<void> {
    await this.store.update({ id: row.id }, { reason: reason.slice(0, 200), updatedAt: now });
  }

  /** Closes open rows: recovered (the inbox has them) or given up with a reason. Answers how many changed. */
  async resolve(ids: readonly number[], status: 'recovered' | 'given_up', now: Date, reason: string | null = null): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.store.update({ id: In([...ids]), status: In(OPEN) }, { status, resolvedAt: now, reason, updatedAt: now });
    return result.affected ?? 0;
  }
}
