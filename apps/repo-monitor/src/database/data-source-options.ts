import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import * as pg from 'pg';
import * as sqlite3 from 'sqlite3';
import type { DataSourceOptions } from 'typeorm';
import { sqliteDriver } from '@shared/database';
import type { MonitorDatabase } from '../app/config/monitor-config';
import { monitorEntities } from './entities';
import { postgresMigrations } from './migrations/postgres';
import { sqliteMigrations } from './migrations/sqlite';

// Timestamps are stored in UTC without a zone; read them back as UTC whatever the server's TZ is.
const TIMESTAMP_WITHOUT_TIME_ZONE_OID = 1114;
pg.types.setTypeParser(TIMESTAMP_WITHOUT_TIME_ZONE_OID, (value) => new Date(`${value.replace(' ', 'T')}Z`));

/**
 * Creates the SQLite file owner-only (0600) before SQLite opens it; SQLite gives its -wal and -shm
 * files the same permissions. The database holds password hashes and encrypted secrets.
 */
function createPrivateDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * sqlite3 with two changes to what TypeORM would do with the plain module:
 * - no `verbose()` trace mode (see sqliteDriver), which `util.inspect`ed the whole raw delivery
 *   body on every insert;
 * - `PRAGMA synchronous = NORMAL` (with WAL): a commit is written to the WAL before it returns but
 *   not fsynced each time. A process crash (kill -9, OOM) loses nothing that committed, because the
 *   WAL is in the OS page cache and replayed on open; a power loss or kernel crash can drop the last
 *   commits. The one commit that must survive even that, the inbound delivery answered 202, runs
 *   with FULL (DatabaseWork.durably: one fsync per group-committed batch, which also covers every
 *   earlier commit in the WAL); the rest (processing, outbox) is redone or retried from it. FULL for
 *   every commit cut ingest to a third in tools/bench (see its README).
 */
class TunedSqliteDatabase extends sqlite3.Database {
  constructor(...args: ConstructorParameters<typeof sqlite3.Database>) {
    super(...args);
    // Queued before any statement TypeORM issues on the new connection.
    this.run('PRAGMA synchronous = NORMAL');
  }
}

const tunedSqlite = sqliteDriver(TunedSqliteDatabase);

/** How long a connection beyond MONITOR_DATABASE_MAX_IDLE_CONNS may sit idle before it is closed. */
export const EXCESS_IDLE_CONNECTION_MS = 1_000;

/**
 * pg pool options: MONITOR_DATABASE_MAX_OPEN_CONNS is the pool's `max`; MONITOR_DATABASE_MAX_IDLE_CONNS
 * becomes its `min`, the number of connections that are kept open while idle (pg closes idle
 * connections only while the pool holds more than `min`). Connections beyond that close after
 * EXCESS_IDLE_CONNECTION_MS idle, the short grace keeping back-to-back queries from reconnecting.
 */
export function postgresPoolOptions(database: Extract<MonitorDatabase, { driver: 'postgres' }>): Record<string, unknown> {
  return {
    options: '-c timezone=UTC',
    max: database.maxOpenConns,
    min: Math.min(database.maxIdleConns, database.maxOpenConns),
    idleTimeoutMillis: EXCESS_IDLE_CONNECTION_MS,
    connectionTimeoutMillis: 5_000,
  };
}

/** TypeORM options for the configured database; migrations only, never synchronize. */
export function dataSourceOptions(database: MonitorDatabase): DataSourceOptions {
  if (database.driver === 'postgres') {
    return {
      type: 'postgres',
      driver: pg,
      url: database.url,
      entities: monitorEntities,
      migrations: postgresMigrations,
      migrationsRun: true,
      migrationsTransactionMode: 'each',
      synchronize: false,
      parseInt8: true,
      useUTC: true,
      extra: postgresPoolOptions(database),
    };
  }
  createPrivateDatabaseFile(database.path);
  // SQLite is one connection: TypeORM's sqlite driver serialises every query on it.
  return {
    type: 'sqlite',
    driver: tunedSqlite,
    database: database.path,
    entities: monitorEntities,
    migrations: sqliteMigrations,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    enableWAL: true,
    busyErrorRetry: 50,
    busyTimeout: 5000,
  };
}
