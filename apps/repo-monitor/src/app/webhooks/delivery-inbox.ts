import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { DatabaseWork } from '../processing/database-work';

export interface IncomingDelivery {
  deliveryId: string;
  event: string;
  action: string | null;
  installationId: number | null;
  repositoryFullName: string | null;
  payload: string;
  receivedAt: Date;
}

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
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly database: DatabaseWork) {}

  onAccepted(listener: AcceptedListener): void {
    this.listeners.push(listener);
  }

  store(delivery: IncomingDelivery): Promise<StoredDelivery> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ delivery, resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /**
   * Resolves once no delivery is waiting to be stored, or after `maxWaitMs` at the latest, so
   * background work on SQLite's one connection steps aside for inbound deliveries without stalling.
   */
  whenIdle(maxWaitMs: number): Promise<void> {
    if (!this.writing) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxWaitMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiters.push(done);
    });
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
      for (const waiter of this.idleWaiters.splice(0)) waiter();
    }
  }

  /** Inserts the batch; answers the row id of each delivery id that was new. */
  private async insert(deliveries: IncomingDelivery[]): Promise<Map<string, number>> {
    const unique = new Map<string, IncomingDelivery>();
    for (const delivery of deliveries) if (!unique.has(delivery.deliveryId)) unique.set(delivery.deliveryId, delivery);
    const values: string[] = [];
    const parameters: unknown[] = [];
    for (const delivery of unique.values()) {
      const base = parameters.length;
      const row = [
        delivery.deliveryId,
        delivery.event,
        delivery.action,
        delivery.installationId,
        delivery.repositoryFullName,
        delivery.payload,
        'accepted',
        0,
        this.database.time(delivery.receivedAt),
      ];
      parameters.push(...row);
      values.push(`(${row.map((_, index) => this.database.placeholder(base + index + 1)).join(', ')})`);
    }
    // One statement is atomic on its own: no BEGIN/COMMIT round trips, and on SQLite it waits only
    // for the transaction that holds the connection (DatabaseWork admits one at a time). A 202
    // promises the delivery is kept, so this commit is fsynced (FULL) even where others are not;
    // the batch shares the one fsync.
    const rows = await this.database.durably(() =>
      this.database.returning<{ id: number; delivery_id: string }>(
        this.database.dataSource.manager,
      `INSERT INTO "webhook_deliveries" ("delivery_id", "event", "action", "installation_id", "repository_full_name", "payload", "status", "attempts", "received_at")
       VALUES ${values.join(', ')}
       ON CONFLICT ("delivery_id") DO NOTHING
       RETURNING "id", "delivery_id"`,
        parameters,
      ),
    );
    return new Map(rows.map((row) => [row.delivery_id, Number(row.id)]));
  }
}
