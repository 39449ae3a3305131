import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { InjectDataSource } from '@nestjs/typeorm';
import { serializeSqliteAccess } from '@shared/database';
import { DataSource, EntityManager, QueryResult } from 'typeorm';

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

  /** A time as a raw-query parameter: UTC text in the format TypeORM stores on each driver. */
  time(date: Date): string {
    const iso = date.toISOString();
    return this.isSqlite ? iso.replace('T', ' ').replace('Z', '') : iso;
  }

  /** Positional placeholder number `n` (1-based) in raw SQL. */
  placeholder(n: number): string {
    return this.isSqlite ? '?' : `$${n}`;
  }

  /**
   * Runs a `... RETURNING` statement and answers its rows on either driver. TypeORM's SQLite runner
   * discards the rows of statements that begin with INSERT/UPDATE/DELETE, so the text is led by a newline.
   */
  async returning<T>(manager: EntityManager, sql: string, parameters: unknown[]): Promise<T[]> {
    const runner = manager.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const result = (await runner.query(`\n${sql.trim()}`, parameters, true)) as QueryResult;
      return (result.records ?? []) as T[];
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }

  /** Runs an UPDATE or DELETE and answers how many rows it changed. */
  async affected(manager: EntityManager, sql: string, parameters: unknown[]): Promise<number> {
    const runner = manager.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      const result = (await runner.query(sql.trim(), parameters, true)) as QueryResult;
      return result.affected ?? 0;
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }
}
