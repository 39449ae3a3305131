import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';
import { serializeSqliteAccess, SqliteAccessQueue } from './sqlite-access-queue';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serializeSqliteAccess', () => {
  let dir: string;
  let dataSource: DataSource;
  let queue: SqliteAccessQueue;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-queue-'));
    dataSource = new DataSource({ type: 'sqlite', driver: sqlite3, database: join(dir, 'db.sqlite'), enableWAL: true });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE items (id integer PRIMARY KEY AUTOINCREMENT, name varchar NOT NULL)');
    queue = serializeSqliteAccess(dataSource) as SqliteAccessQueue;
  });

  afterEach(async () => {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a write from another flow out of an open transaction that rolls back', async () => {
    let signalStarted!: () => void;
    const started = new Promise<void>((resolve) => (signalStarted = resolve));
    const failing = dataSource
      .transaction(async (manager) => {
        await manager.query(`INSERT INTO items (name) VALUES ('inside')`);
        signalStarted();
        await pause(50);
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await started;
    // Issued while the transaction is open; before the queue, it ran inside it and was lost.
    const outside = dataSource.query(`INSERT INTO items (name) VALUES ('outside')`);
    expect(await failing).toBe('roll back');
    await outside;
    const rows = (await dataSource.query('SELECT name FROM items ORDER BY id')) as Array<{ name: string }>;
    expect(rows.map((row) => row.name)).toEqual(['outside']);
  });

  it('runs overlapping transactions one after the other instead of colliding', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        dataSource.transaction(async (manager) => {
          await manager.query('INSERT INTO items (name) VALUES (?)', [`t${i}`]);
          await pause(1);
          await manager.query('INSERT INTO items (name) VALUES (?)', [`t${i}-b`]);
          return i;
        }),
      ),
    );
    expect(results).toHaveLength(20);
    const [{ total }] = (await dataSource.query('SELECT count(*) AS total FROM items')) as Array<{ total: number }>;
    expect(total).toBe(40);
  });

  it('lets query builders and repositories wait their turn and nested work pass through', async () => {
    const order: string[] = [];
    const holder = dataSource.transaction(async (manager) => {
      order.push('tx-start');
      await pause(30);
      // Re-entrant: the plain manager used inside the holder's flow does not deadlock.
      await dataSource.manager.query(`INSERT INTO items (name) VALUES ('nested')`);
      order.push('tx-end');
      await manager.query('SELECT 1');
    });
    await pause(5);
    const builder = dataSource
      .createQueryBuilder()
      .insert()
      .into('items')
      .values({ name: 'builder' })
      .execute()
      .then(() => order.push('builder'));
    await Promise.all([holder, builder]);
    expect(order).toEqual(['tx-start', 'tx-end', 'builder']);
    expect(queue.queued).toBe(0);
  });

  it('makes work left behind by a finished turn wait like everyone else', async () => {
    let leftBehind!: Promise<unknown>;
    await dataSource.transaction(async () => {
      // Fire-and-forget work started inside a turn inherits its async context.
      leftBehind = pause(20).then(() => dataSource.query(`INSERT INTO items (name) VALUES ('late')`));
    });
    const holder = dataSource
      .transaction(async (manager) => {
        await manager.query(`INSERT INTO items (name) VALUES ('holder')`);
        await pause(60);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await Promise.all([leftBehind, holder]);
    const rows = (await dataSource.query('SELECT name FROM items ORDER BY id')) as Array<{ name: string }>;
    // Without the holder check, 'late' ran inside the rolled-back transaction and was lost.
    expect(rows.map((row) => row.name)).toEqual(['late']);
  });

  it('refuses a hand-started transaction outside dataSource.transaction()', async () => {
    const runner = dataSource.createQueryRunner();
    await expect(runner.startTransaction()).rejects.toThrow(/dataSource.transaction/);
  });

  it('does nothing for other drivers', () => {
    const fake = { options: { type: 'postgres' } } as unknown as DataSource;
    expect(serializeSqliteAccess(fake)).toBeUndefined();
  });
});
