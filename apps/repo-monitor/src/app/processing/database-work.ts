import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryResult } from 'typeorm';

export type TransactionPriority = 'high' | 'normal';

/**
 * Runs work in transactions on either driver. SQLite has one connection that TypeORM shares
 * between query runners, so two transactions at once would interleave on it: they are queued here.
 */
@Injectable()
export class DatabaseWork {
  private readonly sqliteQueues: Record<TransactionPriority, Array<() => Promise<void>>> = { high: [], normal: [] };
  private sqliteBusy = false;
  private readonly insideTransaction = new AsyncLocalStorage<true>();

  constructor(@InjectDataSource() readonly dataSource: DataSource) {}

  get isSqlite(): boolean {
    return this.dataSource.options.type === 'sqlite';
  }

  /**
   * `fn` inside one transaction; committed when it resolves, rolled back when it throws. On SQLite,
   * `high` work (storing inbound deliveries before they are answered) goes ahead of queued `normal` work.
   */
  async transaction<T>(fn: (manager: EntityManager) => Promise<T>, priority: TransactionPriority = 'normal'): Promise<T> {
    if (!this.isSqlite) return this.dataSource.transaction(fn);
    // Nested in one of ours: queueing would wait for ourselves; TypeORM nests it as a savepoint.
    if (this.holdsSqliteConnection()) return this.dataSource.transaction(fn);
    return new Promise<T>((resolve, reject) => {
      this.sqliteQueues[priority].push(async () => {
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
        const job = this.sqliteQueues.high.shift() ?? this.sqliteQueues.normal.shift();
        if (!job) return;
        await job();
      }
    } finally {
      this.sqliteBusy = false;
    }
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
