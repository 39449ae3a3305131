import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

const insideTransaction = new AsyncLocalStorage<true>();

/**
 * SQLite runs on one connection, so two overlapping `transaction()` calls (a request and a
 * background worker, say) collide with "cannot start a transaction within a transaction" and
 * leave the connection in a broken state. This queues them: one transaction at a time. A nested
 * call from inside a queued transaction runs directly (as before) instead of waiting on itself.
 */
export function serializeSqliteTransactions(dataSource: DataSource): void {
  if (dataSource.options.type !== 'sqlite') return;
  const manager: EntityManager = dataSource.manager;
  const original = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  let tail: Promise<unknown> = Promise.resolve();
  const serialized = (...args: unknown[]): Promise<unknown> => {
    if (insideTransaction.getStore()) return original(...args);
    const run = tail.then(() => insideTransaction.run(true, () => original(...args)));
    tail = run.catch(() => undefined);
    return run;
  };
  manager.transaction = serialized as EntityManager['transaction'];
}
