import { tempDir } from '@shared/testing';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';
import { dataSourceOptions, postgresPoolOptions } from './data-source-options';

describe('dataSourceOptions (SQLite)', () => {
  const dir = tempDir('monitor-options-');
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ driver: 'sqlite', path: join(dir.path, 'options.db') }));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    dir.remove();
  });

  it('runs in WAL mode with synchronous=NORMAL (commits survive a process crash without an fsync each)', async () => {
    expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    // 1 = NORMAL (FULL would be 2).
    expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
  });

  it('gives TypeORM a sqlite3 whose verbose() does not wrap every call to inspect its parameters', () => {
    const loaded = (dataSource.driver as unknown as { sqlite: { Database: unknown; verbose: () => unknown } }).sqlite;
    expect(loaded.Database).not.toBe(sqlite3.Database);
    expect(loaded.verbose()).toBe(loaded);
  });
});

describe('postgresPoolOptions', () => {
  it('keeps MONITOR_DATABASE_MAX_IDLE_CONNS connections open while idle and at most MAX_OPEN_CONNS in all', () => {
    expect(postgresPoolOptions({ driver: 'postgres', url: 'postgres://x@h/d', maxOpenConns: 8, maxIdleConns: 3 })).toMatchObject({ max: 8, min: 3 });
    expect(postgresPoolOptions({ driver: 'postgres', url: 'postgres://x@h/d', maxOpenConns: 2, maxIdleConns: 5 })).toMatchObject({ max: 2, min: 2 });
    expect(postgresPoolOptions({ driver: 'postgres', url: 'postgres://x@h/d', maxOpenConns: 4, maxIdleConns: 0 })).toMatchObject({ max: 4, min: 0 });
  });
});
