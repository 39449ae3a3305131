import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PanelMetrics } from '../metrics/metrics.service';

/** Hits indexed per statement: one FTS5 segment per batch instead of one per hit. */
export const FTS_INDEX_BATCH = 5_000;
/** How often the indexer looks for hits not yet indexed. */
export const FTS_INDEX_INTERVAL_MS = 1_000;

/**
 * SQLite only: feeds the FTS5 trigram index (`keyword_hits_fts`) with the hits recorded since the
 * last pass, in batches of up to FTS_INDEX_BATCH hits, each by moving
 * `keyword_hits_fts_state.indexed_through` (a trigger indexes the hits the mark passes). Recording a hit therefore pays
 * only for the row and its counters; the index catches up within about a second, and a search
 * meanwhile checks the hits above the mark with a plain LIKE (see KeywordHitsService), so results
 * never depend on how far the indexer has got.
 *
 * A pass that fails (the database busy with another writer, a read-only data directory) changes
 * nothing and is tried again on the next tick; the first failure of a streak is logged at warn, and
 * the backlog is the `panel_keyword_hits_search_backlog` gauge.
 */
@Injectable()
export class KeywordHitsFtsIndexer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(KeywordHitsFtsIndexer.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  /** Failed batches since the last one that worked. */
  private failures = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() metrics?: PanelMetrics,
  ) {
    if (this.enabled) metrics?.watchSearchIndex(this);
  }

  get enabled(): boolean {
    return this.dataSource.options.type === 'sqlite' || this.dataSource.options.type === 'better-sqlite3';
  }

  onApplicationBootstrap(): void {
    this.resume();
  }

  /** Stops indexing on the timer until resume() (tests use it to search a partly indexed table). */
  pause(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Indexes what is pending now and then every FTS_INDEX_INTERVAL_MS. */
  resume(): void {
    if (!this.enabled || this.stopped || this.timer) return;
    this.timer = setInterval(() => void this.catchUp().catch(() => undefined), FTS_INDEX_INTERVAL_MS);
    this.timer.unref();
    void this.catchUp().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.pause();
    await this.running?.catch(() => undefined);
  }

  /** Indexes every hit above the mark, batch by batch; answers how far the mark moved (in ids). One pass at a time. */
  catchUp(): Promise<number> {
    if (!this.enabled) return Promise.resolve(0);
    if (!this.running) {
      this.running = this.indexAll().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  /** Hits recorded but not yet in the index (0 on PostgreSQL, whose index is kept by the table itself). */
  async pending(): Promise<number> {
    if (!this.enabled) return 0;
    const [row] = (await this.dataSource.query(
      `SELECT (SELECT COUNT(*) FROM "keyword_hits" WHERE "id" > "s"."indexed_through") AS "n" FROM "keyword_hits_fts_state" "s"`,
    )) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  private async indexAll(): Promise<number> {
    let indexed = 0;
    for (;;) {
      if (this.stopped) return indexed;
      const batch = await this.indexBatch();
      indexed += batch;
      if (batch === 0) return indexed;
      // Let requests run between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * One batch: reads where the next FTS_INDEX_BATCH hits end, then moves the mark there with one
   * UPDATE, whose trigger indexes the hits in between in the same statement. No explicit
   * transaction: the update is atomic on its own, takes the write lock as its first step (so a
   * concurrent writer makes it wait, never fail half-way), and cannot enclose another statement the
   * service runs on the same connection meanwhile. The WHERE on the old mark makes a pass that
   * raced another one a no-op.
   */
  private async indexBatch(): Promise<number> {
    try {
      const [state] = (await this.dataSource.query(
        `SELECT "s"."indexed_through" AS "from", (SELECT MAX("id") FROM (SELECT "id" FROM "keyword_hits" WHERE "id" > "s"."indexed_through" ORDER BY "id" LIMIT ${FTS_INDEX_BATCH})) AS "to"
         FROM "keyword_hits_fts_state" "s"`,
      )) as Array<{ from: number; to: number | null }>;
      if (state && state.to !== null) {
        await this.dataSource.query(`UPDATE "keyword_hits_fts_state" SET "indexed_through" = ? WHERE "indexed_through" = ?`, [state.to, state.from]);
      }
      if (this.failures > 0) this.logger.log(`keyword hits: indexing for search works again after ${this.failures} failed batch(es)`);
      this.failures = 0;
      return state && state.to !== null ? state.to - state.from : 0;
    } catch (error) {
      const message = `keyword hits: indexing for search deferred, searches check the newest hits without the index meanwhile (${error instanceof Error ? error.message : String(error)})`;
      if (this.failures === 0) this.logger.warn(message);
      else this.logger.debug(message);
      this.failures += 1;
      return 0;
    }
  }
}
