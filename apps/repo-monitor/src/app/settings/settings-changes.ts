import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import * as pg from 'pg';
import { DataSource } from 'typeorm';
import { MONITOR_CONFIG, MonitorConfig } from '../config/monitor-config';

/** What a console save changed; every in-memory copy of that part of the settings is dropped. */
export type SettingsTopic = 'github_app' | 'channels' | 'rules' | 'templates' | 'ai' | 'system';

export const SETTINGS_TOPICS: readonly SettingsTopic[] = ['github_app', 'channels', 'rules', 'templates', 'ai', 'system'];

/** The PostgreSQL channel every replica listens on; the payload is a SettingsTopic. */
export const SETTINGS_CHANNEL = 'repo_monitor_settings';

/** Waits between attempts to open the listener connection again: 0.5 s doubling up to 30 s. */
/** The listener connection's application_name, so it can be told from the pool's in pg_stat_activity. */
export const SETTINGS_LISTENER_NAME = 'repo-monitor settings listener';
export const LISTENER_BACKOFF_MS = { first: 500, max: 30_000 } as const;

function isTopic(value: string): value is SettingsTopic {
  return (SETTINGS_TOPICS as readonly string[]).includes(value);
}

/**
 * Announces console settings changes to every cache that holds settings, in this process at once
 * and in the other replicas through PostgreSQL LISTEN/NOTIFY (one listener connection per process,
 * opened again with backoff when it drops; after a reconnect every cache is dropped, since a
 * notification may have been missed meanwhile). The caches' own short re-read stays the fallback.
 * On SQLite there is one process, so the local announcement is all there is.
 */
@Injectable()
export class SettingsChanges implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SettingsChanges.name);
  private readonly listeners = new Map<SettingsTopic, Array<() => void>>();
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private connecting: Promise<void> | undefined;

  constructor(
    @Inject(MONITOR_CONFIG) private readonly config: MonitorConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** `listener` runs (synchronously, must not throw) whenever `topic` changed here or on another replica. */
  subscribe(topic: SettingsTopic, listener: () => void): void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), listener]);
  }

  /**
   * Call after the transaction that saved the change has committed: applies here before it
   * resolves, and tells the other replicas. A failed NOTIFY is logged, not thrown (the save
   * committed; the others re-read within their refresh interval).
   */
  async announce(topic: SettingsTopic): Promise<void> {
    this.dispatch(topic);
    if (this.config.database.driver !== 'postgres') return;
    try {
      await this.dataSource.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, topic]);
    } catch (error) {
      this.logger.warn(`could not announce a ${topic} settings change to the other replicas: ${(error as Error).message}`);
    }
  }

  /** Whether the listener connection is open (PostgreSQL only). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.driver !== 'postgres') return;
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

  private dispatch(topic: SettingsTopic): void {
    for (const listener of this.listeners.get(topic) ?? []) {
      try {
        listener();
      } catch (error) {
        this.logger.error(`a ${topic} settings listener failed: ${(error as Error).message}`);
      }
    }
  }

  private dispatchAll(): void {
    for (const topic of SETTINGS_TOPICS) this.dispatch(topic);
  }

  private connect(): Promise<void> {
    this.connecting = this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.stopped || this.config.database.driver !== 'postgres') return;
    const client = new pg.Client({ connectionString: this.config.database.url, connectionTimeoutMillis: 5_000, application_name: SETTINGS_LISTENER_NAME });
    // Without a listener an 'error' event would end the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel !== SETTINGS_CHANNEL) return;
      const topic = message.payload ?? '';
      if (isTopic(topic)) this.dispatch(topic);
      else this.dispatchAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SETTINGS_CHANNEL}`);
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
    if (this.failures > 0) {
      this.logger.log('settings listener connected again; dropping every cached setting');
      this.dispatchAll();
    }
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
    const wait = Math.min(LISTENER_BACKOFF_MS.max, LISTENER_BACKOFF_MS.first * 2 ** Math.min(this.failures - 1, 16));
    this.logger.warn(`settings listener unavailable (${error.message}); retrying in ${wait} ms`);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, wait);
    this.reconnectTimer.unref();
  }
}
