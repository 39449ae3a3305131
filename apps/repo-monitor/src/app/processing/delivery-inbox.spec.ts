import { serializeSqliteAccess } from '@shared/database';
import { tempDir } from '@shared/testing';
import { join } from 'node:path';
import { AbstractLogger, DataSource, LogLevel, LogMessage } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source-options';
import { DatabaseWork } from '../../database/database-work';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { DeliveryInbox, IncomingDelivery } from './delivery-inbox';

class StatementLog extends AbstractLogger {
  readonly statements: string[] = [];
  protected writeLog(_level: LogLevel, message: LogMessage | LogMessage[]): void {
    for (const entry of Array.isArray(message) ? message : [message]) if (entry.type === 'query') this.statements.push(String(entry.message).trim());
  }
}

const delivery = (deliveryId: string): IncomingDelivery => ({
  deliveryId,
  event: 'issues',
  action: 'opened',
  installationId: 1,
  repositoryFullName: 'acme/api',
  payload: JSON.stringify({ action: 'opened', id: deliveryId }),
  receivedAt: new Date(),
});

describe('DeliveryInbox on SQLite', () => {
  const dir = tempDir('monitor-inbox-');
  const log = new StatementLog(['query']);
  let dataSource: DataSource;
  let inbox: DeliveryInbox;
  const accepted: Array<{ id: number; event: string }> = [];

  beforeAll(async () => {
    dataSource = new DataSource({ ...dataSourceOptions({ driver: 'sqlite', path: join(dir.path, 'inbox.db') }), logger: log, logging: ['query'] });
    await dataSource.initialize();
    serializeSqliteAccess(dataSource);
    const database = new DatabaseWork(dataSource);
    inbox = new DeliveryInbox(database, new WebhookDeliveryRepository(database));
    inbox.onAccepted((stored) => accepted.push({ id: stored.id, event: stored.event }));
  });
  afterAll(async () => {
    await dataSource.destroy();
    dir.remove();
  });
  beforeEach(() => {
    log.statements.length = 0;
    accepted.length = 0;
  });

  const inserts = () => log.statements.filter((sql) => sql.startsWith('INSERT INTO "webhook_deliveries"'));

  it('stores the deliveries of one tick with one INSERT and no explicit transaction', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, index) => inbox.store(delivery(`tick-${index}`))));
    expect(results.every((result) => result.status === 'accepted' && typeof result.id === 'number')).toBe(true);
    expect(new Set(results.map((result) => result.id)).size).toBe(40);
    expect(inserts()).toHaveLength(1);
    expect(log.statements.filter((sql) => /^(BEGIN|COMMIT)/.test(sql))).toEqual([]);
    // The commit behind the 202 is fsynced: FULL around the INSERT, NORMAL again after it.
    const insertAt = log.statements.findIndex((sql) => sql.startsWith('INSERT INTO "webhook_deliveries"'));
    expect(log.statements.slice(insertAt - 1, insertAt + 2).map((sql) => sql.split('\n')[0])).toEqual([
      'PRAGMA synchronous = FULL',
      'INSERT INTO "webhook_deliveries" ("delivery_id", "event", "action", "installation_id", "repository_full_name", "payload", "status", "attempts", "received_at")',
      'PRAGMA synchronous = NORMAL',
    ]);
    expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
    expect(await dataSource.getRepository(WebhookDeliveryEntity).count({ where: { status: 'accepted' } })).toBe(40);
    expect(accepted).toHaveLength(40);
    expect(accepted[0]?.event).toBe('issues');
  });

  it('answers duplicate for a delivery id seen before, also twice within one batch, and tells listeners only of new ones', async () => {
    const results = await Promise.all([inbox.store(delivery('tick-0')), inbox.store(delivery('fresh-1')), inbox.store(delivery('fresh-1'))]);
    expect(results.map((result) => result.status)).toEqual(['duplicate', 'accepted', 'duplicate']);
    expect(accepted).toHaveLength(1);
  });

  it('lets background work through at once when quiet, after the burst writes and a quiet gap, and at the latest after the bound', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(inbox.whenQuiet(5, 1000)).resolves.toBeUndefined();

    const storing = inbox.store(delivery('busy-1'));
    let storedFirst = false;
    void storing.then(() => (storedFirst = true));
    await inbox.whenQuiet(5, 5000);
    expect(storedFirst).toBe(true);

    // Deliveries that keep arriving hold background work back only until its bound.
    let arriving = true;
    let sent = 0;
    const burst = (async () => {
      while (arriving) {
        await inbox.store(delivery(`burst-${sent++}`));
      }
    })();
    const waitedFrom = Date.now();
    await inbox.whenQuiet(5, 150);
    const waited = Date.now() - waitedFrom;
    arriving = false;
    await burst;
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(sent).toBeGreaterThan(1);
  });
});
