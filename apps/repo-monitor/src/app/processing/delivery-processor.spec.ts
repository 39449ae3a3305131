import type { EntityManager } from 'typeorm';
import type { MonitorConfig } from '../config/monitor-config';
import type { DatabaseWork } from '../../database/database-work';
import type { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import type { NotificationOutboxService } from '../notifications/notification-outbox.service';
import type { DeliveryApplier, DeliveryToApply, FollowUps } from './delivery-applier';
import type { AcceptedListener, DeliveryInbox } from './delivery-inbox';
import { DeliveryProcessor } from './delivery-processor';

/** A delivery being applied: the test decides when it finishes and what it queued. */
interface Applying {
  deliveryId: string;
  finish: (followUps?: Partial<FollowUps>) => void;
}

function harness(leftBehind: Array<{ id: number; repositoryFullName: string | null }> = []) {
  const applying: Applying[] = [];
  const started: string[] = [];
  let woken = 0;
  let accept: AcceptedListener = () => undefined;
  const manager = {} as EntityManager;
  const database = { isSqlite: false, transaction: <T>(work: (m: EntityManager) => Promise<T>) => work(manager) } as unknown as DatabaseWork;
  const deliveries = {
    accepted: async () => [],
    acceptedBefore: async () => leftBehind,
    toProcess: async (_manager: EntityManager, id: number) => ({ deliveryId: `d${id}`, event: 'issues', installationId: null, payload: '{}', status: 'accepted' }),
    markProcessed: async () => true,
  } as unknown as WebhookDeliveryRepository;
  const inbox = { onAccepted: (listener: AcceptedListener) => (accept = listener) } as unknown as DeliveryInbox;
  const applier = {
    apply: (_manager: EntityManager, delivery: DeliveryToApply) =>
      new Promise<FollowUps>((resolve) => {
        started.push(delivery.deliveryId);
        applying.push({ deliveryId: delivery.deliveryId, finish: (followUps = {}) => resolve({ reconcileInstallations: [], notifications: 0, ...followUps }) });
      }),
  } as unknown as DeliveryApplier;
  const outbox = { notifyCommitted: () => woken++ } as unknown as NotificationOutboxService;
  const config = { inbox: { rescanIntervalMs: 60_000 } } as MonitorConfig;
  const processor = new DeliveryProcessor(database, deliveries, inbox, applier, outbox, config);
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Finishes the delivery being applied with this id. */
  const finish = async (deliveryId: string, followUps?: Partial<FollowUps>) => {
    const index = applying.findIndex((entry) => entry.deliveryId === deliveryId);
    if (index < 0) throw new Error(`${deliveryId} is not being applied (applying: ${applying.map((entry) => entry.deliveryId).join(', ')})`);
    applying.splice(index, 1)[0].finish(followUps);
    await settle();
  };
  return {
    processor,
    started,
    applying: () => applying.map((entry) => entry.deliveryId),
    woken: () => woken,
    settle,
    finish,
    accept: async (id: number, repository: string | null) => {
      accept({ id, event: 'issues', action: 'opened', repositoryFullName: repository });
      await settle();
    },
  };
}

describe('DeliveryProcessor', () => {
  it("takes accepted deliveries left behind by another instance, but not those it is already applying", async () => {
    const h = harness([
      { id: 1, repositoryFullName: 'acme/api' },
      { id: 7, repositoryFullName: 'acme/web' },
    ]);
    await h.processor.onApplicationBootstrap();
    await h.accept(1, 'acme/api');
    expect(h.applying()).toEqual(['d1']);
    expect(await h.processor.rescan(60_000)).toBe(1);
    await h.settle();
    expect(h.applying()).toEqual(['d1', 'd7']);
    await h.finish('d1');
    await h.finish('d7');
    expect(h.started).toEqual(['d1', 'd7']);
    await h.processor.beforeApplicationShutdown();
  });

  it('applies the deliveries of one repository one at a time, in the order received, and other repositories alongside', async () => {
    const h = harness();
    await h.processor.onApplicationBootstrap();
    await h.accept(1, 'acme/api');
    await h.accept(2, 'acme/api');
    await h.accept(3, 'acme/web');
    await h.accept(4, 'acme/api');
    expect(h.applying()).toEqual(['d1', 'd3']);
    await h.finish('d1');
    expect(h.applying()).toEqual(['d3', 'd2']);
    await h.finish('d2');
    await h.finish('d3');
    await h.finish('d4');
    expect(h.started).toEqual(['d1', 'd3', 'd2', 'd4']);
    await h.processor.drained();
  });

  it('takes repositories in turn, so a long backlog of one does not hold up another', async () => {
    const h = harness();
    await h.processor.onApplicationBootstrap();
    // Concurrency 4 (PostgreSQL): fill the slots, then queue a backlog for one repository and one delivery for another.
    for (const [id, repository] of [[1, 'a'], [2, 'b'], [3, 'c'], [4, 'd']] as const) await h.accept(id, repository);
    for (let id = 5; id < 25; id++) await h.accept(id, 'a');
    await h.accept(25, 'e');
    await h.finish('d1');
    await h.finish('d2');
    // 'a' went back to the end of the ready list after its first delivery, behind 'e'.
    expect(h.applying()).toEqual(['d3', 'd4', 'd25', 'd5']);
  });

  it('wakes the outbox after commit only when a delivery queued notifications', async () => {
    const h = harness();
    await h.processor.onApplicationBootstrap();
    await h.accept(1, 'acme/api');
    await h.finish('d1');
    expect(h.woken()).toBe(0);
    await h.accept(2, 'acme/api');
    await h.finish('d2', { notifications: 2 });
    expect(h.woken()).toBe(1);
  });

  it('applies a delivery without a repository on its own, and each id only once while it is queued', async () => {
    const h = harness();
    await h.processor.onApplicationBootstrap();
    await h.accept(1, null);
    await h.accept(1, null);
    await h.accept(2, null);
    expect(h.applying()).toEqual(['d1', 'd2']);
    await h.finish('d1');
    await h.finish('d2');
    expect(h.started).toEqual(['d1', 'd2']);
  });
});
