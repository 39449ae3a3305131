import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { InjectDataSource } from '@nestjs/typeorm';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource, EntityManager, QueryResult } from 'typeorm';
import { rawSql, renderSql, Sql, SqlDialect } from './sql';

/** How many rows fell in one slice of epoch time (DatabaseWork.epochBucket). */
export interface BucketCount {
  bucket: number;
  count: number;
}

/**
 * Runs work in transactions on either driver.
 *
 * On SQLite every statement already waits for the one connection (serializeSqliteAccess in
 * @shared/database), in arrival order. This class adds admission control on top: its transactions
 * enter that queue one at a time, so a statement that does not go through here (the inbound
 * delivery insert, one autocommitted statement) waits for at most the one transaction that holds
 * the connection, never for a backlog of background work.
 */
@Injectable()
export class DatabaseWork {
  private readonly sqliteWaiting: Array<() => Promise<void>> = [];
  private sqliteBusy = false;
  private readonly insideTransaction = new AsyncLocalStorage<true>();

  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'sqlite';
  }

  /**
   * Runs `work` on one instance at a time: on PostgreSQL while holding the session advisory lock
   * `lockKey` on a connection of its own; undefined, without running it, when another instance
   * holds it. SQLite has one instance, so `work` just runs.
   */
  async onOneInstance<T>(lockKey: number, work: () => Promise<T>): Promise<T | undefined> {
    if (this.isSqlite) return work();
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [lockKey])) as Array<{ locked: boolean }>;
      if (!row?.locked) return undefined;
      try {
        return await work();
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }

  /** `fn` inside one transaction; committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.isSqlite) return this.dataSource.transaction(fn);
    // Nested in one of ours: waiting here would wait for ourselves; TypeORM nests it as a savepoint.
    if (this.holdsSqliteConnection()) return this.dataSource.transaction(fn);
    return new Promise<T>((resolve, reject) => {
      this.sqliteWaiting.push(async () => {
        try {
          resolve(await this.insideTransaction.run(true, () => this.dataSource.transaction(fn)));
        } catch (error) {
          reject(error);
        }
      });
      void this.runSqliteQueue();
    });
  }

  /**
   * True inside a SQLite transaction opened here: the flow holds the one connection, so it must not
   * wait for work queued behind it (see ShortCache).
   */
  holdsSqliteConnection(): boolean {
    return this.insideTransaction.getStore() === true;
  }

  private async runSqliteQueue(): Promise<void> {
    if (this.sqliteBusy) return;
    this.sqliteBusy = true;
    try {
      for (;;) {
        const job = this.sqliteWaiting.shift();
        if (!job) return;
        await job();
      }
    } finally {
      this.sqliteBusy = false;
    }
  }

  /**
   * Runs `work` (autocommitted statements) so that its commits are on disk before it resolves. SQLite
   * runs with synchronous=NORMAL (see data-source-options.ts): a commit survives a crash of the
   * process but not a power loss. Here the connection is held and switched to FULL for the duration,
   * so the WAL is fsynced at each commit of `work` (and with it every commit before). On PostgreSQL
   * every commit is durable already.
   */
  async durably<T>(work: () => Promise<T>): Promise<T> {
    const queue = this.isSqlite ? serializeSqliteAccess(this.dataSource) : undefined;
    if (!queue) return work();
    return queue.run(async () => {
      await this.dataSource.query('PRAGMA synchronous = FULL');
      try {
        return await work();
      } finally {
        await this.dataSource.query('PRAGMA synchronous = NORMAL');
      }
    });
  }

  get dialect(): SqlDialect {
    return this.isSqlite ? 'sqlite' : 'postgres';
  }

  /** A time as a query-builder parameter: UTC text in the format TypeORM stores on each driver. */
  time(date: Date): string {
    const iso = date.toISOString();
    return this.isSqlite ? iso.replace('T', ' ').replace('Z', '') : iso;
  }

  /**
   * After a subquery's ORDER BY/LIMIT: on PostgreSQL the rows it picks are locked and rows another
   * transaction holds are skipped, so concurrent claimers never take the same row. SQLite has a
   * single writer and no such clause.
   */
  get skipLocked(): Sql {
    return rawSql(this.isSqlite ? '' : 'FOR UPDATE SKIP LOCKED');
  }

  /**
   * SQL for the `seconds`-long slice of epoch time a stored UTC time (`column`, an identifier chosen by
   * the code) falls in, as an integer on either driver: rows counted per slice in the database are
   * assigned to local days by the caller.
   */
  epochBucket(column: string, seconds: number): Sql {
    return rawSql(this.isSqlite ? `CAST(strftime('%s', ${column}) AS INTEGER) / ${seconds}` : `FLOOR(EXTRACT(EPOCH FROM ${column}) / ${seconds})`);
  }

  /** Runs a SELECT (inside `manager`'s transaction when given) and answers its rows. */
  async rows<T>(statement: Sql, manager?: EntityManager): Promise<T[]> {
    const { text, parameters } = renderSql(statement, this.dialect);
    return (await (manager ?? this.dataSource.manager).query(text, parameters)) as T[];
  }

  /**
   * Runs a `... RETURNING` statement and answers its rows on either driver. TypeORM's SQLite runner
   * discards the rows of statements that begin with INSERT/UPDATE/DELETE, so the text is led by a newline.
   */
  async returning<T>(manager: EntityManager, statement: Sql | string, parameters: unknown[] = []): Promise<T[]> {
    const query = this.prepared(statement, parameters);
    const runner = manager.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const result = (await runner.query(`\n${query.text.trim()}`, query.parameters, true)) as QueryResult;
      return (result.records ?? []) as T[];
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }

  /** Runs an UPDATE or DELETE and answers how many rows it changed. */
  async affected(manager: EntityManager, statement: Sql | string, parameters: unknown[] = []): Promise<number> {
    const query = this.prepared(statement, parameters);
    const runner = manager.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const result = (await runner.query(query.text.trim(), query.parameters, true)) as QueryResult;
      return result.affected ?? 0;
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }

  private prepared(statement: Sql | string, parameters: unknown[]): { text: string; parameters: unknown[] } {
    return typeof statement === 'string' ? { text: statement, parameters } : renderSql(statement, this.dialect);
  }
}
