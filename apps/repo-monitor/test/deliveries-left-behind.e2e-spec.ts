import { waitFor } from '@shared/testing';
import { DataSource } from 'typeorm';
import { WebhookDeliveryRepository } from '../src/app/deliveries/webhook-delivery.repository';
import { RunningMonitor, startMonitor } from './harness';
import { issueEvent } from './github-fixtures';

/**
 * A replica queues the deliveries it stored itself, and at its start every accepted one. What a
 * replica that died had stored but not applied would wait for that replica's restart: every instance
 * looks for accepted deliveries older than two rescan intervals and applies them, exactly once.
 */
describe('accepted deliveries left behind by another instance', () => {
  let monitor: RunningMonitor;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_INBOX_RESCAN_INTERVAL: '1s' } });
  });

  afterAll(async () => {
    await monitor?.close();
  });

  const statusOf = async (id: number) =>
    (await monitor.app.get(WebhookDeliveryRepository).toProcess(monitor.app.get(DataSource).manager, id))?.status;

  it('applies a delivery stored by an instance that is gone, once, and leaves a fresh one to the instance that stored it', async () => {
    const deliveries = monitor.app.get(WebhookDeliveryRepository);
    const repository = { full_name: 'acme/left-behind', id: 4242 };
    const stored = (deliveryId: string, receivedAt: Date) => ({
      deliveryId,
      event: 'issues',
      action: 'opened',
      installationId: null,
      repositoryFullName: repository.full_name,
      payload: JSON.stringify(issueEvent('opened', 1, repository, 7, `left behind ${deliveryId}`)),
      receivedAt,
    });
    // Stored as the inbox of another replica stores a delivery, without this instance hearing of it.
    const ids = await deliveries.insertAccepted([stored('left-behind-old', new Date(Date.now() - 60_000)), stored('left-behind-new', new Date(Date.now() + 3_600_000))]);
    const oldId = ids.get('left-behind-old') as number;
    const newId = ids.get('left-behind-new') as number;
    expect(await statusOf(oldId)).toBe('accepted');

    await waitFor(async () => (await statusOf(oldId)) === 'processed', 20_000);
    // One rescan after that still leaves the delivery received "now" (here: in the future) alone.
    expect(await monitor.app.get(WebhookDeliveryRepository).acceptedBefore(new Date(), 10)).toEqual([]);
    expect(await statusOf(newId)).toBe('accepted');
  });
});
