import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawVariables } from '@shared/config';
import { LifecycleServer } from '@shared/http-service';
import { copySqliteTemplate, createTestPostgresDatabase, filesKey, tempDir, testDatabaseDriver, TestDatabaseTemplate, TestPostgresDatabase } from '@shared/testing';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createMonitorApp, listenMonitorApp, shutDownMonitorApp } from '../src/app/create-app';
import { loadMonitorConfig, MonitorConfig } from '../src/app/config/monitor-config';
import { dataSourceOptions } from '../src/database/data-source-options';

export interface RunningMonitor {
  url: string;
  app: NestFastifyApplication;
  config: MonitorConfig;
  dataDir: string;
  /** The variables this instance was started with, to start another on the same data. */
  env: RawVariables;
  /** Stops the app; keeps its data so a test can start again on it. */
  stop: () => Promise<void>;
  /** Stops the app as SIGTERM does (503 while draining); keeps its data. */
  shutDown: () => Promise<void>;
  /** Stops the app and removes its data directory and database. */
  close: () => Promise<void>;
}

const migrations = join(__dirname, '../src/database/migrations');

/**
 * The migrated schema each fresh instance starts on (a copy, per driver): every migration still
 * runs on both drivers, once per run, and the service at start finds none left to run.
 */
export const MONITOR_TEMPLATE: Record<'sqlite' | 'postgres', TestDatabaseTemplate> = {
  sqlite: {
    name: 'monitor',
    key: filesKey(join(migrations, 'sqlite')),
    migrate: (path) => migrate(new DataSource(dataSourceOptions({ driver: 'sqlite', path }))),
  },
  postgres: {
    name: 'monitor',
    key: filesKey(join(migrations, 'postgres')),
    migrate: (url) => migrate(new DataSource(dataSourceOptions({ driver: 'postgres', url, maxOpenConns: 2, maxIdleConns: 0 }))),
  },
};

async function migrate(dataSource: DataSource): Promise<void> {
  await dataSource.initialize();
  await dataSource.destroy();
}

export interface StartOptions {
  env?: RawVariables;
  /** Start on the data of an earlier instance (pass its `env`). */
  reuseEnv?: RawVariables;
  /** A listener the test already listens on (to watch the start from a client). */
  lifecycle?: LifecycleServer;
  /** Runs after the app is created on its listener and before it serves. */
  beforeListen?: () => Promise<void>;
  /** A built console to serve at `/` (dist/apps/repo-monitor-web, or a stand-in folder). */
  webRoot?: string;
  /** Name prefix of the PostgreSQL database created for this instance (default `monitor`). */
  databasePrefix?: string;
}

/**
 * Boots the real repo-monitor on a random port with a fresh SQLite file, or (with
 * TEST_DATABASE_DRIVER=postgres) a PostgreSQL database created for this instance.
 */
export async function startMonitor(options: StartOptions = {}): Promise<RunningMonitor> {
  const dir = tempDir('monitor-e2e-');
  let database: TestPostgresDatabase | undefined;
  let env: RawVariables;
  if (options.reuseEnv) {
    env = { ...options.reuseEnv, ...(options.env ?? {}) };
  } else {
    const databaseEnv: RawVariables =
      testDatabaseDriver() === 'postgres'
        ? ((database = await createTestPostgresDatabase(options.databasePrefix ?? 'monitor', MONITOR_TEMPLATE.postgres)),
          { MONITOR_DATABASE_DRIVER: 'postgres', MONITOR_DATABASE_URL: database.url })
        : { MONITOR_DATABASE_DRIVER: 'sqlite', MONITOR_DATABASE_URL: `file:${join(dir.path, 'repo-monitor.db')}` };
    env = { MONITOR_HTTP_ADDR: '127.0.0.1:0', MONITOR_LOG_LEVEL: 'warn', ...databaseEnv, ...(options.env ?? {}) };
  }
  const config = loadMonitorConfig({ env });
  const freshSqlite = join(dir.path, 'repo-monitor.db');
  if (!options.reuseEnv && config.database.driver === 'sqlite' && config.database.path === freshSqlite && !existsSync(freshSqlite)) {
    await copySqliteTemplate(MONITOR_TEMPLATE.sqlite, freshSqlite);
  }
  const app = await createMonitorApp(config, options.lifecycle, { webRoot: options.webRoot });
  await options.beforeListen?.();
  const url = await listenMonitorApp(app);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.close();
  };
  const shutDown = async () => {
    if (stopped) return;
    stopped = true;
    await shutDownMonitorApp(app, config);
  };
  return {
    url,
    app,
    config,
    dataDir: dir.path,
    env,
    stop,
    shutDown,
    close: async () => {
      await stop();
      await database?.drop();
      dir.remove();
    },
  };
}

/** Admin credentials for tests: start with `startMonitor({ env: { ...TEST_ADMIN_ENV } })`, then `loginAdmin`. */
export const TEST_ADMIN_ENV: RawVariables = {
  MONITOR_ADMIN_USERNAME: 'admin',
  MONITOR_ADMIN_PASSWORD: 'correct-horse-battery-staple',
};

/** A master key for tests that store secrets (hex, 32 bytes). */
export const TEST_ENCRYPTION_KEY = 'a1'.repeat(32);

export interface AdminSession {
  /** The `Cookie` header value to send. */
  cookie: string;
  /** The X-CSRF-Token header value for writes. */
  csrf: string;
}

/**
 * Signs in as the admin the instance was started with (MONITOR_ADMIN_USERNAME / PASSWORD in its
 * env) and returns the cookie and CSRF token a later request needs.
 */
export async function loginAdmin(monitor: RunningMonitor): Promise<AdminSession> {
  const username = monitor.env['MONITOR_ADMIN_USERNAME'];
  const password = monitor.env['MONITOR_ADMIN_PASSWORD'];
  if (!username || !password) throw new Error('loginAdmin needs an instance started with MONITOR_ADMIN_USERNAME and MONITOR_ADMIN_PASSWORD');
  const response = await fetch(`${monitor.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) throw new Error(`login failed with HTTP ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { csrf_token: string };
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0];
  // `__Host-monitor_session` when the service takes the request for https (an https public base URL).
  if (!/^(__Host-)?monitor_session=/.test(cookie)) throw new Error('login did not set the monitor_session cookie');
  return { cookie, csrf: body.csrf_token };
}

/** Headers for an authenticated console request (the CSRF header is harmless on reads). */
export function adminHeaders(session: AdminSession): Record<string, string> {
  return { cookie: session.cookie, 'x-csrf-token': session.csrf };
}
