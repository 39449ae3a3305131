import { DataSource, EntityManager } from 'typeorm';
import { StoreRevision } from './entities/store-revision.entity';

/**
 * Raises the counter of `scope` in the caller's transaction and returns the new value. The row lock
 * it takes orders the writes of one collection across replicas: the next writer waits for this
 * transaction to end, then sees what it wrote.
 */
export async function raiseStoreRevision(manager: EntityManager, scope: string): Promise<number> {
  await manager.increment(StoreRevision, { scope }, 'revision', 1);
  return (await manager.findOneByOrFail(StoreRevision, { scope })).revision;
}

/** The counter of `scope` as committed now (0 before the first write). */
export async function readStoreRevision(dataSource: DataSource, scope: string): Promise<number> {
  return (await dataSource.getRepository(StoreRevision).findOneBy({ scope }))?.revision ?? 0;
}

/**
 * Runs async work one piece at a time, in call order: a store's look at its table and its own
 * writes, so a look that listed the rows just before a write committed cannot undo the write's
 * update of memory.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
