import { chmod, mkdir, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as sqlite3 from 'sqlite3';

function openReadOnly(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const database = new sqlite3.Database(path, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(database)));
  });
}

function run(database: sqlite3.Database, sql: string, parameters: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => database.run(sql, parameters, (error) => (error ? reject(error) : resolve())));
}

function close(database: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => database.close(() => resolve()));
}

export interface SqliteSnapshot {
  path: string;
  remove: () => Promise<void>;
}

/**
 * A consistent, self-contained copy of a live SQLite database (WAL content included) made with
 * `VACUUM INTO` on a separate read-only connection, so the service's own connection is not blocked
 * and nothing half-written is copied. The copy goes to `workDirectory` (on the data volume, not /tmp,
 * which may be memory-backed).
 */
export async function createSqliteSnapshot(databasePath: string, workDirectory: string): Promise<SqliteSnapshot> {
  await mkdir(workDirectory, { recursive: true, mode: 0o700 });
  const path = join(workDirectory, `snapshot-${Date.now()}-${randomBytes(4).toString('hex')}.sqlite`);
  const remove = async () => {
    await rm(path, { force: true });
    await rm(`${path}-journal`, { force: true });
  };
  const database = await openReadOnly(databasePath);
  try {
    await run(database, 'PRAGMA busy_timeout = 10000', []);
    await run(database, 'VACUUM INTO ?', [path]);
    // SQLite creates the copy with the process umask (often 0644); it holds every secret of the database.
    await chmod(path, 0o600);
  } catch (error) {
    await remove();
    throw error;
  } finally {
    await close(database);
  }
  return { path, remove };
}
