import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DatabaseWork } from '../../database/database-work';
import { joinSql, sql, storedTime } from '../../database/sql';
import { DeliveryStatus, WebhookDeliveryEntity } from './webhook-delivery.entity';

/** A delivery as received, about to be stored as `accepted`. */
export interface NewWebhookDelivery {
  deliveryId: string;
  event: string;
  action: string | null;
  installationId: number | null;
  repositoryFullName: string | null;
  payload: string;
  receivedAt: Date;
}

/** What processing reads of a stored delivery: what applying it needs, and whether it is still to do. */
export type DeliveryToProcess = Pick<WebhookDeliveryEntity, 'deliveryId' | 'event' | 'installationId' | 'payload' | 'status'>;

/** A stored delivery as the dashboard lists it (without its payload). */
export type DeliverySummary = Pick<
  WebhookDeliveryEntity,
  'id' | 'deliveryId' | 'event' | 'action' | 'repositoryFullName' | 'status' | 'lastError' | 'receivedAt' | 'processedAt'
>;

/** The columns processing reads of a stored delivery, as a raw query answers them. */
interface ToProcessRow {
  delivery_id: string;
  event: string;
  installation_id: number | string | null;
  payload: string;
  status: DeliveryStatus;
}

interface SummaryRow {
  id: number | string;
  delivery_id: string;
  event: string;
  action: string | null;
  repository_full_name: string | null;
  status: DeliveryStatus;
  last_error: string | null;
  received_at: string | Date;
  processed_at: string | Date | null;
}

