import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { EventRepository } from '../events/event.repository';
import { OutboxRepository } from '../outbox/outbox.repository';
import { SystemSettingsService } from '../system-settings/system-settings.service';

/** Rows one DELETE removes at most, so a large backlog never holds the database (or SQLite's one connection) for long. */
export const RETENTION_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionReport {
  events: number;
  outbox: number;
  deliveries: number;
  cutoffs: { events: string; outbox: string; deliveries: string };
}

/**
 * Applies the retention settings (system settings `retention`): deletes events, finished outbox
 * entries and finished webhook deliveries older than their number of days. Never touches work
 * still to do: outbox entries that are pending or sending (nor the members or the event such an
 * entry still reads), and deliveries accepted but not yet processed.
 */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger(RetentionService.name);

  constructor(
    private readonly database: DatabaseWork,
    private readonly settings: SystemSettingsService,
    private readonly deliveryRecords: WebhookDeliveryRepository,
    private readonly outboxRecords: OutboxRepository,
    private readonly eventRecords: EventRepository,
  ) {}

  async run(now = new Date()): Promise<RetentionReport> {
    const { retention } = await this.settings.current();
    const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const eventsBefore = cutoff(retention.events_days);
    const outboxBefore = cutoff(retention.outbox_days);
    const deliveriesBefore = cutoff(retention.deliveries_days);

    // Finished outbox entries first, so the events they pointed at are free to go in the same run.
    const outbox = await this.deleteInBatches((manager) => this.outboxRecords.deleteSettledBefore(manager, outboxBefore, RETENTION_BATCH));
    const events = await this.deleteInBatches((manager) => this.eventRecords.deleteUnreferencedBefore(manager, eventsBefore, RETENTION_BATCH));
    const deliveries = await this.deleteInBatches((manager) => this.deliveryRecords.deleteFinishedBefore(manager, deliveriesBefore, RETENTION_BATCH));
    const report: RetentionReport = {
      events,
      outbox,
      deliveries,
      cutoffs: { events: eventsBefore.toISOString(), outbox: outboxBefore.toISOString(), deliveries: deliveriesBefore.toISOString() },
    };
    this.logger.log(
      `retention removed ${events} events (older than ${retention.events_days} days), ${outbox} finished outbox entries ` +
        `(${retention.outbox_days} days) and ${deliveries} finished webhook deliveries (${retention.deliveries_days} days)`,
    );
    return report;
  }

  /** Repeats one batched DELETE, each in its own short transaction, until a batch comes back short. */
  private async deleteInBatches(deleteBatch: (manager: EntityManager) => Promise<number>): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.database.transaction(deleteBatch);
      total += removed;
      if (removed < RETENTION_BATCH) return total;
    }
  }
}
