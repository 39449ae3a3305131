import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { PANEL_CONFIG, PanelConfig } from '../config/panel-config';
import { ClusterService } from './cluster.service';

/** The PostgreSQL channel finished runs are announced on; the payload is `{ replica, event }` as JSON. */
export const SIGN_LOG_CHANNEL = 'panel_sign_logs';
/** The channel revoked access tokens are announced on; the payload is `{ replica, revocation }` as JSON. */
export const TOKEN_REVOCATION_CHANNEL = 'panel_token_revocations';
const LISTENER_NAME = 'panel-api cluster event listener';
const BACKOFF_MS = { first: 500, max: 30_000 } as const;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more: a long run message is cut for the announcement. */
const MAX_MESSAGE_CHARS = 2_000;

/** What a replica announces about a run it recorded (the live sign history event). */
export interface AnnouncedSignLog {
  run_id: string;
  account_name: string;
  task_name: string;
  success: boolean;
  message: string;
  created_at: string;
  failure_category: string;
}

/** A revoked access token as replicas announce it (see TokenRevocation in auth/). */
export interface AnnouncedTokenRevocation {
  userId?: number;
  tokenVersion?: number;
  tokenId?: string;
}

/**
 * The live sign history of every replica on every replica (issue 31 item 4): a replica that records a
 * run announces it with NOTIFY after the commit; every replica LISTENs (one connection, opened again
 * with backoff when it drops) and hands the runs of the others to its stream. Revoked access tokens
 * (a logout, a password change) travel the same way on their own channel, so every replica closes
 * the event streams of that token at once. On SQLite there is one process and nothing to announce.
 */
@Injectable()
export class ClusterEvents implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ClusterEvents.name);
  private readonly listeners = new Set<(event: AnnouncedSignLog) => void>();
  private readonly revocationListeners = new Set<(revocation: AnnouncedTokenRevocation) => void>();
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private connecting: Promise<void> | undefined;

  constructor(
    @Inject(PANEL_CONFIG) private readonly config: PanelConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cluster: ClusterService,
  ) {}

  /** `listener` gets the runs other replicas recorded. */
  onRemoteSignLog(listener: (event: AnnouncedSignLog) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the other replicas about a run recorded here; a failed NOTIFY is logged, never thrown. */
  async announceSignLog(event: AnnouncedSignLog): Promise<void> {
    if (!this.cluster.active) return;
    const payload = JSON.stringify({ replica: this.cluster.replicaId, event: { ...event, message: event.message.slice(0, MAX_MESSAGE_CHARS) } });
    try {
      await this.dataSource.query('SELECT pg_notify($1, $2)', [SIGN_LOG_CHANNEL, payload]);
    } catch (error) {
      this.logger.warn(`Could not announce run ${event.run_id} to the other replicas: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** `listener` gets the token revocations other replicas announced. */
  onRemoteTokenRevocation(listener: (revocation: AnnouncedTokenRevocation) => void): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  /** Tells the other replicas that tokens were revoked; a failed NOTIFY is logged (their per-request check still refuses the token). */
  async announceTokenRevocation(revocation: AnnouncedTokenRevocation): Promise<void> {
    if (!this.cluster.active) return;
    try {
      await this.dataSource.query('SELECT pg_notify($1, $2)', [TOKEN_REVOCATION_CHANNEL, JSON.stringify({ replica: this.cluster.replicaId, revocation })]);
    } catch (error) {
      this.logger.warn(`Could not announce a token revocation to the other replicas: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.cluster.active) return;
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private receivedRevocation(payload: string | undefined): void {
    let parsed: { replica?: unknown; revocation?: Record<string, unknown> };
    try {
      parsed = JSON.parse(payload ?? '') as typeof parsed;
    } catch {
      return;
    }
    const revocation = parsed.revocation;
    if (parsed.replica === this.cluster.replicaId || !revocation || typeof revocation !== 'object') return;
    const announced: AnnouncedTokenRevocation = {
      userId: typeof revocation['userId'] === 'number' ? revocation['userId'] : undefined,
      tokenVersion: typeof revocation['tokenVersion'] === 'number' ? revocation['tokenVersion'] : undefined,
      tokenId: typeof revocation['tokenId'] === 'string' ? revocation['tokenId'] : undefined,
    };
    for (const listener of this.revocationListeners) {
      try {
        listener(announced);
      } catch (error) {
        this.logger.error({ err: error }, 'A token revocation listener failed');
      }
    }
  }

  private received(payload: string | undefined): void {
    let parsed: { replica?: unknown; event?: Partial<AnnouncedSignLog> };
    try {
      parsed = JSON.parse(payload ?? '') as typeof parsed;
    } catch {
      return;
    }
    const event = parsed.event;
    if (parsed.replica === this.cluster.replicaId || !event || typeof event.run_id !== 'string' || typeof event.task_name !== 'string' || typeof event.account_name !== 'string') return;
    const announced: AnnouncedSignLog = {
      run_id: event.run_id,
      account_name: event.account_name,
      task_name: event.task_name,
      success: event.success === true,
      message: typeof event.message === 'string' ? event.message : '',
      created_at: typeof event.created_at === 'string' ? event.created_at : new Date().toISOString(),
      failure_category: typeof event.failure_category === 'string' ? event.failure_category : 'none',
    };
    for (const listener of this.listeners) {
      try {
        listener(announced);
      } catch (error) {
        this.logger.error({ err: error }, 'A sign log listener failed');
      }
    }
  }

  private connect(): Promise<void> {
    this.connecting = this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.stopped || this.config.database.driver !== 'postgres') return;
    const client = new pg.Client({ connectionString: this.config.database.url, connectionTimeoutMillis: 5_000, application_name: LISTENER_NAME });
    // Without a listener an 'error' event would end the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === SIGN_LOG_CHANNEL) this.received(message.payload);
      else if (message.channel === TOKEN_REVOCATION_CHANNEL) this.receivedRevocation(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SIGN_LOG_CHANNEL}`);
      await client.query(`LISTEN ${TOKEN_REVOCATION_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.scheduleReconnect(error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    this.scheduleReconnect(error ?? new Error('the connection ended'));
  }

  private scheduleReconnect(error: Error): void {
    if (this.stopped || this.reconnectTimer) return;
    this.failures += 1;
    const wait = Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** Math.min(this.failures - 1, 16));
    this.logger.warn(`Cluster event listener unavailable (${error.message}); retrying in ${wait} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, wait);
    this.reconnectTimer.unref();
  }
}
