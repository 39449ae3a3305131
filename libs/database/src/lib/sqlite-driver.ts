import * as sqlite3 from 'sqlite3';

/**
 * The sqlite3 module for TypeORM's `driver` option, without the trace mode TypeORM switches on.
 * TypeORM calls `verbose()` on the driver, which wraps every statement call to capture a stack
 * trace and `util.inspect` each argument (the SQL text and every parameter, however large) before
 * the query runs. That is most of what a small query allocates; errors still carry SQLite's
 * message and the caller's stack without it. `Database` replaces the connection class when a
 * service tunes its connections.
 */
export function sqliteDriver(Database: new (...args: never[]) => sqlite3.Database = sqlite3.Database): Record<string, unknown> {
  const driver: Record<string, unknown> = { ...sqlite3, Database, verbose: () => driver };
  return driver;
}
