import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';

/**
 * Exclusive use of SQLite's single connection, re-entrant within one async flow.
 *
 * TypeORM's SQLite driver shares one connection (and one query runner) between everything. Without
 * a queue, a request's INSERT issued while a background transaction is open runs *inside* that
 * transaction and is rolled back with it, and two transactions collide with "cannot start a
 * transaction within a transaction". Here every entity-manager call and every query runs only when
 * no other flow holds the connection; whatever runs inside a holder's flow passes straight through.
 */
export class SqliteAccessQueue {
  private tail: Promise<void> = Promise.resolve();
  private readonly owner = new AsyncLocalStorage<symbol>();
  /** The turn now using the connection; async work that outlives its turn no longer matches it. */
  private activeHolder: symbol | undefined;
  private waiting = 0;

  /** Runs `work` once the connection is free (or at once inside the flow that holds it now). */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.heldByCurrentFlow) return work();
    this.waiting += 1;
    const result = this.tail.then(async () => {
      this.waiting -= 1;
      const holder = Symbol('sqlite-holder');
      this.activeHolder = holder;
      try {
        return await this.owner.run(holder, work);
      } finally {
        this.activeHolder = undefined;
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** True inside the flow that holds the connection right now (not a timer it left behind). */
  get heldByCurrentFlow(): boolean {
    const store = this.owner.getStore();
    return store !== undefined && store === this.activeHolder;
  }

  /** How many flows are waiting for the connection (for diagnostics and tests). */
  get queued(): number {
    return this.waiting;
  }
}

/** Entity-manager methods that touch the database; each runs as one exclusive unit. */
const MANAGER_METHODS = [
  'transaction',
  'query',
  'save',
  'remove',
  'softRemove',
  'recover',
  'insert',
  'update',
  'upsert',
  'delete',
  'softDelete',
  'restore',
  'exists',
  'existsBy',
  'count',
  'countBy',
  'sum',
  'average',
  'minimum',
  'maximum',
  'find',
  'findBy',
  'findAndCount',
  'findAndCountBy',
  'findOne',
  'findOneBy',
  'findOneOrFail',
  'findOneByOrFail',
  'clear',
  'increment',
  'decrement',
  'preload',
] as const;

type AnyAsync = (...args: unknown[]) => Promise<unknown>;

const PATCHED = Symbol('sqliteAccessSerialized');

/**
 * Serialises all access to a SQLite data source (no-op for other drivers) and returns the queue.
 * Call once, after the data source is initialised and migrated, before the app serves requests.
 * A transaction started by hand on a query runner outside `dataSource.transaction()` is refused,
 * because its statements could not be told apart from other flows' statements.
 */
export function serializeSqliteAccess(dataSource: DataSource): SqliteAccessQueue | undefined {
  if (dataSource.options.type !== 'sqlite') return undefined;
  const marked = dataSource as DataSource & { [PATCHED]?: SqliteAccessQueue };
  if (marked[PATCHED]) return marked[PATCHED];
  const queue = new SqliteAccessQueue();

  const manager = dataSource.manager as unknown as Record<string, unknown>;
  for (const name of MANAGER_METHODS) {
    const original = manager[name];
    if (typeof original !== 'function') continue;
    const bound = (original as AnyAsync).bind(manager);
    manager[name] = (...args: unknown[]) => queue.run(() => bound(...args));
  }

  // Query builders and raw runners all end up on the driver's one shared query runner.
  const runner = dataSource.createQueryRunner() as QueryRunner & Record<string, unknown>;
  const query = (runner.query as AnyAsync).bind(runner);
  runner.query = ((...args: unknown[]) => queue.run(() => query(...args))) as QueryRunner['query'];
  const startTransaction = (runner.startTransaction as AnyAsync).bind(runner);
  runner.startTransaction = ((...args: unknown[]) => {
    if (!queue.heldByCurrentFlow) {
      return Promise.reject(
        new Error('On SQLite, open transactions with dataSource.transaction() so they hold the connection'),
      );
    }
    return startTransaction(...args);
  }) as QueryRunner['startTransaction'];

  marked[PATCHED] = queue;
  return queue;
}
