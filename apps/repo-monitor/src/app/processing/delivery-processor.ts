import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DeliveryInbox } from '../webhooks/delivery-inbox';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity';
import { DatabaseWork } from './database-work';
import { DeliveryApplier, FollowUps } from './delivery-applier';

const MAX_ATTEMPTS = 5;
/** How long a delivery's processing waits at most for inbound writes to pause (SQLite). */
const INGEST_YIELD_MS = 25;

class AlreadyProcessed extends Error {}

interface QueuedDelivery {
  id: number;
  /** Deliveries of one repository are applied one after another, in the order received. */
  key: string;
}

/**
 * Applies stored deliveries in the background with bounded concurrency. Each delivery is applied
 * in one transaction that also flips it from `accepted` to `processed`, so a crash at any point
 * leaves it either untouched (and picked up again at the next start) or fully applied: never both.
 */
@Injectable()
export class DeliveryProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryProcessor.name);
  private readonly queue: QueuedDelivery[] = [];
  private readonly known = new Set<number>();
  private readonly busyKeys = new Set<string>();
  private readonly installationListeners: Array<(installationId: number) => void> = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private running = 0;
  private stopping = false;
  private idle: Array<() => void> = [];
  readonly concurrency: number;

  constructor(
    private readonly database: DatabaseWork,
    private readonly inbox: DeliveryInbox,
    private readonly applier: DeliveryApplier,
    private readonly outbox: NotificationOutboxService,
  ) {
    // SQLite writes one transaction at a time anyway; a second slot only overlaps reads with it.
    this.concurrency = database.isSqlite ? 2 : 4;
  }

  /** Called with an installation id whose repositories should be reconciled (after commit). */
  onInstallationChanged(listener: (installationId: number) => void): void {
    this.installationListeners.push(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.inbox.onAccepted((delivery) => this.enqueue(delivery.id, delivery.repositoryFullName));
    const pending = await this.database.dataSource
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('delivery')
      .select(['delivery.id', 'delivery.repositoryFullName'])
      .where("delivery.status = 'accepted'")
      .orderBy('delivery.id', 'ASC')
      .getMany();
    if (pending.length > 0) this.logger.log(`resuming ${pending.length} accepted deliveries`);
    for (const delivery of pending) this.enqueue(delivery.id, delivery.repositoryFullName);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Resolves once nothing is queued or running (tests and benchmarks use it). */
  async drained(): Promise<void> {
    while (this.queue.length > 0 || this.running > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private enqueue(id: number, repositoryFullName: string | null): void {
    if (this.known.has(id) || this.stopping) return;
    this.known.add(id);
    this.queue.push({ id, key: repositoryFullName ?? `delivery:${id}` });
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.running < this.concurrency) {
      const index = this.queue.findIndex((item) => !this.busyKeys.has(item.key));
      if (index < 0) return;
      const [item] = this.queue.splice(index, 1);
      this.running++;
      this.busyKeys.add(item.key);
      void this.process(item).finally(() => {
        this.running--;
        this.busyKeys.delete(item.key);
        if (this.running === 0 && this.stopping) for (const resolve of this.idle.splice(0)) resolve();
        this.pump();
      });
    }
  }

  private async process(item: QueuedDelivery): Promise<void> {
    let followUps: FollowUps | null;
    // On SQLite's one connection, storing inbound deliveries (their 202 waits for it) goes first.
    if (this.database.isSqlite) await this.inbox.whenIdle(INGEST_YIELD_MS);
    try {
      followUps = await this.database.transaction(async (manager) => {
        const delivery = await manager.findOne(WebhookDeliveryEntity, { where: { id: item.id } });
        if (!delivery || delivery.status !== 'accepted') return null;
        const now = new Date();
        const result = await this.applier.apply(manager, delivery, now);
        const p = (n: number) => this.database.placeholder(n);
        const changed = await this.database.affected(
          manager,
          `UPDATE "webhook_deliveries" SET "status" = 'processed', "processed_at" = ${p(1)}, "attempts" = "attempts" + 1, "last_error" = NULL
           WHERE "id" = ${p(2)} AND "status" = 'accepted'`,
          [this.database.time(now), item.id],
        );
        // Another instance got there first: roll back everything this attempt wrote.
        if (changed !== 1) throw new AlreadyProcessed();
        return result;
      });
    } catch (error) {
      this.known.delete(item.id);
      if (error instanceof AlreadyProcessed) return;
      await this.recordFailure(item, error);
      return;
    }
    this.known.delete(item.id);
    if (!followUps) return;
    this.outbox.notifyCommitted();
    for (const installationId of followUps.reconcileInstallations) {
      for (const listener of this.installationListeners) listener(installationId);
    }
  }

  private async recordFailure(item: QueuedDelivery, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    this.logger.warn(`delivery ${item.id} failed: ${message}`);
    try {
      const attempts = await this.database.transaction(async (manager) => {
        const delivery = await manager.findOne(WebhookDeliveryEntity, { where: { id: item.id } });
        if (!delivery || delivery.status !== 'accepted') return undefined;
        delivery.attempts += 1;
        delivery.lastError = message;
        if (delivery.attempts >= MAX_ATTEMPTS) delivery.status = 'failed';
        await manager.save(delivery);
        return delivery.status === 'accepted' ? delivery.attempts : undefined;
      });
      if (attempts === undefined || this.stopping) return;
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.enqueue(item.id, item.key.startsWith('delivery:') ? null : item.key);
      }, 500 * 2 ** attempts);
      this.retryTimers.add(timer);
    } catch (failure) {
      this.logger.error(`could not record the failure of delivery ${item.id}: ${(failure as Error).message}`);
    }
  }
}
