import { DataSource } from 'typeorm';
import { ThrottleRecord, ThrottleStore } from './login-throttle';

interface ThrottleRow {
  failures: string;
  blocked_until: string | number;
}

/**
 * The login throttles' records in `login_throttles` (PostgreSQL with replicas): one row per scope and
 * client, changed under its row lock (`SELECT … FOR UPDATE` in a transaction), so failures that
 * arrive at several replicas at once all count. Rows with nothing left to remember are deleted.
 */
export class DatabaseThrottleStore implements ThrottleStore {
  constructor(
    private readonly dataSource: DataSource,
    /** Which throttle the rows belong to (`login`, `credential`). */
    private readonly scope: string,
    private readonly windowSeconds: number,
  ) {}

  async get(client: string): Promise<ThrottleRecord | undefined> {
    const rows = (await this.dataSource.query(`SELECT "failures", "blocked_until" FROM "login_throttles" WHERE "scope" = $1 AND "client" = $2`, [this.scope, client])) as ThrottleRow[];
    return rows[0] ? recordOf(rows[0]) : undefined;
  }

  async update(client: string, now: number, change: (record: ThrottleRecord | undefined) => ThrottleRecord | undefined): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO "login_throttles" ("scope", "client", "failures", "blocked_until", "updated_at") VALUES ($1, $2, '[]', 0, $3) ON CONFLICT ("scope", "client") DO NOTHING`,
        [this.scope, client, now],
      );
      const rows = (await manager.query(`SELECT "failures", "blocked_until" FROM "login_throttles" WHERE "scope" = $1 AND "client" = $2 FOR UPDATE`, [this.scope, client])) as ThrottleRow[];
      const current = rows[0] ? recordOf(rows[0]) : undefined;
      const next = change(current && (current.failures.length > 0 || current.blockedUntil > 0) ? current : undefined);
      if (!next || (next.failures.length === 0 && next.blockedUntil <= now)) {
        await manager.query(`DELETE FROM "login_throttles" WHERE "scope" = $1 AND "client" = $2`, [this.scope, client]);
      } else {
        await manager.query(`UPDATE "login_throttles" SET "failures" = $3, "blocked_until" = $4, "updated_at" = $5 WHERE "scope" = $1 AND "client" = $2`, [
          this.scope,
          client,
          JSON.stringify(next.failures),
          next.blockedUntil,
          now,
        ]);
      }
    });
    // Clients that stopped failing long ago and are not blocked are forgotten (the table stays small).
    await this.dataSource.query(`DELETE FROM "login_throttles" WHERE "scope" = $1 AND "updated_at" < $2 AND "blocked_until" < $3`, [this.scope, now - this.windowSeconds * 1000, now]);
  }
}

function recordOf(row: ThrottleRow): ThrottleRecord {
  let failures: number[] = [];
  try {
    const parsed = JSON.parse(row.failures) as unknown;
    if (Array.isArray(parsed)) failures = parsed.filter((value): value is number => typeof value === 'number');
  } catch {
    // An unreadable row counts as no failures.
  }
  return { failures, blockedUntil: Number(row.blocked_until) };
}