/**
 * The inbound GitHub deliveries (`webhook_deliveries`): DeliveryInbox stores them, DeliveryProcessor
 * applies and settles them, and PR review, the dashboard, the metrics and retention read or remove
 * them. The inbox's INSERT and the processor's statements are on the hot path of every delivery:
 * raw statements, no entity machinery.
 *
 * Its own folder (not processing/) because metrics reads it: processing depends on notifications,
 * which counts into metrics, so metrics importing processing/ would be a folder cycle.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly database: DatabaseWork) {}

  /**
   * Stores `deliveries` (distinct delivery ids) as accepted in one autocommitted statement, skipping
   * delivery ids stored before; answers the row id of each one that was new. The caller decides how
   * durably (DeliveryInbox runs it inside DatabaseWork.durably).
   */
  async insertAccepted(deliveries: readonly NewWebhookDelivery[]): Promise<Map<string, number>> {
    const values = deliveries.map(
      (delivery) =>
        sql`(${[
          delivery.deliveryId,
          delivery.event,
          delivery.action,
          delivery.installationId,
          delivery.repositoryFullName,
          delivery.payload,
          'accepted',
          0,
          delivery.receivedAt,
        ]})`,
    );
    const rows = await this.database.returning<{ id: number; delivery_id: string }>(
      this.database.dataSource.manager,
      sql`INSERT INTO "webhook_deliveries" ("delivery_id", "event", "action", "installation_id", "repository_full_name", "payload", "status", "attempts", "received_at")
         VALUES ${joinSql(values, ', ')}
         ON CONFLICT ("delivery_id") DO NOTHING
         RETURNING "id", "delivery_id"`,
    );
    return new Map(rows.map((row) => [row.delivery_id, Number(row.id)]));
  }

  /** The deliveries accepted but not yet processed (left by a stop or a crash), oldest first. */
  async accepted(): Promise<Array<{ id: number; repositoryFullName: string | null }>> {
    const rows = await this.database.rows<{ id: number | string; repository_full_name: string | null }>(
      sql`SELECT "id", "repository_full_name" FROM "webhook_deliveries" WHERE "status" = 'accepted' ORDER BY "id" ASC`,
    );
    return rows.map((row) => ({ id: Number(row.id), repositoryFullName: row.repository_full_name }));
  }

  /** Accepted deliveries received before `cutoff`, oldest first, at most `limit` (those a dead replica left behind). */
  async acceptedBefore(cutoff: Date, limit: number): Promise<Array<{ id: number; repositoryFullName: string | null }>> {
    const rows = await this.database.rows<{ id: number | string; repository_full_name: string | null }>(
      sql`SELECT "id", "repository_full_name" FROM "webhook_deliveries" WHERE "status" = 'accepted' AND "received_at" < ${cutoff} ORDER BY "id" ASC LIMIT ${limit}`,
    );
    return rows.map((row) => ({ id: Number(row.id), repositoryFullName: row.repository_full_name }));
  }

  /** The stored delivery `id` as processing applies it, read inside `manager`'s transaction. */
  async toProcess(manager: EntityManager, id: number): Promise<DeliveryToProcess | undefined> {
    const [row] = await this.database.rows<ToProcessRow>(
      sql`SELECT "delivery_id", "event", "installation_id", "payload", "status" FROM "webhook_deliveries" WHERE "id" = ${id}`,
      manager,
    );
    if (!row) return undefined;
    return {
      deliveryId: row.delivery_id,
      event: row.event,
      installationId: row.installation_id === null ? null : Number(row.installation_id),
      payload: row.payload,
      status: row.status,
    };
  }

  /** accepted -> processed (one more attempt, no error) inside `manager`'s transaction; false when it was not accepted (another instance got there first). */
  async markProcessed(manager: EntityManager, id: number, now: Date): Promise<boolean> {
    const changed = await this.database.affected(
      manager,
      sql`UPDATE "webhook_deliveries" SET "status" = 'processed', "processed_at" = ${now}, "attempts" = "attempts" + 1, "last_error" = NULL
           WHERE "id" = ${id} AND "status" = 'accepted'`,
    );
    return changed === 1;
  }

  /**
   * Counts a failed attempt of an accepted delivery inside `manager`'s transaction and keeps `message`;
   * at `maxAttempts` it is given up (`failed`). Answers its attempts and status after, or undefined when
   * it was not accepted.
   */
  async recordFailure(manager: EntityManager, id: number, message: string, maxAttempts: number): Promise<{ attempts: number; status: DeliveryStatus } | undefined> {
    const [row] = await this.database.returning<{ attempts: number | string; status: DeliveryStatus }>(
      manager,
      sql`UPDATE "webhook_deliveries"
           SET "attempts" = "attempts" + 1, "last_error" = ${message},
               "status" = CASE WHEN "attempts" + 1 >= ${maxAttempts} THEN 'failed' ELSE 'accepted' END
           WHERE "id" = ${id} AND "status" = 'accepted'
           RETURNING "attempts", "status"`,
    );
    return row ? { attempts: Number(row.attempts), status: row.status } : undefined;
  }

  /** The event and action of a stored delivery (read before its payload, which only a PR event needs). */
  async head(id: number): Promise<{ id: number; event: string; action: string | null } | null> {
    const [row] = await this.database.rows<{ id: number | string; event: string; action: string | null }>(
      sql`SELECT "id", "event", "action" FROM "webhook_deliveries" WHERE "id" = ${id} LIMIT 1`,
    );
    return row ? { id: Number(row.id), event: row.event, action: row.action } : null;
  }

  /** The stored payload (JSON text) of a delivery. */
  async payload(id: number): Promise<string | undefined> {
    const [row] = await this.database.rows<{ payload: string }>(sql`SELECT "payload" FROM "webhook_deliveries" WHERE "id" = ${id} LIMIT 1`);
    return row?.payload;
  }

  /** The payload of the newest stored pull_request delivery of the repository. */
  async latestPullRequestPayload(repositoryFullName: string): Promise<string | undefined> {
    const [row] = await this.database.rows<{ payload: string }>(
      sql`SELECT "payload" FROM "webhook_deliveries" WHERE "event" = 'pull_request' AND "repository_full_name" = ${repositoryFullName} ORDER BY "id" DESC LIMIT 1`,
    );
    return row?.payload;
  }

  /** The latest `limit` deliveries, newest first, without their payloads. */
  async latest(limit: number): Promise<DeliverySummary[]> {
    const rows = await this.database.rows<SummaryRow>(
      sql`SELECT "id", "delivery_id", "event", "action", "repository_full_name", "status", "last_error", "received_at", "processed_at"
         FROM "webhook_deliveries" ORDER BY "id" DESC LIMIT ${limit}`,
    );
    return rows.map((row) => ({
      id: Number(row.id),
      deliveryId: row.delivery_id,
      event: row.event,
      action: row.action,
      repositoryFullName: row.repository_full_name,
      status: row.status,
      lastError: row.last_error,
      receivedAt: storedTime(row.received_at) as Date,
      processedAt: storedTime(row.processed_at) ?? null,
    }));
  }

  /** A page of stored deliveries, newest first, without payloads; `status` and `event` narrow it. */
  async page(filter: { status?: DeliveryStatus; event?: string }, window: { skip: number; perPage: number }): Promise<{ rows: Array<DeliverySummary & { attempts: number }>; total: number }> {
    const [rows, total] = await this.database.dataSource.getRepository(WebhookDeliveryEntity).findAndCount({
      select: { id: true, deliveryId: true, event: true, action: true, repositoryFullName: true, status: true, attempts: true, lastError: true, receivedAt: true, processedAt: true },
      where: { ...(filter.status ? { status: filter.status } : {}), ...(filter.event ? { event: filter.event } : {}) },
      order: { id: 'DESC' },
      skip: window.skip,
      take: window.perPage,
    });
    return { rows, total };
  }

  /** How many deliveries are stored in each status (statuses without one are absent). */
  async countByStatus(): Promise<Partial<Record<DeliveryStatus, number>>> {
    const rows = await this.database.rows<{ key: DeliveryStatus; count: number | string }>(
      sql`SELECT "status" AS "key", COUNT(*) AS "count" FROM "webhook_deliveries" GROUP BY "status"`,
    );
    return Object.fromEntries(rows.map((row) => [row.key, Number(row.count)]));
  }

  /**
   * Deletes at most `limit` finished deliveries (processed, duplicate or failed; never one still to
   * process) received before `receivedBefore`, oldest first, inside `manager`'s transaction; answers how many.
   */
  deleteFinishedBefore(manager: EntityManager, receivedBefore: Date, limit: number): Promise<number> {
    return this.database.affected(
      manager,
      sql`DELETE FROM "webhook_deliveries" WHERE "id" IN (
         SELECT "id" FROM "webhook_deliveries"
         WHERE "status" IN ('processed', 'duplicate', 'failed') AND "received_at" < ${receivedBefore}
         ORDER BY "id" LIMIT ${limit}
       )`,
    );
  }
}
