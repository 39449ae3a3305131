import { Injectable } from '@nestjs/common';
import { DeepPartial, EntityManager } from 'typeorm';
import { BucketCount, DatabaseWork } from '../../database/database-work';
import { joinSql, Sql, sql, storedTime } from '../../database/sql';
import { FoundRows, PageWindow } from '../common/list-page';
import { OutboxEntryEntity, OutboxRole, OutboxState } from './outbox-entry.entity';

/** How a send ended, as stored on the entry. */
export type OutboxSettlement = Pick<OutboxEntryEntity, 'attempts' | 'leaseUntil' | 'updatedAt'> &
  Partial<Pick<OutboxEntryEntity, 'state' | 'sentAt' | 'nextAttemptAt' | 'lastErrorCode' | 'lastError'>>;

/**
 * Every statement on the notification outbox. The worker claims due entries (pending -> sending
 * with a lease), settles them after a send, and releases leases a killed process left behind;
 * enqueueing runs inside the caller's transaction (the one that records the event); the console
 * lists, reads and retries entries; the metrics count them and retention deletes settled ones.
 */
@Injectable()
export class OutboxRepository {
  constructor(private readonly database: DatabaseWork) {}

  /** Takes up to `limit` due entries for this worker until `leaseUntil`, oldest due first. */
  async claim(now: Date, leaseUntil: Date, limit: number): Promise<OutboxEntryEntity[]> {
    const claimed = await this.database.transaction((manager) =>
      this.database.returning<{ id: number | string }>(
        manager,
        sql`UPDATE "notification_outbox" SET "state" = 'sending', "lease_until" = ${leaseUntil}, "updated_at" = ${now}
         WHERE "id" IN (
           SELECT "id" FROM "notification_outbox"
           WHERE "state" = 'pending' AND "next_attempt_at" <= ${now}
           ORDER BY "next_attempt_at", "id" LIMIT ${limit} ${this.database.skipLocked}
         )
         RETURNING "id"`,
      ),
    );
    if (claimed.length === 0) return [];
    return this.store()
      .createQueryBuilder('entry')
      .where('entry.id IN (:...ids)', { ids: claimed.map((row) => Number(row.id)) })
      .orderBy('entry.id', 'ASC')
      .getMany();
  }

  /** Puts entries whose lease ran out (their worker died mid-send) back to pending; answers how many. */
  releaseExpiredLeases(now: Date): Promise<number> {
    return this.database.transaction((manager) =>
      this.database.affected(
        manager,
        sql`UPDATE "notification_outbox" SET "state" = 'pending', "lease_until" = NULL WHERE "state" = 'sending' AND "lease_until" < ${now}`,
      ),
    );
  }

  /**
   * Records how a claimed entry's send ended, as one autocommitted UPDATE that does not queue behind
   * background transactions. Answers 0 when the claim no longer held the row (an expired lease may
   * have been taken over).
   */
  async settle(id: number, settlement: OutboxSettlement): Promise<number> {
    const updated = await this.store().update({ id, state: 'sending' }, settlement);
    return updated.affected ?? 0;
  }

  /** The members merged into a leader (aggregate or burst), in the order they were written. */
  members(leaderId: number): Promise<OutboxEntryEntity[]> {
    return this.store().find({ where: { aggregatedInto: leaderId }, order: { id: 'ASC' } });
  }

  // Enqueueing, inside the transaction that records the event.

  idempotencyKeyTaken(manager: EntityManager, idempotencyKey: string): Promise<boolean> {
    return this.store(manager).exist({ where: { idempotencyKey } });
  }

  /** How many notifications of a group were written after `since`, and when the oldest of them was. */
  async recentInGroup(manager: EntityManager, groupKey: string, since: Date): Promise<{ count: number; oldest: Date | undefined }> {
    const rows = await this.database.rows<{ count: number | string; oldest: string | Date | null }>(
      sql`SELECT COUNT(*) AS "count", MIN("created_at") AS "oldest" FROM "notification_outbox"
          WHERE "group_key" = ${groupKey} AND "event_id" IS NOT NULL AND "created_at" > ${since}`,
      manager,
    );
    return { count: Number(rows[0]?.count ?? 0), oldest: storedTime(rows[0]?.oldest) };
  }

