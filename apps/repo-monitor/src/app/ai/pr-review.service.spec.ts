import { serializeSqliteAccess } from '@shared/database';
import { tempDir } from '@shared/testing';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { EffectiveAiSettings } from '../ai-settings/ai-settings.service';
import { loadMonitorConfig } from '../config/monitor-config';
import { EventRecorder } from '../events/event-recorder';
import { NotificationOutboxService } from '../notifications/notification-outbox.service';
import { DatabaseWork } from '../../database/database-work';
import { SettingsStore } from '../settings/settings.store';
import { DeliveryInbox } from '../processing/delivery-inbox';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { RepositoryRepository } from '../repositories/repository.repository';
import { AiClient } from './ai-client';
import { AiGitHubSource } from './ai-github-source';
import { PrReviewRepository } from './pr-review.repository';
import { PrReviewService } from './pr-review.service';

/** A collaborator the tested path must not reach: any use fails the test. */
function untouched<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      throw new Error(`${name}.${String(property)} was used`);
    },
  });
}

describe('PrReviewService on the ingest path', () => {
  const dir = tempDir('monitor-pr-review-');
  const config = loadMonitorConfig({ env: { MONITOR_DATABASE_URL: `file:${join(dir.path, 'unused.db')}` } });
  let dataSource: DataSource;
  let inbox: DeliveryInbox;
  let settingsReads = 0;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ driver: 'sqlite', path: join(dir.path, 'reviews.db') }));
    await dataSource.initialize();
    serializeSqliteAccess(dataSource);
    const database = new DatabaseWork(dataSource);
    const deliveries = new WebhookDeliveryRepository(database);
    inbox = new DeliveryInbox(database, deliveries);
    const settings: EffectiveAiSettings = { ...config.ai, enabled: false };
    const ai = new AiClient({
      current: async () => {
        settingsReads++;
        return settings;
      },
    });
    const reviews = new PrReviewService(
      database,
      inbox,
      ai,
      untouched<AiGitHubSource>('github'),
      untouched<EventRecorder>('events'),
      untouched<NotificationOutboxService>('outbox'),
      untouched<SettingsStore>('store'),
      new PrReviewRepository(database),
      untouched<RepositoryRepository>('repositories'),
      deliveries,
      config,
    );
    await reviews.onApplicationBootstrap();
  });
  afterAll(async () => {
    await dataSource.destroy();
    dir.remove();
  });

  const deliver = (deliveryId: string, event: string, action: string | null) =>
    inbox.store({ deliveryId, event, action, installationId: 1, repositoryFullName: 'acme/api', payload: JSON.stringify({ action }), receivedAt: new Date() });

  it('reads AI settings for a reviewable pull request only, not for deliveries that cannot start a review', async () => {
    await Promise.all([
      deliver('issue-1', 'issues', 'opened'),
      deliver('push-1', 'push', null),
      deliver('run-1', 'workflow_run', 'completed'),
      deliver('pr-closed-1', 'pull_request', 'closed'),
      deliver('pr-labeled-1', 'pull_request', 'labeled'),
    ]);
    // The accepted-delivery hook runs as each delivery is accepted, and a review starts by reading
    // the settings: a reviewable pull request accepted after the others is the known state to wait
    // for, since a read any of them had started would come before its own.
    await deliver('pr-opened-1', 'pull_request', 'opened');
    for (let waited = 0; settingsReads === 0 && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settingsReads).toBe(1);
  });
});
