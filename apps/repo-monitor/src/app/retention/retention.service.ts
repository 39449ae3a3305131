import { Injectable, Logger } from '@nestjs/common';
import { DatabaseWork } from '../processing/database-work';
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
  ) {}

  async run(now = new Date()): Promise<RetentionReport> {
    const { retention } = await this.settings.current();
    const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const eventsBefore = cutoff(retention.events_days);
    const outboxBefore = cutoff(retention.outbox_days);
    const deliveriesBefore = cutoff(retention.deliveries_days);
    const p = (n: number) => this.database.placeholder(n);

    // Finished outbox entries first, so the events they pointed at are free to go in the same run.
    const outbox = await this.deleteInBatches(
      `DELETE FROM "notification_outbox" WHERE "id" IN (
         SELECT "entry"."id" FROM "notification_outbox" "entry"
         WHERE "entry"."state" IN ('sent', 'dead', 'suppressed') AND "entry"."updated_at" < ${p(1)}
           AND NOT EXISTS (
             SELECT 1 FROM "notification_outbox" "parent"
             WHERE "parent"."id" = "entry"."aggregated_into" AND "parent"."state" IN ('pending', 'sending')
           )
         ORDER BY "entry"."id" LIMIT ${RETENTION_BATCH}
       )`,
      [this.database.time(outboxBefore)],
    );
    const events = await this.deleteInBatches(
      `DELETE FROM "events" WHERE "id" IN (
         SELECT "event"."id" FROM "events" "event"
         WHERE "event"."created_at" < ${p(1)}
           AND NOT EXISTS (
             SELECT 1 FROM "notification_outbox" "entry"
             WHERE "entry"."event_id" = "event"."id" AND "entry"."state" IN ('pending', 'sending')
           )
         ORDER BY "event"."id" LIMIT ${RETENTION_BATCH}
       )`,
      [this.database.time(eventsBefore)],
    );
    const deliveries = await this.deleteInBatches(
      `DELETE FROM "webhook_deliveries" WHERE "id" IN (
         SELECT "id" FROM "webhook_deliveries"
         WHERE "status" IN ('processed', 'duplicate', 'failed') AND "received_at" < ${p(1)}
         ORDER BY "id" LIMIT ${RETENTION_BATCH}
       )`,
      [this.database.time(deliveriesBefore)],
    );
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
  private async deleteInBatches(sql: string, parameters: unknown[]): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.database.transaction((manager) => this.database.affected(manager, sql, parameters));
      total += removed;
      if (removed < RETENTION_BATCH) return total;
    }
  }
}
