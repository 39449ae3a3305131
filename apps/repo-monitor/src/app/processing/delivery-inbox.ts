import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DatabaseWork } from '../../database/database-work';
import { NewWebhookDelivery, WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';

export type IncomingDelivery = NewWebhookDelivery;

export interface StoredDelivery {
  status: 'accepted' | 'duplicate';
  /** Row id when accepted. */
  id?: number;
}

/** Told of every newly stored delivery (after it is durable), with what routing needs without a read. */
export type AcceptedListener = (delivery: { id: number; event: string; action: string | null; repositoryFullName: string | null }) => void;

interface Waiting {
  delivery: IncomingDelivery;
  resolve: (stored: StoredDelivery) => void;
  reject: (error: unknown) => void;
}

const BATCH_LIMIT = 200;

/**
 * Stores inbound deliveries durably before they are answered. Deliveries that arrive while a write
 * is in flight are written together in one INSERT (group commit), so under load the cost of a
 * commit is shared instead of paid per request.
 */
@Injectable()
export class DeliveryInbox implements OnApplicationShutdown {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;
  private readonly listeners: AcceptedListener[] = [];
  /** performance.now() of the last delivery handed to store(). */
  private lastArrival = -Infinity;

  constructor(
    private readonly database: DatabaseWork,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  onAccepted(listener: AcceptedListener): void {
    this.listeners.push(listener);
  }

  store(delivery: IncomingDelivery): Promise<StoredDelivery> {
    this.lastArrival = performance.now();
    return new Promise((resolve, reject) => {
      this.waiting.push({ delivery, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /**
   * Resolves once deliveries have stopped arriving for `quietMs` (nothing waiting, nothing being
   * written, no new one in that time), or after `maxWaitMs` at the latest. Background work on
   * SQLite's one connection waits for this, so during a burst the connection answers GitHub first
   * and the work still advances at least once per `maxWaitMs`. While a write is in flight it waits
   * for that write, not for a timer, so a burst wakes it once per batch.
   */
  whenQuiet(quietMs: number, maxWaitMs: number): Promise<void> {
    if (this.isQuiet(quietMs)) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      let gap: NodeJS.Timeout | undefined;
      const settle = (): void => {
        if (settled) return;
        settled = true;
        clearTimeout(bound);
        clearTimeout(gap);
        resolve();
      };
      const bound = setTimeout(settle, maxWaitMs);
      const check = (): void => {
        if (settled) return;
        if (this.isQuiet(quietMs)) return settle();
        if (this.writing) {
          void this.writing.then(check);
          return;
        }
        gap = setTimeout(check, Math.max(1, this.lastArrival + quietMs - performance.now()));
      };
      check();
    });
  }

  private isQuiet(quietMs: number): boolean {
    return !this.writing && this.waiting.length === 0 && performance.now() - this.lastArrival >= quietMs;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.writing;
  }

  private async drain(): Promise<void> {
    // Let the requests of the same tick join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, BATCH_LIMIT);
        try {
          const accepted = await this.insert(batch.map((entry) => entry.delivery));
          for (const entry of batch) {
            const id = accepted.get(entry.delivery.deliveryId);
            if (id !== undefined) {
              accepted.delete(entry.delivery.deliveryId);
              entry.resolve({ status: 'accepted', id });
              for (const listener of this.listeners) {
                listener({ id, event: entry.delivery.event, action: entry.delivery.action, repositoryFullName: entry.delivery.repositoryFullName });
              }
            } else {
              entry.resolve({ status: 'duplicate' });
            }
          }
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** Inserts the batch; answers the row id of each delivery id that was new. */
  private async insert(deliveries: IncomingDelivery[]): Promise<Map<string, number>> {
    const unique = new Map<string, IncomingDelivery>();
    for (const delivery of deliveries) if (!unique.has(delivery.deliveryId)) unique.set(delivery.deliveryId, delivery);
    // One statement is atomic on its own: no BEGIN/COMMIT round trips, and on SQLite it waits only
    // for the transaction that holds the connection (DatabaseWork admits one at a time). A 202
    // promises the delivery is kept, so this commit is fsynced (FULL) even where others are not;
    // the batch shares the one fsync.
    return this.database.durably(() => this.deliveries.insertAccepted([...unique.values()]));
  }
}