  /** The group's leader of `role` still waiting to be sent, if any. */
  pendingLeader(manager: EntityManager, groupKey: string, role: Exclude<OutboxRole, 'single'>): Promise<OutboxEntryEntity | null> {
    return this.store(manager).findOne({ where: { groupKey, role, state: 'pending' }, order: { id: 'DESC' } });
  }

  /** The group's newest notification sent on its own or as a leader after `since`. */
  latestSentAlone(manager: EntityManager, groupKey: string, since: Date): Promise<OutboxEntryEntity | null> {
    return this.store(manager)
      .createQueryBuilder('entry')
      .where('entry.group_key = :groupKey', { groupKey })
      .andWhere("entry.role IN ('single', 'aggregate')")
      .andWhere('entry.aggregated_into IS NULL')
      .andWhere('entry.created_at > :since', { since: this.database.time(since) })
      .orderBy('entry.id', 'DESC')
      .getOne();
  }

  /** A new entry, not yet stored. */
  create(fields: DeepPartial<OutboxEntryEntity>): OutboxEntryEntity {
    return this.store().create(fields);
  }

  save(manager: EntityManager, entry: OutboxEntryEntity): Promise<OutboxEntryEntity> {
    return this.store(manager).save(entry);
  }

  async countMember(manager: EntityManager, leaderId: number): Promise<void> {
    await this.store(manager).increment({ id: leaderId }, 'itemCount', 1);
  }

  // The console and its dashboard.

  /** The latest `limit` entries, newest first. */
  latest(limit: number): Promise<OutboxEntryEntity[]> {
    return this.store().find({ order: { id: 'DESC' }, take: limit });
  }

  /** How many entries are in `state`. */
  countInState(state: OutboxState): Promise<number> {
    return this.store().count({ where: { state } });
  }

  /** How many entries are stored in each state (states without one are absent): the metrics' gauge. */
  async countByState(): Promise<Partial<Record<OutboxState, number>>> {
    const rows = await this.database.rows<{ state: OutboxState; count: number | string }>(
      sql`SELECT "state", COUNT(*) AS "count" FROM "notification_outbox" GROUP BY "state"`,
    );
    return Object.fromEntries(rows.map((row) => [row.state, Number(row.count)]));
  }

  /** When the oldest pending entry was created. */
  async oldestPendingAt(): Promise<Date | undefined> {
    const oldest = await this.store().findOne({ where: { state: 'pending' }, select: { id: true, createdAt: true }, order: { createdAt: 'ASC', id: 'ASC' } });
    return oldest?.createdAt;
  }

  /** Entries sent since `since`, counted per `bucketSeconds` of epoch time by when they were sent. */
  sentPerBucket(since: Date, bucketSeconds: number): Promise<BucketCount[]> {
    return this.countPerBucket(
      sql`SELECT ${this.database.epochBucket('"sent_at"', bucketSeconds)} AS "bucket", COUNT(*) AS "count" FROM "notification_outbox"
        WHERE "state" = 'sent' AND "sent_at" >= ${since} GROUP BY 1`,
    );
  }

  /** Entries that went dead since `since` (their last attempt) and were not retried, counted per `bucketSeconds` of epoch time. */
  deadPerBucket(since: Date, bucketSeconds: number): Promise<BucketCount[]> {
    return this.countPerBucket(
      sql`SELECT ${this.database.epochBucket('"updated_at"', bucketSeconds)} AS "bucket", COUNT(*) AS "count" FROM "notification_outbox"
        WHERE "state" = 'dead' AND "updated_at" >= ${since} GROUP BY 1`,
    );
  }

  private async countPerBucket(statement: Sql): Promise<BucketCount[]> {
    const rows = await this.database.rows<{ bucket: number | string; count: number | string }>(statement);
    return rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
  }

