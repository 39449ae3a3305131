import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DeliveryInbox } from './delivery-inbox';
import { DatabaseWork } from '../../database/database-work';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { DeliveryApplier, FollowUps } from './delivery-applier';

const MAX_ATTEMPTS = 5;
/**
 * On SQLite (one connection), a delivery's processing starts once no delivery has arrived for
 * INGEST_QUIET_MS, or after INGEST_YIELD_MS at the latest: during a burst GitHub's requests get
 * the connection first (a processing transaction holds it for several statements), and processing
 * still advances; the backlog is stored durably and drains when the burst ends.
 */
const INGEST_QUIET_MS = 5;
const INGEST_YIELD_MS = 200;
/** Deliveries taken per rescan; the next rescan takes the rest. */
const RESCAN_BATCH = 500;

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
  /** Waiting deliveries per key, in the order received. */
  private readonly waiting = new Map<string, QueuedDelivery[]>();
  /** Keys with waiting deliveries and none running, in the order they became ready (fair across repositories). */
  private readonly ready: string[] = [];
  private queued = 0;
  private readonly known = new Set<number>();
  private readonly busyKeys = new Set<string>();
  private readonly installationListeners: Array<(installationId: number) => void> = [];
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  /** Deliveries waiting for their retry timer: a rescan must not start them before it fires. */
  private readonly retrying = new Set<number>();
  private rescanTimer?: NodeJS.Timeout;
  private running = 0;
  private stopping = false;
  private idle: Array<() => void> = [];
  readonly concurrency: number;

  constructor(
    private readonly database: DatabaseWork,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly inbox: DeliveryInbox,
    private readonly applier: DeliveryApplier,
    private readonly outbox: NotificationOutboxService,
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
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
    const pending = await this.deliveries.accepted();
    if (pending.length > 0) this.logger.log(`resuming ${pending.length} accepted deliveries`);
    for (const delivery of pending) this.enqueue(delivery.id, delivery.repositoryFullName);
    // A replica queues what it stored itself. What a replica that died had stored (and not yet
    // applied) would wait for its restart: every instance looks for such deliveries now and then.
    // Taking one another instance is applying is harmless: only one transaction marks it processed,
    // the other rolls back everything it wrote.
    const interval = this.config.inbox.rescanIntervalMs;
    this.rescanTimer = setInterval(() => void this.rescan(2 * interval), interval);
    this.rescanTimer.unref();
  }

  /** Queues accepted deliveries that have waited longer than `ageMs` and are not queued here. */
  async rescan(ageMs: number): Promise<number> {
    if (this.stopping) return 0;
    try {
      const left = await this.deliveries.acceptedBefore(new Date(Date.now() - ageMs), RESCAN_BATCH);
      const taken = left.filter((delivery) => !this.known.has(delivery.id) && !this.retrying.has(delivery.id));
      if (taken.length > 0) this.logger.log(`taking ${taken.length} accepted deliveries no instance is processing`);
      for (const delivery of taken) this.enqueue(delivery.id, delivery.repositoryFullName);
      return taken.length;
    } catch (error) {
      this.logger.warn(`looking for deliveries left behind failed: ${(error as Error).message}`);
      return 0;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.rescanTimer);
    for (const timer of this.retryTimers) clearTimeout(timer);
    if (this.running > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  /** Resolves once nothing is queued or running (the e2e test of GitHub's example deliveries waits on it). */
  async drained(): Promise<void> {
    while (this.queued > 0 || this.running > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  private enqueue(id: number, repositoryFullName: string | null): void {
    if (this.known.has(id) || this.stopping) return;
    this.known.add(id);
    const key = repositoryFullName ?? `delivery:${id}`;
    const list = this.waiting.get(key);
    if (list) list.push({ id, key });
    else {
      this.waiting.set(key, [{ id, key }]);
      if (!this.busyKeys.has(key)) this.ready.push(key);
    }
    this.queued++;
    this.pump();
  }

  /** Starts deliveries of ready keys up to the concurrency; O(1) per delivery however long the backlog. */
  private pump(): void {
    while (!this.stopping && this.running < this.concurrency && this.ready.length > 0) {
      const key = this.ready.shift() as string;
      const list = this.waiting.get(key) as QueuedDelivery[];
      const item = list.shift() as QueuedDelivery;
      if (list.length === 0) this.waiting.delete(key);
      this.queued--;
      this.running++;
      this.busyKeys.add(key);
      void this.process(item).finally(() => {
        this.running--;
        this.busyKeys.delete(key);
        if (this.waiting.has(key)) this.ready.push(key);
        if (this.running === 0 && this.stopping) for (const resolve of this.idle.splice(0)) resolve();
        this.pump();
      });
    }
  }

  private async process(item: QueuedDelivery): Promise<void> {
    let followUps: FollowUps | null;
    // On SQLite's one connection, storing inbound deliveries (their 202 waits for it) goes first.
    if (this.database.isSqlite) await this.inbox.whenQuiet(INGEST_QUIET_MS, INGEST_YIELD_MS);
    try {
      followUps = await this.database.transaction(async (manager) => {
        const delivery = await this.deliveries.toProcess(manager, item.id);
        if (!delivery || delivery.status !== 'accepted') return null;
        const now = new Date();
        const result = await this.applier.apply(manager, delivery, now);
        // Another instance got there first: roll back everything this attempt wrote.
        if (!(await this.deliveries.markProcessed(manager, item.id, now))) throw new AlreadyProcessed();
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
    if (followUps.notifications > 0) this.outbox.notifyCommitted();
    for (const installationId of followUps.reconcileInstallations) {
      for (const listener of this.installationListeners) listener(installationId);
    }
  }

  private async recordFailure(item: QueuedDelivery, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    this.logger.warn(`delivery ${item.id} failed: ${message}`);
    try {
      const row = await this.database.transaction((manager) => this.deliveries.recordFailure(manager, item.id, message, MAX_ATTEMPTS));
      const attempts = row?.status === 'accepted' ? row.attempts : undefined;
      if (attempts === undefined || this.stopping) return;
      this.retrying.add(item.id);
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer);
        this.retrying.delete(item.id);
        this.enqueue(item.id, item.key.startsWith('delivery:') ? null : item.key);
      }, 500 * 2 ** attempts);
      this.retryTimers.add(timer);
    } catch (failure) {
      this.logger.error(`could not record the failure of delivery ${item.id}: ${(failure as Error).message}`);
    }
  }
}
