import { testDatabaseDriver } from '@shared/testing';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { EXCESS_IDLE_CONNECTION_MS } from '../src/database/data-source-options';
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
    const rows = (await dataSource.query('SELECT COUNT(*) AS "count" FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')) as Array<{
      count: string | number;
    }>;
    // The connection asking is one of the pool's too.
    return Number(rows[0]?.count ?? 0) + 1;
  };

  it('opens up to the open limit under load, then keeps exactly the idle limit open', async () => {
    await Promise.all(Array.from({ length: 10 }, () => dataSource.query('SELECT pg_sleep(0.3)')));
    expect(pool.totalCount).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, EXCESS_IDLE_CONNECTION_MS * 2 + 500));
    expect(pool.totalCount).toBe(2);
    expect(pool.idleCount).toBe(2);
    expect(await serverConnections()).toBe(2);
    // Still two after a while: the idle ones are kept, not closed.
    await new Promise((resolve) => setTimeout(resolve, EXCESS_IDLE_CONNECTION_MS * 2));
    expect(pool.totalCount).toBe(2);
  });
});
