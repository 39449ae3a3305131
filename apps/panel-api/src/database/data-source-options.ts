import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as Pg from 'pg';
import { sqliteDriver } from '@shared/database';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseTarget } from '../app/config/panel-config';
import { panelEntities } from './entities';
import { postgresMigrations } from './migrations/postgres';
import { sqliteMigrations } from './migrations/sqlite';

let postgres: typeof Pg | undefined;

/**
 * node-postgres, loaded only when PostgreSQL is configured (an SQLite install never holds it), and
 * set up once to read and write timestamps as UTC.
 */
function postgresDriver(): typeof Pg {
  if (postgres) return postgres;
  // A synchronous require on purpose: TypeORM's options are built synchronously.
  const pg = require('pg') as typeof Pg;
  // Timestamps are stored in UTC without a zone; read them back as UTC whatever the server's TZ is.
  const TIMESTAMP_WITHOUT_TIME_ZONE_OID = 1114;
  pg.types.setTypeParser(TIMESTAMP_WITHOUT_TIME_ZONE_OID, (value) => new Date(`${value.replace(' ', 'T')}Z`));
  // …and write them as UTC: node-postgres would send a Date in local time, and a `timestamp` column drops the offset.
  pg.defaults.parseInputDatesAsUTC = true;
  postgres = pg;
  return pg;
}

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

/** TypeORM options for the configured database; migrations only, never synchronize. */
export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  if (target.driver === 'postgres') {
    return {
      type: 'postgres',
      driver: postgresDriver(),
      url: target.url,
      entities: panelEntities,
      migrations: postgresMigrations,
      migrationsRun: true,
      migrationsTransactionMode: 'each',
      synchronize: false,
      parseInt8: true,
      // Dates are written as UTC; the session time zone keeps now() in UTC as well.
      extra: { options: '-c timezone=UTC', max: 10 },
      useUTC: true,
    };
  }
  createPrivateDatabaseFile(target.path);
  return {
    type: 'sqlite',
    driver: sqliteDriver(),
    database: target.path,
    entities: panelEntities,
    migrations: sqliteMigrations,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    enableWAL: true,
    busyErrorRetry: 50,
    busyTimeout: 5000,
  };
}
