import { testDatabaseDriver, waitFor } from '@shared/testing';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { EXCESS_IDLE_CONNECTION_MS } from '../src/database/data-source-options';
import { DatabaseWork } from '../src/database/database-work';
import { SETTINGS_LISTENER_NAME } from '../src/app/settings/settings-changes';
import { RunningMonitor, startMonitor } from './harness';

const onPostgres = testDatabaseDriver() === 'postgres' ? describe : describe.skip;

onPostgres('PostgreSQL pool sizes from MONITOR_DATABASE_MAX_OPEN_CONNS / MAX_IDLE_CONNS', () => {
  let monitor: RunningMonitor;
  let dataSource: DataSource;
  let pool: Pool;

  beforeAll(async () => {
    monitor = await startMonitor({ env: { MONITOR_DATABASE_MAX_OPEN_CONNS: '6', MONITOR_DATABASE_MAX_IDLE_CONNS: '2' } });
    dataSource = monitor.app.get(DataSource);
    pool = (dataSource.driver as PostgresDriver).master as Pool;
  });
  afterAll(async () => {
    await monitor?.close();
  });

  const serverConnections = async (): Promise<number> => {
    // The settings listener's own connection (LISTEN/NOTIFY) is not the pool's.
    const rows = (await dataSource.query(
      'SELECT COUNT(*) AS "count" FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name <> $1',
      [SETTINGS_LISTENER_NAME],
    )) as Array<{
      count: string | number;
    }>;
    // The connection asking is one of the pool's too.
    return Number(rows[0]?.count ?? 0) + 1;
  };

  it('opens up to the open limit under load, then keeps exactly the idle limit open', async () => {
    await Promise.all(Array.from({ length: 10 }, () => dataSource.query('SELECT pg_sleep(0.3)')));
    expect(pool.totalCount).toBe(6);
    // The four beyond the idle limit close once idle for EXCESS_IDLE_CONNECTION_MS.
    await waitFor(() => pool.totalCount === 2, EXCESS_IDLE_CONNECTION_MS * 10);
    expect(pool.idleCount).toBe(2);
    expect(await serverConnections()).toBe(2);
    // The two left are kept, not closed later: pg arms an idle timer only for a client released while
    // the pool holds more than `min`. Both used and released again at two, neither has one (pg-pool's
    // idle list; its shape is pinned by the lockfile).
    await Promise.all([dataSource.query('SELECT pg_sleep(0.05)'), dataSource.query('SELECT pg_sleep(0.05)')]);
    expect(pool.totalCount).toBe(2);
    const idle = (pool as unknown as { _idle: Array<{ timeoutId: unknown }> })._idle;
    expect(idle).toHaveLength(2);
    expect(idle.map((item) => item.timeoutId)).toEqual([undefined, undefined]);
  });

  it('runs onOneInstance work on one connection at a time: a second caller is turned away while the lock is held', async () => {
    const database = monitor.app.get(DatabaseWork);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = database.onOneInstance(4_242, async () => {
      await held;
      return 'first';
    });
    await waitFor(async () => {
      const rows = (await dataSource.query("SELECT COUNT(*) AS \"count\" FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242")) as Array<{ count: string | number }>;
      return Number(rows[0]?.count ?? 0) === 1;
    });
    expect(await database.onOneInstance(4_242, async () => 'second')).toBeUndefined();
    release();
    expect(await first).toBe('first');
    expect(await database.onOneInstance(4_242, async () => 'third')).toBe('third');
  });
});