  /**
   * Where the notifications of each event stand: per event id, the state and attempts of each of its
   * entries, read through the entry it was merged into (an aggregated member is settled by its leader).
   */
  async stateOfEvents(eventIds: readonly number[]): Promise<Map<number, Array<{ state: OutboxState; attempts: number }>>> {
    const result = new Map<number, Array<{ state: OutboxState; attempts: number }>>();
    if (eventIds.length === 0) return result;
    const rows = await this.database.rows<{ event_id: number | string; state: OutboxState; attempts: number | string }>(
      sql`SELECT "entry"."event_id" AS "event_id", COALESCE("leader"."state", "entry"."state") AS "state", COALESCE("leader"."attempts", "entry"."attempts") AS "attempts"
           FROM "notification_outbox" "entry" LEFT JOIN "notification_outbox" "leader" ON "leader"."id" = "entry"."aggregated_into"
           WHERE "entry"."event_id" IN (${joinSql(eventIds.map((id) => sql`${id}`), ', ')})`,
    );
    for (const row of rows) {
      const id = Number(row.event_id);
      const list = result.get(id) ?? [];
      list.push({ state: row.state, attempts: Number(row.attempts) });
      result.set(id, list);
    }
    return result;
  }

  /** Newest first. */
  async find(filter: { state?: OutboxState; channelId?: string; eventId?: number }, window: PageWindow): Promise<FoundRows<OutboxEntryEntity>> {
    const [rows, total] = await this.store().findAndCount({
      where: { ...(filter.state ? { state: filter.state } : {}), ...(filter.channelId ? { channelId: filter.channelId } : {}), ...(filter.eventId ? { eventId: filter.eventId } : {}) },
      order: { id: 'DESC' },
      skip: window.skip,
      take: window.perPage,
    });
    return { rows, total };
  }

  findById(id: number): Promise<OutboxEntryEntity | null> {
    return this.store().findOne({ where: { id } });
  }

  /** The entries written for one event (one per channel and topic), oldest first. */
  ofEvent(eventId: number): Promise<OutboxEntryEntity[]> {
    return this.store().find({ where: { eventId }, order: { id: 'ASC' }, take: 100 });
  }

  /** The ids of the first `limit` members merged into a leader. */
  async memberIds(leaderId: number, limit: number): Promise<number[]> {
    const rows = await this.store().find({ where: { aggregatedInto: leaderId }, select: { id: true }, order: { id: 'ASC' }, take: limit });
    return rows.map((row) => row.id);
  }

  /** Dead entries (`id` only, or of one channel, or all) back to pending with a fresh backoff schedule; answers how many. */
  retryDead(target: { id?: number; channelId?: string }, now: Date): Promise<number> {
    return this.database.transaction(async (manager) => {
      const result = await this.store(manager).update(
        { state: 'dead', ...(target.id ? { id: target.id } : {}), ...(target.channelId ? { channelId: target.channelId } : {}) },
        { state: 'pending', attempts: 0, nextAttemptAt: now, updatedAt: now },
      );
      return result.affected ?? 0;
    });
  }

  // Retention.

  /**
   * Deletes at most `limit` settled entries (sent, dead or suppressed) last updated before
   * `updatedBefore`, lowest id first, inside `manager`'s transaction; answers how many. A member is
   * kept while the leader it was merged into is still pending or sending (the send reads it).
   */
  deleteSettledBefore(manager: EntityManager, updatedBefore: Date, limit: number): Promise<number> {
    return this.database.affected(
      manager,
      sql`DELETE FROM "notification_outbox" WHERE "id" IN (
         SELECT "entry"."id" FROM "notification_outbox" "entry"
         WHERE "entry"."state" IN ('sent', 'dead', 'suppressed') AND "entry"."updated_at" < ${updatedBefore}
           AND NOT EXISTS (
             SELECT 1 FROM "notification_outbox" "parent"
             WHERE "parent"."id" = "entry"."aggregated_into" AND "parent"."state" IN ('pending', 'sending')
           )
         ORDER BY "entry"."id" LIMIT ${limit}
       )`,
    );
  }

  private store(manager: EntityManager = this.database.dataSource.manager) {
    return manager.getRepository(OutboxEntryEntity);
  }
}
